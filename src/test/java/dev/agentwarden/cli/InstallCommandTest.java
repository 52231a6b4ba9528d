package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Hosts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Install and uninstall arguments refused before anything is read or written (the full
 * install/uninstall runs are {@link InstallCommandIT}, with HOME in a temp dir).
 */
class InstallCommandTest {
    @TempDir
    Path project;

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("install", "claud", null, "unknown host 'claud'; did you mean `claude`?"),
                Arguments.of("uninstall", "codx", null, "unknown host 'codx'; did you mean `codex`?"),
                Arguments.of("install", "claude", "global", "--scope must be project, user, local or managed, not 'global'"),
                Arguments.of("install", "codex", "local", "Codex has no local (uncommitted) settings file"),
                Arguments.of("install", "qwen", "managed", "--scope managed is not built for Qwen Code yet"),
                Arguments.of("install", "claude-cod", null, "unknown host 'claude-cod'; did you mean `claude`?"),
                Arguments.of("uninstall", "copilotcli", null, "unknown host 'copilotcli'; did you mean `copilot`?"),
                Arguments.of("install", "cowork", "project", "Cowork honours only user settings (~/.claude/settings.json)"),
                Arguments.of("uninstall", "cowork", "project", "Cowork honours only user settings"));
    }

    @ParameterizedTest(name = "{0} --host {1} --scope {2}")
    @MethodSource("refused")
    void command_badHostOrScope_exit2AndNothingWritten(String command, String host, String scope, String message) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = scope == null
                ? new String[] {command, "--host", host, "--project-dir", project.toString(), "--no-train"}
                : new String[] {command, "--host", host, "--scope", scope, "--project-dir", project.toString(), "--no-train"};
        if (command.equals("uninstall")) {
            args = java.util.Arrays.stream(args).filter(a -> !a.equals("--no-train")).toArray(String[]::new);
        }

        int code = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(message);
        assertThat(out.toString()).isEmpty();
        try (Stream<Path> files = Files.list(project)) {
            assertThat(files).isEmpty();
        }
    }

    static Stream<Arguments> bindsNothing() {
        return Stream.of(
                Arguments.of("claudeOnlyInstalledForCodex", "schema_version: 1\nconcerns:\n  a: {script: builtin:block-no-verify}\n"
                        + "platforms:\n  claude:\n    pre_tool_use: [a]\nnative_event_aliases:\n  claude: {PreToolUse: pre_tool_use}\n"
                        + "  codex: {PreToolUse: pre_tool_use}\n", "codex",
                        "binds nothing for codex: it binds no concerns for codex (platforms.codex)"));
    }

    /** install wrote {@code {"hooks": {}}} for a manifest binding nothing for the host; now it refuses and says why. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bindsNothing")
    void install_manifestBindsNothingForHost_refusedWithReason(String name, String yaml, String host, String reason) throws Exception {
        Path manifest = Files.writeString(project.resolve("m.yaml"), yaml);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = WardenCli.execute(new String[] {"install", "--host", host, "--project-dir", project.toString(),
                "--manifest", manifest.toString(), "--no-train"}, new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).contains(reason).contains("nothing installed");
        assertThat(out.toString()).isEmpty();
        try (Stream<Path> files = Files.list(project)) {
            assertThat(files).containsExactly(manifest);
        }
    }

    /**
     * A manifest that binds a chain for a host and names no {@code native_event_aliases}: install wrote
     * {@code {"hooks": {}}}, then refused; the host's default aliases now give the hook (issue 11.4).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"claude", "codex"})
    void install_manifestWithoutAliases_bindsTheHostsDefaultEvent(String host) throws Exception {
        Path manifest = Files.writeString(project.resolve("m.yaml"), "schema_version: 1\nconcerns:\n"
                + "  a: {script: builtin:block-no-verify, tools: [Bash]}\nplatforms:\n  " + host + ":\n    pre_tool_use: [a]\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = WardenCli.execute(new String[] {"install", "--host", host, "--project-dir", project.toString(),
                "--manifest", manifest.toString(), "--no-train", "--dry-run"}, new PrintWriter(out, true),
                new PrintWriter(err, true));

        assertThat(code).as(err.toString()).isEqualTo(0);
        assertThat(out.toString()).contains("\"PreToolUse\"").contains("\"matcher\": \"Bash\"")
                .contains(" dispatch --host " + host + " --native-event PreToolUse").doesNotContain("Stop");
    }

    /** User scope with a manifest that aliases nothing hooks every event the host sends (its default aliases). */
    @Test
    void install_userScopeManifestWithoutAliases_hooksEveryEventTheHostSends() throws Exception {
        Path manifest = Files.writeString(project.resolve("m.yaml"), "schema_version: 1\nconcerns:\n"
                + "  a: {script: builtin:block-no-verify}\nplatforms:\n  codex:\n    pre_tool_use: [a]\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = WardenCli.execute(new String[] {"install", "--host", "codex", "--scope", "user", "--project-dir",
                project.toString(), "--manifest", manifest.toString(), "--no-train", "--dry-run"},
                new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).as(err.toString()).isEqualTo(0);
        for (String event : Hosts.byId("codex").defaultAliases().keySet()) {
            assertThat(out.toString()).contains(" dispatch --host codex --native-event " + event + "\"");
        }
    }

    /** {@code --host claude-code} (the npm package's name) installs for claude, as {@code --host claude} does. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({"claude-code, claude", "gemini-cli, gemini", "copilot-cli, copilot"})
    void install_aliasOfHost_sameDryRunAsTheId(String alias, String id) {
        CliRun byAlias = CliRun.of("install", "--host", alias, "--project-dir", project.toString(), "--dry-run", "--no-train",
                "--no-fast-hook");
        CliRun byId = CliRun.of("install", "--host", id, "--project-dir", project.toString(), "--dry-run", "--no-train",
                "--no-fast-hook");

        assertThat(byAlias.exit()).as(byAlias.err()).isZero();
        assertThat(byAlias.out()).isEqualTo(byId.out()).isNotEmpty();
    }
}
