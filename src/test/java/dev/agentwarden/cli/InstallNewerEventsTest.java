package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestCompiler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Claude Code 2.1.332's new events have default aliases (PreSkillShellCommand runs the pre_tool_use
 * chain), but Claude Code 2.1.331 and older open a settings dialog at start when a settings file names
 * one, so install writes their hooks only where the manifest names them itself.
 */
class InstallNewerEventsTest {
    private static Manifest compile(String yaml) throws Exception {
        return ManifestCompiler.compile("m.yaml", yaml, "0").manifest();
    }

    private static List<String> installed(Manifest m, boolean allEvents) {
        return InstallCommand.bindings(m, ClaudeHosts.CLAUDE, allEvents).stream().map(Installer.Binding::nativeEvent).toList();
    }

    @Test
    void install_preToolUseBoundWithoutOwnAliases_leavesOutPreSkillShellCommand() throws Exception {
        Manifest m = compile("schema_version: 1\nconcerns:\n  nv: {script: builtin:block-no-verify}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [nv]\n");

        assertThat(m.boundNativeEvents("claude")).as("dispatch knows the default alias").contains("PreSkillShellCommand");
        assertThat(installed(m, false)).containsExactly("PreToolUse");
        assertThat(installed(m, true)).as("user scope, every event the host sends").contains("PreToolUse", "Stop")
                .doesNotContainAnyElementsOf(ClaudeHosts.SINCE_2_1_332);
    }

    @Test
    void install_manifestNamesPreSkillShellCommand_writesItsHookWithTheShellMatcher() throws Exception {
        Manifest m = compile("schema_version: 1\nconcerns:\n  nv: {script: builtin:block-no-verify, tools: [Bash]}\n"
                + "platforms:\n  claude:\n    pre_tool_use: [nv]\n"
                + "native_event_aliases:\n  claude:\n    PreToolUse: pre_tool_use\n    PreSkillShellCommand: pre_tool_use\n");

        List<Installer.Binding> bindings = InstallCommand.bindings(m, ClaudeHosts.CLAUDE, false);

        assertThat(bindings).extracting(Installer.Binding::nativeEvent).containsExactly("PreSkillShellCommand", "PreToolUse");
        assertThat(bindings).extracting(Installer.Binding::matcher).containsExactly("Bash", "Bash");
    }
}
