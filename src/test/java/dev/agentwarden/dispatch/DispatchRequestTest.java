package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a transport hands the one dispatch entry: the route, the payload as read, the fail mode read once. */
class DispatchRequestTest {
    static Stream<Arguments> failModes() {
        return Stream.of(
                Arguments.of(Map.of(), FailMode.OPEN),
                Arguments.of(Map.of("WARDEN_FAIL_MODE", "closed"), FailMode.CLOSED),
                Arguments.of(Map.of("WARDEN_FAIL_MODE", "open"), FailMode.OPEN),
                // exactly "closed": anything else is the default, as the launchers read it
                Arguments.of(Map.of("WARDEN_FAIL_MODE", "Closed"), FailMode.OPEN),
                Arguments.of(Map.of("WARDEN_FAIL_MODE", " closed"), FailMode.OPEN),
                Arguments.of(Map.of("WARDEN_FAIL_MODE", ""), FailMode.OPEN));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("failModes")
    void failMode_ofTheEnvironment_isClosedOnlyForExactlyClosed(Map<String, String> env, FailMode expected) {
        assertThat(FailMode.of(env)).isEqualTo(expected);
        DispatchRequest request = DispatchRequest.of(DispatchRequest.Route.parse(new String[] {"--host", "claude"}),
                new byte[0], Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM);
        assertThat(request.failMode()).isEqualTo(expected);
    }

    @Test
    void route_ofAGoodCommandLine_hasNoUsageProblem_andTheHostCanonical() {
        DispatchRequest.Route r = DispatchRequest.Route.parse(new String[] {"dispatch", "--host", "claude-code",
                "--native-event", "PreToolUse", "--project-dir", "/p"});
        assertThat(r.usage()).isNull();
        assertThat(r.host()).isEqualTo("claude");
        assertThat(r.nativeEvent()).isEqualTo("PreToolUse");
        assertThat(r.projectDir()).isEqualTo("/p");
    }

    @Test
    void route_ofABadCommandLine_keepsItsHostAndEvent_forAnAnswerInTheHostsProtocol() {
        DispatchRequest.Route r = DispatchRequest.Route.parse(new String[] {"dispatch", "--host", "codex",
                "--native-event", "Stop", "--bogus", "x"});
        assertThat(r.usage()).isEqualTo("unknown dispatch option '--bogus'");
        assertThat(r.host()).isEqualTo("codex");
        assertThat(r.nativeEvent()).isEqualTo("Stop");
        assertThat(DispatchRequest.Route.parse(new String[] {"--host"}).usage()).isEqualTo("option --host needs a value");
        assertThat(DispatchRequest.Route.parse(new String[0]).usage()).isEqualTo("--host is required");
    }

    @Test
    void payload_overTheCap_isTooLarge_whetherHeldWholeOrRead() {
        DispatchRequest.Env env = new DispatchRequest.Env(Map.of("WARDEN_MAX_PAYLOAD_BYTES", "4"));
        assertThat(DispatchRequest.Payload.of(new byte[5], env).problem()).isEqualTo(DispatchRequest.PayloadProblem.TOO_LARGE);
        assertThat(DispatchRequest.Payload.read(new ByteArrayInputStream(new byte[5]), env).problem())
                .isEqualTo(DispatchRequest.PayloadProblem.TOO_LARGE);
        assertThat(DispatchRequest.Payload.of(new byte[4], env).bytes()).hasSize(4);
        assertThat(DispatchRequest.PayloadProblem.TOO_LARGE.code()).isEqualTo("payload_too_large");
    }

    @Test
    void payload_whoseStreamFails_isUnreadable_andOneThatThrowsUnchecked_isKeptForTheInternalErrorPath() {
        DispatchRequest.Env env = new DispatchRequest.Env(Map.of());
        DispatchRequest.Payload failed = DispatchRequest.Payload.read(new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("gone");
            }
        }, env);
        assertThat(failed.problem()).isEqualTo(DispatchRequest.PayloadProblem.UNREADABLE);
        assertThat(failed.detail()).isEqualTo("gone");
        DispatchRequest.Payload crashed = DispatchRequest.Payload.read(new InputStream() {
            @Override
            public int read() {
                throw new IllegalStateException("boom");
            }
        }, env);
        assertThat(crashed.problem()).isNull();
        assertThat(crashed.crash()).isInstanceOf(IllegalStateException.class);
    }
}
