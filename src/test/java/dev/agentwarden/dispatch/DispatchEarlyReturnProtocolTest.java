package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way dispatch answers before (or instead of) running a chain — bad arguments, unreadable or
 * late stdin, an unknown event, a broken manifest, an internal error — still speaks the host's
 * protocol: for each host, path and event, stdout is exactly what that host requires for "no
 * opinion" (Codex reads Stop and SubagentStop as JSON, so there it is {@code {}}; everywhere else,
 * nothing), with the reason on stderr.
 */
class DispatchEarlyReturnProtocolTest {
    private static final List<String> HOSTS = List.of("claude", "cowork", "codex");
    private static final List<String> EVENTS = List.of("SessionStart", "UserPromptSubmit", "PreToolUse",
            "PermissionRequest", "PostToolUse", "SubagentStart", "SubagentStop", "Stop", "SessionEnd");
    /** Released after the class, so that no reader thread stays blocked in the test JVM. */
    private static final CountDownLatch NEVER_CLOSED = new CountDownLatch(1);

    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();
    private static Path quietManifest;
    private static Path brokenManifest;

    @BeforeAll
    static void createProject() throws IOException {
        StringBuilder yaml = new StringBuilder("schema_version: 1\nconcerns: {}\nplatforms: {}\nnative_event_aliases:\n");
        for (String host : HOSTS) {
            yaml.append("  ").append(host).append(":\n");
            for (String event : EVENTS) {
                yaml.append("    ").append(event).append(": ")
                        .append(event.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT)).append('\n');
            }
        }
        quietManifest = Files.writeString(project.dir.resolve("quiet.yaml"), yaml.toString());
        brokenManifest = Files.writeString(project.dir.resolve("broken.yaml"),
                "schema_version: 1\nconcerns: {}\nplatforms:\n  claude:\n    pre_tool_use: ghost\n");
    }

    @AfterAll
    static void deleteProject() throws IOException {
        NEVER_CLOSED.countDown();
    }

    /**
     * One early-return path: extra arguments, stdin, extra environment, and what stderr must name.
     */
    record EarlyReturn(String name, List<String> extraArgs, Stdin stdin, Map<String, String> env, String note) {
        @Override
        public String toString() {
            return name;
        }
    }

    interface Stdin {
        InputStream open();
    }

    static List<EarlyReturn> paths() {
        byte[] event = "{\"session_id\":\"s\",\"cwd\":\"/tmp\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}"
                .getBytes(StandardCharsets.UTF_8);
        return List.of(
                new EarlyReturn("emptyStdin", List.of(), () -> bytes(new byte[0]), Map.of(), "payload_not_json"),
                new EarlyReturn("notJson", List.of(), () -> bytes("Stop now".getBytes(StandardCharsets.UTF_8)), Map.of(), "payload_not_json"),
                new EarlyReturn("jsonArray", List.of(), () -> bytes("[{}]".getBytes(StandardCharsets.UTF_8)), Map.of(), "payload_not_object"),
                new EarlyReturn("overCap", List.of(), () -> bytes(event), Map.of("WARDEN_MAX_PAYLOAD_BYTES", "8"), "payload_too_large"),
                new EarlyReturn("invalidUtf8", List.of(), () -> bytes(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, 0x28}), Map.of(),
                        "payload_not_json"),
                new EarlyReturn("stdinNeverCloses", List.of(), NeverEnding::new, Map.of("WARDEN_STDIN_TIMEOUT_MS", "50"),
                        "payload_timeout: stdin still open after 50 ms"),
                new EarlyReturn("brokenManifest", List.of("--manifest", "BROKEN"), () -> bytes(event), Map.of(), "manifest unusable"),
                new EarlyReturn("unknownEvent", List.of("--event", "no_such_event"), () -> bytes(event), Map.of(),
                        "unknown event 'no_such_event'"),
                new EarlyReturn("unknownOption", List.of("--bogus", "x"), () -> bytes(event), Map.of(), "unknown dispatch option"),
                new EarlyReturn("internalError", List.of(), Exploding::new, Map.of(), "internal error"),
                new EarlyReturn("internalLinkageError", List.of(), Unlinked::new, Map.of(),
                        "internal error: java.lang.NoClassDefFoundError: dev/agentwarden/Missing"));
    }

    static Stream<Arguments> everyHostPathAndEvent() {
        List<Arguments> out = new ArrayList<>();
        for (String host : HOSTS) {
            for (EarlyReturn path : paths()) {
                for (String event : EVENTS) {
                    out.add(Arguments.of(host, path, event));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("everyHostPathAndEvent")
    void earlyReturn_anyHostAndEvent_answersInTheHostsProtocol(String host, EarlyReturn path, String event) {
        List<String> argv = new ArrayList<>(List.of("dispatch", "--host", host, "--native-event", event));
        for (String a : path.extraArgs()) {
            argv.add(a.equals("BROKEN") ? brokenManifest.toString() : a);
        }
        if (!path.extraArgs().contains("--manifest")) {
            argv.add("--manifest");
            argv.add(quietManifest.toString());
        }
        Map<String, String> env = new HashMap<>(Map.of("WARDEN_CACHE_DIR", project.cache.toString(),
                "CLAUDE_PROJECT_DIR", project.dir.toString()));
        env.putAll(path.env());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(argv.toArray(String[]::new), path.stdin().open(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, GoldenCorpus.CLOCK);

        boolean jsonRequired = host.equals("codex") && (event.equals("Stop") || event.equals("SubagentStop"));
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).as("stdout").isEqualTo(jsonRequired ? "{}" : "");
        assertThat(err.toString(StandardCharsets.UTF_8)).as("stderr").contains(path.note()).doesNotContain("\tat ");
    }

    @org.junit.jupiter.api.Test
    void stdinTimeout_fromEnv_plainDigitsWithinBoundsElseDefault() {
        assertThat(new DispatchRequest.Env(Map.of()).stdinTimeoutMs()).isEqualTo(5000);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", "250")).stdinTimeoutMs()).isEqualTo(250);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", "0")).stdinTimeoutMs()).isEqualTo(1);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", "999999999")).stdinTimeoutMs()).isEqualTo(600_000);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", "-5")).stdinTimeoutMs()).isEqualTo(5000);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", " 250")).stdinTimeoutMs()).isEqualTo(5000);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", "1e3")).stdinTimeoutMs()).isEqualTo(5000);
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_STDIN_TIMEOUT_MS", "12345678901")).stdinTimeoutMs()).isEqualTo(5000);
    }

    private static InputStream bytes(byte[] b) {
        return new ByteArrayInputStream(b);
    }

    /** A host that opened the pipe and never closes it. */
    private static final class NeverEnding extends InputStream {
        @Override
        public int read() throws IOException {
            try {
                NEVER_CLOSED.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return -1;
        }
    }

    /** Stdin that fails as a class missing from a damaged jar would. */
    private static final class Unlinked extends InputStream {
        @Override
        public int read() {
            throw new NoClassDefFoundError("dev/agentwarden/Missing");
        }
    }

    /** Stdin that fails with an unchecked exception, standing in for any bug on the dispatch path. */
    private static final class Exploding extends InputStream {
        @Override
        public int read() {
            throw new IllegalStateException("boom");
        }
    }
}
