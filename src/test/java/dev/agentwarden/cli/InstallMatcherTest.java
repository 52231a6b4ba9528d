package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool event's matcher names the host's own tools: Claude's PreToolUse matcher listed 36 names,
 * the shell and edit tools of every host, because the default chain's concerns name all of them.
 */
class InstallMatcherTest {
    @TempDir
    Path project;

    private static String preToolUseMatcher(Manifest m, Host host) {
        for (Installer.Binding b : InstallCommand.bindings(m, host, false)) {
            if (b.nativeEvent().equals("PreToolUse")) {
                return b.matcher();
            }
        }
        throw new AssertionError("no PreToolUse binding");
    }

    @Test
    void matcher_concernNamesEveryHostsShell_namesClaudesOwnAndToolsNoHostClaims() throws Exception {
        Manifest m = ManifestCompiler.compile("m.yaml", "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify, tools: [Bash, run_shell_command, Shell, MyTool]}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [nv]\n", "0").manifest();

        assertThat(preToolUseMatcher(m, ClaudeHosts.CLAUDE)).isEqualTo("Bash|MyTool");
    }

    @Test
    void matcher_concernForEveryTool_staysStar() throws Exception {
        Manifest m = ManifestCompiler.compile("m.yaml", "schema_version: 1\nconcerns:\n"
                + "  nv: {script: builtin:block-no-verify, tools: [Bash, run_shell_command]}\n"
                + "  all: {script: builtin:context-note, message: hi}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [nv, all]\n", "0").manifest();

        assertThat(preToolUseMatcher(m, ClaudeHosts.CLAUDE)).isEqualTo("*");
    }

    @Test
    void matcher_defaultManifest_namesNoToolOfAnotherHostOnly() throws Exception {
        Manifest m = ManifestLoader.load(ManifestLoader.locate(null, project.toString()), Map.of());
        Host claude = ClaudeHosts.CLAUDE;

        List<String> named = List.of(preToolUseMatcher(m, claude).split("\\|"));

        assertThat(named).contains("Bash", "Edit", "Write").doesNotContain("run_shell_command", "apply_patch", "Shell");
        List<String> foreign = new ArrayList<>();
        for (String tool : named) {
            if (claude.tools().kindOf(tool) == dev.agentwarden.event.ToolKind.OTHER) {
                foreign.add(tool);
            }
        }
        assertThat(foreign).as("names that are no Claude tool").isEmpty();
        assertThat(named.size()).isLessThan(Hosts.toolNames(dev.agentwarden.event.ToolKind.SHELL,
                dev.agentwarden.event.ToolKind.FILE_EDIT).size());
    }
}
