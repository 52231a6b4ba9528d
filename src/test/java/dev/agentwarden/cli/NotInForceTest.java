package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden test}, {@code replay} and {@code doctor} say in their first line when the manifest on
 * disk is not the one in force, and what to run; nothing when it is.
 */
class NotInForceTest {
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-rm:
                script: builtin:deny-pattern
                posture: blocking
                tools: [Bash]
                patterns:
                  - match: 'rm\\s+-rf'
                    reason: "rm -rf is not for agents here"
            platforms:
              claude:
                pre_tool_use: [no-rm]
            """;

    private static final String CASES = """
            cases:
              - name: rm -rf is refused
                host: claude
                event: PreToolUse
                payload: {tool_name: Bash, tool_input: {command: "rm -rf build"}}
                verdict: block
            """;

    @TempDir
    Path tmp;

    private Path project;
    private Map<String, String> env;

    @BeforeEach
    void project() throws Exception {
        project = Files.createDirectories(tmp.resolve("project"));
        Files.createDirectories(project.resolve(".warden/tests"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST);
        Files.writeString(project.resolve(".warden/tests/cases.yaml"), CASES);
        Files.createDirectories(project.resolve("captures"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        env = Map.of("HOME", home.toString(), "XDG_STATE_HOME", home.resolve(".local/state").toString(),
                "WARDEN_CACHE_DIR", tmp.resolve("cache").toString(), "PATH", "/usr/bin:/bin");
    }

    @Test
    void trustedAndUnchanged_noLine() {
        assertThat(run("trust", "--yes").code).isZero();

        for (String[] command : commands()) {
            assertThat(run(command).out).as(String.join(" ", command)).doesNotContain("not in force");
        }
    }

    @Test
    void editedSinceTrusted_firstLineSaysSoAndWhatToRun() throws Exception {
        assertThat(run("trust", "--yes").code).isZero();
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST + "# edited\n");

        for (String[] command : commands()) {
            String first = run(command).out.lines().findFirst().orElse("");
            assertThat(first).as(String.join(" ", command)).isEqualTo("manifest on disk is not in force"
                    + " (.warden/manifest.yaml edited since it was last trusted; the last trusted version is what runs):"
                    + " run 'warden trust' to put it in force");
        }
    }

    @Test
    void neverTrusted_firstLineSaysTheDefaultRuns() {
        String first = run("test").out.lines().findFirst().orElse("");

        assertThat(first).contains("not in force (.warden/manifest.yaml never trusted; the default manifest is what runs)")
                .contains("run 'warden trust'");
    }

    @Test
    void jsonOutput_lineGoesToStderr_stdoutStaysJson() throws Exception {
        assertThat(run("trust", "--yes").code).isZero();
        Files.writeString(project.resolve(".warden/manifest.yaml"), MANIFEST + "# edited\n");

        Ran ran = run("test", "--json");

        assertThat(ran.out.strip()).as(ran.err).startsWith("{");
        assertThat(ran.err).contains("manifest on disk is not in force");
    }

    private String[][] commands() {
        return new String[][] {{"test"}, {"replay", project.resolve("captures").toString()},
            {"doctor", "--host", "claude", "--scope", "project"}};
    }

    private record Ran(int code, String out, String err) {
    }

    private Ran run(String... args) {
        String[] withDir = new String[args.length + 2];
        System.arraycopy(args, 0, withDir, 0, args.length);
        withDir[args.length] = "--project-dir";
        withDir[args.length + 1] = project.toString();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WardenCli.execute(withDir, new PrintWriter(out, true), new PrintWriter(err, true), env);
        return new Ran(code, out.toString(), err.toString());
    }
}
