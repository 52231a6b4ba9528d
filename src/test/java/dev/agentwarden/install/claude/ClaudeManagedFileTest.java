package dev.agentwarden.install.claude;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.claude.ClaudeSetups;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Claude Code's managed settings file as {@code install --scope managed} edits it (issue 26 item 3). */
class ClaudeManagedFileTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    /** An administrator's file: their own keys, their own hook, CRLF-free two-space layout. */
    private static final String ADMIN = """
            {
              "permissions": {"deny": ["Bash(curl:*)"]},
              "hooks": {
                "PreToolUse": [
                  {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/audit-bash"}]}
                ]
              },
              "env": {"DISABLE_TELEMETRY": "1"}
            }
            """;

    private final Installer managed = ClaudeSetups.CLAUDE.installer(Host.Scope.MANAGED);

    private static List<Installer.Binding> bindings() {
        return List.of(new Installer.Binding("PreToolUse", "*"), new Installer.Binding("SessionStart", null));
    }

    @Test
    void theFile_isFixedByTheHost_notByTheEnvironmentOrTheProject() {
        assertThat(managed.settingsFile(Path.of("/some/project"), Map.of("HOME", "/home/u", "CLAUDE_CONFIG_DIR", "/x")))
                .isEqualTo(Path.of("/etc/claude-code/managed-settings.json"));
        assertThat(managed.describe()).isEqualTo("/etc/claude-code/managed-settings.json");
    }

    @Test
    void installThenUninstall_givesBackTheAdministratorsFileByteForByte() throws Exception {
        byte[] original = ADMIN.getBytes(StandardCharsets.UTF_8);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());
        String text = new String(installed, StandardCharsets.UTF_8);

        assertThat(text).contains("\"permissions\": {\"deny\": [\"Bash(curl:*)\"]}")
                .contains("/usr/local/bin/audit-bash")
                .contains("\"command\": \"/opt/agent-warden/bin/warden dispatch --host claude --native-event PreToolUse\"")
                .contains("\"command\": \"/opt/agent-warden/bin/warden dispatch --host claude --native-event SessionStart\"");
        assertThat(managed.installedEvents(installed)).containsExactly("PreToolUse", "SessionStart");
        assertThat(managed.install(installed, HookLauncher.plain(LAUNCHER), bindings())).as("idempotent").isEqualTo(installed);
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }

    @Test
    void onlyWardensExactEntry_isWardens_aLookalikeIsTheAdministratorsAndStays() throws Exception {
        String withLookalike = """
                {
                  "hooks": {
                    "Stop": [
                      {"hooks": [{"type": "command", "command": "WARDEN_X=1 /opt/agent-warden/bin/warden dispatch --host claude --native-event Stop", "timeout": 60}]}
                    ]
                  }
                }
                """;
        byte[] original = withLookalike.getBytes(StandardCharsets.UTF_8);
        assertThat(managed.installedEvents(original)).isEmpty();
        assertThat(managed.lookalikes(original)).hasSize(1);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }

    @Test
    void managedHooksOnly_isAddedOnce_andRemovedByteForByte() throws Exception {
        byte[] original = ADMIN.getBytes(StandardCharsets.UTF_8);
        byte[] only = managed.managedHooksOnly(original);

        assertThat(new String(only, StandardCharsets.UTF_8)).contains("\n  \"allowManagedHooksOnly\": true\n}");
        assertThat(managed.managedHooksOnly(only)).as("already there").isSameAs(only);
        assertThat(managed.withoutManagedHooksOnly(only)).isEqualTo(original);
        assertThat(managed.withoutManagedHooksOnly(original)).isSameAs(original);
    }

    @Test
    void managedHooksOnlySetFalseByTheAdministrator_isNotOverruled() {
        byte[] off = "{\"allowManagedHooksOnly\": false}\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> managed.managedHooksOnly(off)).isInstanceOf(SettingsException.class)
                .hasMessageContaining("allowManagedHooksOnly").hasMessageContaining("left unchanged");
        assertThat(managed.withoutManagedHooksOnly(off)).as("not Warden's true: left").isSameAs(off);
    }

    @Test
    void otherHostsHaveNoManagedInstallerYet() {
        assertThat(ClaudeSetups.COWORK.installer(Host.Scope.MANAGED)).isNull();
    }
}
