package dev.agentwarden.install.claude;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.Installer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code install --transport http}'s entries: written with the token as a variable, recognised exactly, and only where failing open is allowed. */
class ClaudeHttpHooksTest {
    private static final String LAUNCHER = "/opt/warden/bin/warden";
    private static final String ID = "0123456789abcdef0123456789abcdef";

    @Test
    void install_httpBinding_writesAnHttpHandlerWithTheTokenFromTheEnvironment_andUninstallRemovesIt() throws Exception {
        byte[] before = "{\"model\": \"x\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] after = ClaudeSettings.install(before, HookLauncher.plain(LAUNCHER), "claude", List.of(
                new Installer.Binding("SessionStart", null), new Installer.Binding("PreToolUse", "Bash", 27123, ID)));
        String text = new String(after, StandardCharsets.UTF_8);
        assertThat(text).contains("\"type\":\"http\"").contains("\"url\":\"http://127.0.0.1:27123/project/" + ID + "/dispatch/claude/PreToolUse\"")
                .contains("\"Authorization\":\"Bearer $WARDEN_HOOK_TOKEN\"").contains("\"allowedEnvVars\":[\"WARDEN_HOOK_TOKEN\"]")
                .doesNotContainPattern("[0-9a-f]{64}");
        assertThat(ClaudeSettings.installedEvents(after, "claude")).containsExactly("SessionStart", "PreToolUse");
        assertThat(ClaudeSettings.uninstall(after, "claude")).isEqualTo(before);
    }

    @Test
    void uninstall_httpHandlerWithAnExtraHeader_isTheUsersAndKept() throws Exception {
        String doc = "{\"hooks\":{\"PreToolUse\":[{\"hooks\":[{\"type\":\"http\",\"url\":\"http://127.0.0.1:27123/dispatch/claude/PreToolUse\","
                + "\"headers\":{\"Authorization\":\"Bearer $WARDEN_HOOK_TOKEN\",\"X\":\"y\"},\"allowedEnvVars\":[\"WARDEN_HOOK_TOKEN\"],\"timeout\":60}]}]}}";
        byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
        assertThat(ClaudeSettings.uninstall(bytes, "claude")).isEqualTo(bytes);
    }

    /** Issue 28 item 1: an older install's unbound URL is still Warden's, so re-installing replaces it. */
    @Test
    void install_overAnUnboundHttpHandlerOfAnOlderWarden_replacesItWithTheProjectBoundOne() throws Exception {
        String old = "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"http\",\"url\":\"http://127.0.0.1:27123/dispatch/claude/PreToolUse\","
                + "\"headers\":{\"Authorization\":\"Bearer $WARDEN_HOOK_TOKEN\"},\"allowedEnvVars\":[\"WARDEN_HOOK_TOKEN\"],\"timeout\":"
                + ClaudeSettings.HOOK_TIMEOUT_SECONDS + "}]}]}}";
        byte[] after = ClaudeSettings.install(old.getBytes(StandardCharsets.UTF_8), HookLauncher.plain(LAUNCHER), "claude",
                List.of(new Installer.Binding("PreToolUse", "Bash", 27123, ID)));
        String text = new String(after, StandardCharsets.UTF_8);
        assertThat(text).contains("/project/" + ID + "/dispatch/claude/PreToolUse").doesNotContain("27123/dispatch/");
    }

    @Test
    void plan_sessionStartAndFailClosedEvents_stayOnTheCommandTransport() {
        List<ClaudeHttpHooks.Transport> plan = ClaudeHttpHooks.plan(List.of("SessionStart", "PreToolUse", "Stop"), Set.of("Stop"));
        assertThat(plan).extracting(ClaudeHttpHooks.Transport::kind).containsExactly("command", "http", "command");
    }
}
