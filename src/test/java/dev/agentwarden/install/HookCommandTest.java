package dev.agentwarden.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.install.claude.ClaudeSettings;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fast hook command: the compiled hook behind a shell test, {@code bin/warden} when it is gone;
 * written, recognised and removed as exactly as the plain one.
 */
class HookCommandTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    private static final String HOOK = "/home/u/.cache/agent-warden/hook/_opt_agent-warden/bin/warden";
    private static final HookLauncher FAST = HookLauncher.fast(HOOK, LAUNCHER);

    @Test
    void fastCommand_testsTheHookThenFallsBackToTheLauncher() {
        assertThat(ClaudeSettings.command(FAST, "claude", "PreToolUse")).isEqualTo("[ -x " + HOOK + " ] && exec " + HOOK
                + " dispatch --host claude --native-event PreToolUse; exec " + LAUNCHER
                + " dispatch --host claude --native-event PreToolUse");
        assertThat(ClaudeSettings.command(HookLauncher.plain(LAUNCHER), "claude", "PreToolUse"))
                .isEqualTo(LAUNCHER + " dispatch --host claude --native-event PreToolUse");
    }

    @Test
    void fastCommand_pathsWithSpacesAndQuotes_quotedAndRecognised() {
        String hook = "/home/o'neil/my cache/hook/x/bin/warden";
        String command = ClaudeSettings.command(HookLauncher.fast(hook, "/srv/war den/bin/warden"), "claude", "Stop");

        assertThat(command).startsWith("[ -x '/home/o'\\''neil/my cache/hook/x/bin/warden' ] && exec '");
        assertThat(ClaudeSettings.isWardenCommand(command, "Stop", Set.of("claude"))).isTrue();
        assertThat(ClaudeSettings.fastParts(command)).isEqualTo(new HookCommand.Fast(hook, "/srv/war den/bin/warden"));
    }

    @Test
    void fastCommand_recognisedForItsEventAndHostOnly() {
        String command = ClaudeSettings.command(FAST, "claude", "PreToolUse");

        assertThat(ClaudeSettings.isWardenCommand(command, "PreToolUse", Set.of("claude", "cowork"))).isTrue();
        assertThat(ClaudeSettings.isWardenCommand(command, "Stop", Set.of("claude"))).isFalse();
        assertThat(ClaudeSettings.isWardenCommand(command, "PreToolUse", Set.of("codex"))).isFalse();
    }

    @Test
    void fastCommandLookalikes_areTheUsers() {
        String tail = " dispatch --host claude --native-event PreToolUse";
        List<String> lookalikes = List.of(
                // another program behind the test
                "[ -x " + HOOK + " ] && exec /tmp/evil" + tail + "; exec " + LAUNCHER + tail,
                // the halves disagree on the event
                "[ -x " + HOOK + " ] && exec " + HOOK + " dispatch --host claude --native-event Stop; exec " + LAUNCHER + tail,
                // something appended
                "[ -x " + HOOK + " ] && exec " + HOOK + tail + "; exec " + LAUNCHER + tail + "; rm -rf ~",
                // a relative fallback
                "[ -x " + HOOK + " ] && exec " + HOOK + tail + "; exec bin/warden" + tail,
                // not named .../bin/warden
                "[ -x /usr/bin/true ] && exec /usr/bin/true" + tail + "; exec " + LAUNCHER + tail);
        for (String command : lookalikes) {
            assertThat(ClaudeSettings.isWardenCommand(command, "PreToolUse", Set.of("claude"))).as(command).isFalse();
            assertThat(ClaudeSettings.fastParts(command)).as(command).isNull();
        }
    }

    @Test
    void uninstall_removesFastEntries_installReplacesThem() throws Exception {
        List<Installer.Binding> bindings = List.of(new Installer.Binding("PreToolUse", "Bash"));
        byte[] fast = ClaudeSettings.install("{}\n".getBytes(StandardCharsets.UTF_8), FAST, "claude", bindings);

        assertThat(ClaudeSettings.installedEvents(fast, "claude")).containsExactly("PreToolUse");
        assertThat(ClaudeSettings.wardenEntries(fast, "claude").get(0).launcher()).isEqualTo(LAUNCHER);
        assertThat(new String(ClaudeSettings.uninstall(fast, "claude"), StandardCharsets.UTF_8)).isEqualTo("{}\n");
        byte[] plain = ClaudeSettings.install(fast, HookLauncher.plain(LAUNCHER), "claude", bindings);
        assertThat(new String(plain, StandardCharsets.UTF_8)).doesNotContain(HOOK).contains(LAUNCHER + " dispatch");
        assertThat(ClaudeSettings.wardenEntries(plain, "claude")).hasSize(1);
    }
}
