package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.dispatch.WardenProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 item 3 through the packaged jar: every command run from {@code proj/src/deep} acts on
 * {@code proj} (docs/project-root.md), a hook event without {@code CLAUDE_PROJECT_DIR} runs the
 * project's manifest, and no {@code .warden/} appears below the root.
 */
class ProjectRootFromSubdirIT {
    private static final String REASON = "DENY-root: no rm -rf here";
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-rm-rf:
                script: builtin:deny-pattern
                posture: blocking
                tools: [Bash]
                patterns:
                  - match: 'rm -rf'
                    reason: "%s"
            platforms:
              claude:
                pre_tool_use: [no-rm-rf]
            native_event_aliases:
              claude: {PreToolUse: pre_tool_use, Stop: stop}
            """.formatted(REASON);

    private static final String CASES = """
            cases:
              - name: rm -rf is refused
                host: claude
                event: PreToolUse
                payload: {tool_name: Bash, tool_input: {command: "rm -rf build"}}
                verdict: block
                reason_contains: DENY-root
            """;

    @TempDir
    Path tmp;

    private Path root;
    private Path deep;
    private Map<String, String> env;

    @BeforeEach
    void project() throws Exception {
        root = Files.createDirectories(tmp.resolve("proj")).toRealPath();
        Files.createDirectories(root.resolve(".git"));
        Files.createDirectories(root.resolve(".warden/tests"));
        Files.writeString(root.resolve(".warden/manifest.yaml"), MANIFEST);
        Files.writeString(root.resolve(".warden/tests/rm.yaml"), CASES);
        deep = Files.createDirectories(root.resolve("src/deep"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("XDG_STATE_HOME", home.resolve(".local/state").toString());
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        env.put("WARDEN_RESIDENT", "off");
    }

    @Test
    void everyCommandFromADeepSubdirectory_actsOnTheRoot_andNoWardenAppearsBelowIt() throws Exception {
        WardenProcess.Result trust = warden("trust", "--yes");
        assertThat(trust.exitCode()).as(trust.stderr()).isZero();
        assertThat(trust.stdout()).contains("trusted " + root.resolve(".warden/manifest.yaml"));

        WardenProcess.Result show = warden("trust", "--show");
        assertThat(show.stdout()).as(show.stderr()).contains("project " + root).contains("in force as trusted");

        WardenProcess.Result install = warden("install", "--host", "claude", "--no-train");
        assertThat(install.exitCode()).as(install.stdout() + install.stderr()).isZero();
        assertThat(root.resolve(".claude/settings.json")).exists();

        WardenProcess.Result test = warden("test");
        assertThat(test.exitCode()).as(test.stdout() + test.stderr()).isZero();
        assertThat(test.stdout()).contains("1 passed, 0 failed");

        WardenProcess.Result lint = warden("manifest", "lint");
        assertThat(lint.exitCode()).as(lint.stdout() + lint.stderr()).isZero();
        assertThat(lint.stdout() + lint.stderr()).contains(root.resolve(".warden/manifest.yaml").toString());

        WardenProcess.Result chain = warden("manifest", "show", "--host", "claude", "--event", "PreToolUse");
        assertThat(chain.stdout()).as(chain.stderr()).contains("no-rm-rf");

        // a hook event as a host sends it from the subdirectory, without CLAUDE_PROJECT_DIR
        byte[] payload = ("{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s1\",\"cwd\":\"" + deep
                + "\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build\"}}").getBytes(StandardCharsets.UTF_8);
        WardenProcess.Result hook = WardenProcess.run(List.of("-Dwarden.home=" + WardenProcess.home().toAbsolutePath()),
                List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse"), env, payload, deep);
        assertThat(hook.stdout()).as(hook.stderr()).contains("\"permissionDecision\":\"deny\"").contains(REASON);

        WardenProcess.Result log = warden("log");
        assertThat(log.exitCode()).as(log.stdout() + log.stderr()).isZero();
        assertThat(log.stdout()).contains("block");

        WardenProcess.Result doctor = warden("doctor", "--host", "claude", "--scope", "project");
        assertThat(doctor.stdout()).as(doctor.stderr()).startsWith("warden doctor: " + root);

        WardenProcess.Result ledger = warden("ledger", "verify");
        assertThat(ledger.stdout() + ledger.stderr()).doesNotContain(deep.toString());

        try (Stream<Path> below = Files.walk(root.resolve("src"))) {
            assertThat(below.filter(p -> p.getFileName().toString().equals(".warden")
                    || p.getFileName().toString().equals(".claude")).toList())
                    .as("nothing Warden writes below the root").isEmpty();
        }
        assertThat(root.resolve(".warden/state")).isDirectory();
    }

    private WardenProcess.Result warden(String... args) throws Exception {
        return WardenProcess.run(List.of("-Dwarden.home=" + WardenProcess.home().toAbsolutePath()), List.of(args), env,
                new byte[0], deep);
    }
}
