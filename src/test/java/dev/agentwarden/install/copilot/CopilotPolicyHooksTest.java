package dev.agentwarden.install.copilot;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.copilot.CopilotHost;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.copilot.CopilotSetup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Copilot CLI's machine-wide policy hooks file as {@code install --scope managed --host copilot} writes it (issue 26 item 3). */
class CopilotPolicyHooksTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    private final Installer managed = CopilotSetup.COPILOT.installer(Host.Scope.MANAGED);

    private static List<Installer.Binding> bindings() {
        return List.of(new Installer.Binding("preToolUse", "*"), new Installer.Binding("sessionStart", null));
    }

    @Test
    void theFile_isInThePolicyDirectory_whateverCopilotHomeSays() throws Exception {
        assertThat(managed.settingsFile(Path.of("/p"), Map.of("COPILOT_HOME", "/x", "HOME", "/home/u")))
                .isEqualTo(Path.of("/etc/github-copilot/policy.d/warden.json"));
        assertThat(managed.describe()).isEqualTo("/etc/github-copilot/policy.d/warden.json");
        assertThat(managed.commandRunsInAShell()).isTrue();
        assertThat(managed.managedHooksOnly("{}".getBytes(StandardCharsets.UTF_8)) == null)
                .as("no managed-only setting in this file").isTrue();
    }

    @Test
    void installThenUninstall_givesBackAnAdministratorsEntriesByteForByte() throws Exception {
        String admin = """
                {
                  "version": 1,
                  "hooks": {
                    "preToolUse": [{"type": "command", "bash": "/usr/local/bin/audit", "timeoutSec": 5}]
                  }
                }
                """;
        byte[] original = admin.getBytes(StandardCharsets.UTF_8);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());

        assertThat(new String(installed, StandardCharsets.UTF_8)).contains("/usr/local/bin/audit")
                .contains(LAUNCHER + " dispatch --host copilot --native-event preToolUse");
        assertThat(managed.installedEvents(installed)).containsExactly("preToolUse", "sessionStart");
        assertThat(managed.install(installed, HookLauncher.plain(LAUNCHER), bindings())).isEqualTo(installed);
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }

    @Test
    void aLookalike_isTheAdministrators_andStays() throws Exception {
        String admin = "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"" + LAUNCHER
                + " dispatch --host copilot --native-event preToolUse --debug\", \"timeoutSec\": 60}]}}\n";
        byte[] original = admin.getBytes(StandardCharsets.UTF_8);
        byte[] installed = managed.install(original, HookLauncher.plain(LAUNCHER), bindings());

        assertThat(managed.lookalikes(installed)).hasSize(1);
        assertThat(managed.uninstall(installed)).isEqualTo(original);
    }
}
