package dev.agentwarden.install.cursor;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.cursor.CursorHost;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.install.cursor.CursorSetup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Cursor's enterprise {@code /etc/cursor/hooks.json} as {@code install --scope managed --host cursor} writes it (issue 26
 * item 3). There is no Cursor binary here: this is the file writer alone, in the published format.
 */
class CursorEnterpriseHooksTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    private final Installer managed = CursorSetup.CURSOR.installer(Host.Scope.MANAGED);

    private static List<Installer.Binding> bindings() {
        return List.of(new Installer.Binding("beforeShellExecution", null), new Installer.Binding("stop", null));
    }

    @Test
    void theFile_isFixed() {
        assertThat(managed.settingsFile(Path.of("/p"), Map.of("HOME", "/home/u"))).isEqualTo(Path.of("/etc/cursor/hooks.json"));
        assertThat(managed.describe()).isEqualTo("/etc/cursor/hooks.json");
    }

    @Test
    void everyOtherAnswer_isTheFormats_asTheUsersFileGivesIt() {
        Installer user = CursorSetup.CURSOR.installer(Host.Scope.USER);
        assertThat(managed.commandRunsInAShell()).isEqualTo(user.commandRunsInAShell()).isTrue();
        for (String event : List.of("beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "stop")) {
            assertThat(managed.failsClosedOnError(event)).as(event).isEqualTo(user.failsClosedOnError(event));
            assertThat(managed.writes(event)).as(event).isEqualTo(user.writes(event));
        }
        assertThat(managed.ownsWholeFile()).isEqualTo(user.ownsWholeFile());
        assertThat(managed.failsClosedOnError("beforeShellExecution")).as("Cursor's failClosed refusing events").isTrue();
    }

    @Test
    void anEmptyFile_getsVersionOneAndWardensHooks_andUninstallGivesTheAdministratorsFileBack() throws Exception {
        byte[] fresh = managed.install("{}\n".getBytes(StandardCharsets.UTF_8), HookLauncher.plain(LAUNCHER), bindings());
        String t = new String(fresh, StandardCharsets.UTF_8);
        assertThat(t).contains("\"version\": 1").contains(LAUNCHER + " dispatch --host cursor --native-event beforeShellExecution");

        String admin = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [{\"command\": \"/usr/local/bin/audit\"}]\n  }\n}\n";
        byte[] original = admin.getBytes(StandardCharsets.UTF_8);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());
        assertThat(managed.installedEvents(installed)).containsExactly("beforeShellExecution", "stop");
        assertThat(managed.install(installed, HookLauncher.plain(LAUNCHER), bindings())).isEqualTo(installed);
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }

    @Test
    void aHooksMemberOfAnotherShape_isRefused() {
        assertThatThrownBy(() -> managed.install("{\"version\": 1, \"hooks\": []}".getBytes(StandardCharsets.UTF_8), HookLauncher.plain(LAUNCHER),
                bindings())).isInstanceOf(SettingsException.class);
    }
}
