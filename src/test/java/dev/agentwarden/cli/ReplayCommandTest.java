package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.testing.TestTrust;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden replay} and {@code warden test --from-capture}: captured events under another manifest. */
class ReplayCommandTest {
    @TempDir
    Path tmp;

    static final String STRICTER = """
            schema_version: 1
            concerns:
              no-echo:
                script: builtin:deny-pattern
                posture: blocking
                tools: [Bash]
                patterns:
                  - {match: '\\becho\\b', reason: "no echo in this project"}
            platforms:
              claude: {pre_tool_use: [no-echo]}
            native_event_aliases:
              claude: {PreToolUse: pre_tool_use, SessionStart: session_start, Stop: stop}
            """;

    Map<String, String> env() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        return env;
    }

    /** Three events of a real Claude Code session, captured by dispatch itself in another project. */
    Path capture() throws IOException {
        Path dir = tmp.resolve("captures");
        Files.createDirectories(tmp.resolve("proj"));
        Path project = Files.createDirectories(tmp.resolve("live"));
        MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
        for (String event : List.of("allow-01-SessionStart", "allow-03-PreToolUse", "allow-05-Stop")) {
            new InProcessDispatch(tmp.resolve("cache"), clock, Map.of("WARDEN_CAPTURE_DIR", dir.toString()))
                    .run("claude", HostPayloads.captured("claude-code-2.1.332/" + event + ".json", project.toString()));
            clock.advance(Duration.ofSeconds(1));
        }
        return dir;
    }

    @Test
    void replay_stricterManifest_showsTheChangedVerdict_andWritesNoState() throws IOException {
        Path captures = capture();
        Path stricter = Files.writeString(tmp.resolve("stricter.yaml"), STRICTER);
        Path project = tmp.resolve("proj");

        CliRun r = CliRun.in(env(), "replay", captures.toString(), "--manifest", stricter.toString(),
                "--project-dir", project.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("in force: builtin:default-manifest.yaml");
        assertThat(lines.get(1)).isEqualTo("what if:  " + stricter);
        assertThat(lines.get(3)).contains("SessionStart").endsWith("allow     allow");
        assertThat(lines.get(4)).contains("PreToolUse").contains("Bash").contains("allow     block   <- changes: no echo in this project");
        assertThat(lines.get(5)).contains("Stop").endsWith("allow     allow");
        assertThat(lines.get(6)).isEqualTo("3 event(s), 1 would change: allow → block 1");
        try (Stream<Path> s = Files.list(project)) {
            assertThat(s).as("the replay wrote nothing in the project").isEmpty();
        }
    }

    @Test
    void replay_json_summarisesTheChanges() throws IOException {
        Path captures = capture();
        Path stricter = Files.writeString(tmp.resolve("stricter.yaml"), STRICTER);

        CliRun r = CliRun.in(env(), "replay", captures.toString(), "--manifest", stricter.toString(), "--json",
                "--project-dir", tmp.resolve("proj").toString());

        Map<String, Object> json = Json.parseObject(r.out());
        assertThat(json.get("summary")).isEqualTo(Map.of("events", 3L, "in_force_verdicts", Map.of("allow", 3L),
                "changed", 1L, "changes", Map.of("allow → block", 1L)));
    }

    @Test
    void replay_demoSessionFile_isAccepted() throws IOException {
        Path project = Files.createDirectories(tmp.resolve("proj"));

        CliRun r = CliRun.in(env(), "replay", Path.of("examples/sessions/claude-session.jsonl").toAbsolutePath().toString(),
                "--project-dir", project.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("claude  SessionStart").contains("block").contains(" event(s): ")
                .contains("(pass --manifest M to compare)");
    }

    @Test
    void fromCapture_pinsTodaysVerdicts_andTheWrittenFileRoundTrips() throws IOException {
        Path captures = capture();
        Path project = tmp.resolve("proj");
        Path stricter = Files.writeString(tmp.resolve("stricter.yaml"), STRICTER);
        Path pinned = tmp.resolve("tests/pinned.yaml");
        Files.createDirectories(pinned.getParent());

        CliRun write = CliRun.in(env(), "test", "--from-capture", captures.toString(), "--out", pinned.toString(),
                "--project-dir", project.toString());
        CliRun again = CliRun.in(env(), "test", "--from-capture", captures.toString(), "--out", pinned.toString(),
                "--project-dir", project.toString());
        CliRun today = CliRun.in(env(), "test", pinned.toString(), "--project-dir", project.toString());
        CliRun changed = CliRun.in(env(), "test", pinned.toString(), "--manifest", stricter.toString(),
                "--project-dir", project.toString());

        assertThat(write.exit()).as(write.err()).isZero();
        assertThat(write.out()).contains("wrote " + pinned + ": 3 case(s)");
        assertThat(Files.readString(pinned)).contains("payload_file: \"../captures/claude-PreToolUse-2026-12-01T10-00-01.000Z.json\"")
                .doesNotContain("echo hello");
        assertThat(again.exit()).as("never overwritten").isEqualTo(2);
        assertThat(again.err()).contains(pinned + " exists");
        assertThat(today.exit()).as(today.out()).isZero();
        assertThat(today.out()).contains("3 passed, 0 failed");
        assertThat(changed.exit()).isEqualTo(1);
        assertThat(changed.out()).contains("expected allow, got block").contains("2 passed, 1 failed");
    }
}
