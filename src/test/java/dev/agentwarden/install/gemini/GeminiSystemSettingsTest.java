package dev.agentwarden.install.gemini;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.gemini.GeminiSetup;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Gemini CLI's {@code /etc/gemini-cli/settings.json} as {@code install --scope managed --host gemini} edits it (issue 26 item 3). */
class GeminiSystemSettingsTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    private static final String ADMIN = """
            {
              "security": {"auth": {"enforcedType": "gemini-api-key"}},
              "hooks": {
                "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/usr/local/bin/audit"}]}]
              }
            }
            """;

    private final Installer managed = GeminiSetup.GEMINI.installer(Host.Scope.MANAGED);

    private static List<Installer.Binding> bindings() {
        return List.of(new Installer.Binding("BeforeTool", "*"), new Installer.Binding("SessionStart", null));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theFile_isFixed_notMovedByTheEnvironmentWardenSees() {
        assertThat(managed.settingsFile(Path.of("/p"), Map.of("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/tmp/x.json")))
                .isEqualTo(Path.of("/etc/gemini-cli/settings.json"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void install_addsWardensHooksAndPinsHooksOn_uninstallGivesTheFileBackByteForByte() throws Exception {
        byte[] original = bytes(ADMIN);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());
        Map<String, Object> parsed = (Map<String, Object>) Json.parse(new String(installed, StandardCharsets.UTF_8));

        assertThat(parsed.get("hooksConfig")).isEqualTo(Map.of("enabled", true));
        assertThat(new String(installed, StandardCharsets.UTF_8)).contains("/usr/local/bin/audit")
                .contains(LAUNCHER + " dispatch --host gemini --native-event BeforeTool");
        assertThat(managed.installedEvents(installed)).containsExactly("BeforeTool", "SessionStart");
        assertThat(managed.install(installed, HookLauncher.plain(LAUNCHER), bindings())).isEqualTo(installed);
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }

    @Test
    void anAdministratorsHooksConfig_getsEnabledLast_andUninstallTakesOnlyThatOut() throws Exception {
        String admin = "{\"hooksConfig\": {\"notifications\": false}}\n";
        byte[] installed = managed.install(bytes(admin), HookLauncher.plain(LAUNCHER), bindings());

        assertThat(new String(installed, StandardCharsets.UTF_8)).contains("\"notifications\": false");
        assertThat(managed.uninstall(installed)).isEqualTo(bytes(admin));
    }

    @Test
    void anAdministratorsEnabledTrue_isLeft_theirFalse_isRefused() throws Exception {
        byte[] theirs = bytes("{\"hooksConfig\": {\"enabled\": true, \"notifications\": false}}\n");
        assertThat(managed.uninstall(managed.install(theirs, HookLauncher.plain(LAUNCHER), bindings()))).isEqualTo(theirs);

        assertThatThrownBy(() -> managed.install(bytes("{\"hooksConfig\": {\"enabled\": false}}"), HookLauncher.plain(LAUNCHER), bindings()))
                .isInstanceOf(SettingsException.class).hasMessageContaining("enabled");
        assertThatThrownBy(() -> managed.install(bytes("{\"hooksConfig\": true}"), HookLauncher.plain(LAUNCHER), bindings()))
                .isInstanceOf(SettingsException.class).hasMessageContaining("hooksConfig");
    }

    @Test
    void uninstallWithoutWardensHooks_leavesAnAdministratorsPinAlone() {
        byte[] theirs = bytes("{\"hooksConfig\": {\"enabled\": true}}\n");
        assertThat(managed.uninstall(theirs)).isSameAs(theirs);
    }

    @Test
    void wardensHooks_carryAPerMachineName_thatNoCommittedFileCanKnow_andReinstallKeepsIt() throws Exception {
        byte[] installed = managed.install(bytes(ADMIN), HookLauncher.plain(LAUNCHER), bindings());
        List<String> names = GeminiSystemSettings.wardenNames(installed);

        assertThat(names).hasSize(2);
        assertThat(names.get(0)).matches("warden-[0-9a-f]{16}").isEqualTo(names.get(1));
        assertThat(new String(installed, StandardCharsets.UTF_8)).doesNotContain("\"name\": \"warden\"")
                .doesNotContain("\"name\":\"warden\"");
        assertThat(GeminiSystemSettings.wardenNames(managed.install(installed, HookLauncher.plain(LAUNCHER), bindings()))).isEqualTo(names);
        assertThat(GeminiSystemSettings.wardenNames(managed.install(bytes(ADMIN), HookLauncher.plain(LAUNCHER), bindings())))
                .as("another machine's install").doesNotContain(names.get(0));
        assertThat(managed.entries(installed)).hasSize(2);
    }

    @Test
    void anAdministratorsOwnHookNamedWarden_isNotRenamed() throws Exception {
        String admin = """
                {"hooks": {"BeforeTool": [{"hooks": [{"name": "warden", "type": "command", "command": "/usr/local/bin/audit"}]}]}}
                """;
        byte[] installed = managed.install(bytes(admin), HookLauncher.plain(LAUNCHER), bindings());
        assertThat(new String(installed, StandardCharsets.UTF_8))
                .contains("{\"name\": \"warden\", \"type\": \"command\", \"command\": \"/usr/local/bin/audit\"}");
        assertThat(managed.uninstall(installed)).isEqualTo(bytes(admin));
    }

    @Test
    void anAdministratorsHandlerRunningWardenWithKeysOfItsOwn_keepsItsName() throws Exception {
        String admin = """
                {"hooks": {"BeforeTool": [{"hooks": [{"name": "warden", "type": "command", "description": "audit",
                  "command": "/opt/agent-warden/bin/warden dispatch --host gemini --native-event BeforeTool", "timeout": 60000}]}]}}
                """;
        byte[] installed = managed.install(bytes(admin), HookLauncher.plain(LAUNCHER), bindings());
        assertThat(new String(installed, StandardCharsets.UTF_8)).contains("{\"name\": \"warden\", \"type\": \"command\", \"description\"");
    }
}
