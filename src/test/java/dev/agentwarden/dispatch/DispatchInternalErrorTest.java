package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A failure inside Warden itself is answered per WARDEN_FAIL_MODE, never as a stack trace at the host. */
class DispatchInternalErrorTest {

    /** Stdin that fails with an unchecked exception, standing in for any bug on the dispatch path. */
    private static final class ExplodingStdin extends InputStream {
        @Override
        public int read() {
            throw new IllegalStateException("boom");
        }

        @Override
        public int read(byte[] b, int off, int len) {
            throw new IllegalStateException("boom");
        }
    }

    private static String[] run(Map<String, String> env, String nativeEvent) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(new String[] {"dispatch", "--host", "claude", "--native-event", nativeEvent},
                new ExplodingStdin(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, Clock.systemUTC());
        return new String[] {String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void internalError_defaultMode_failsOpenWithANote() {
        String[] r = run(Map.of(), "PreToolUse");
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).isEmpty();
        assertThat(r[2]).contains("warden: internal error: java.lang.IllegalStateException: boom").contains("failing open")
                .doesNotContain("\tat ");
    }

    @Test
    void internalError_closedMode_refusesWhereTheEventCanBeRefused() {
        String[] r = run(Map.of("WARDEN_FAIL_MODE", "closed"), "PreToolUse");
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1]).contains("\"permissionDecision\":\"deny\"").contains("WARDEN_FAIL_MODE=closed");
    }

    @Test
    void internalError_closedMode_allowsWhereTheEventCannotBeRefused() {
        String[] r = run(Map.of("WARDEN_FAIL_MODE", "closed"), "SessionEnd");
        assertThat(r[1]).isEmpty();
        assertThat(r[2]).contains("failing open");
    }
}
