package dev.agentwarden.host.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Editing the hooks of a Claude Code settings tree: Warden's entries in, Warden's entries out, nothing else touched. */
class ClaudeSettingsTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";

    /** A user's settings with their own hooks on an event Warden also binds, and on one it does not. */
    private static final String USER_SETTINGS = """
            {
              "model": "opus",
              "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
              "hooks": {
                "PreToolUse": [
                  {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-bash.sh", "timeout": 5}]}
                ],
                "Notification": [
                  {"hooks": [{"type": "command", "command": "notify-send Claude"}]}
                ]
              },
              "env": {"BIG_ID": 1234567890123456789, "RATIO": 0.25}
            }
            """;

    private static final List<ClaudeSettings.Binding> BINDINGS = List.of(
            new ClaudeSettings.Binding("PreToolUse", "Bash"),
            new ClaudeSettings.Binding("Stop", null));

    @Test
    void install_empty_oneEntryPerBinding() {
        Map<String, Object> out = ClaudeSettings.install(Json.object(), LAUNCHER, "claude", BINDINGS);

        assertThat(Json.write(out)).isEqualTo("{\"hooks\":{"
                + "\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
                + "\"command\":\"/opt/agent-warden/bin/warden dispatch --host claude --native-event PreToolUse\",\"timeout\":60}]}],"
                + "\"Stop\":[{\"hooks\":[{\"type\":\"command\","
                + "\"command\":\"/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop\",\"timeout\":60}]}]}}");
    }

    @Test
    void install_userHooks_untouchedAndWardenAppended() {
        Map<String, Object> user = Json.parseObject(USER_SETTINGS);

        Map<String, Object> out = ClaudeSettings.install(user, LAUNCHER, "claude", BINDINGS);

        Map<String, Object> hooks = map(out.get("hooks"));
        assertThat(List.copyOf(out.keySet())).isEqualTo(List.of("model", "permissions", "hooks", "env"));
        assertThat(out.get("permissions")).isEqualTo(user.get("permissions"));
        assertThat(out.get("env")).isEqualTo(user.get("env"));
        assertThat(list(hooks.get("PreToolUse"))).hasSize(2);
        assertThat(list(hooks.get("PreToolUse")).get(0)).isEqualTo(list(map(user.get("hooks")).get("PreToolUse")).get(0));
        assertThat(hooks.get("Notification")).isEqualTo(map(user.get("hooks")).get("Notification"));
        assertThat(ClaudeSettings.installedEvents(out)).containsExactly("PreToolUse", "Stop");
        assertThat(user).as("input not mutated").isEqualTo(Json.parseObject(USER_SETTINGS));
    }

    @Test
    void install_twice_idempotent() {
        Map<String, Object> once = ClaudeSettings.install(Json.parseObject(USER_SETTINGS), LAUNCHER, "claude", BINDINGS);

        Map<String, Object> twice = ClaudeSettings.install(once, LAUNCHER, "claude", BINDINGS);

        assertThat(Json.write(twice)).isEqualTo(Json.write(once));
    }

    @Test
    void install_newBindings_replaceOldWardenEntries() {
        Map<String, Object> first = ClaudeSettings.install(Json.parseObject(USER_SETTINGS), LAUNCHER, "claude", BINDINGS);

        Map<String, Object> second = ClaudeSettings.install(first, "/elsewhere/warden", "cowork",
                List.of(new ClaudeSettings.Binding("SessionStart", null)));

        assertThat(ClaudeSettings.installedEvents(second)).containsExactly("SessionStart");
        assertThat(Json.write(second)).doesNotContain("/opt/agent-warden").contains("--host cowork --native-event SessionStart");
        assertThat(Json.write(ClaudeSettings.uninstall(second))).isEqualTo(Json.write(Json.parseObject(USER_SETTINGS)));
    }

    @Test
    void uninstall_afterInstall_exactlyTheUserSettings() {
        Map<String, Object> user = Json.parseObject(USER_SETTINGS);

        Map<String, Object> back = ClaudeSettings.uninstall(ClaudeSettings.install(user, LAUNCHER, "claude", BINDINGS));

        assertThat(Json.write(back)).isEqualTo(Json.write(user));
    }

    @Test
    void uninstall_handlerSharingAGroup_onlyWardenHandlerRemoved() {
        Map<String, Object> settings = Json.parseObject("""
                {"hooks": {"Stop": [{"hooks": [
                  {"type": "command", "command": "/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop"},
                  {"type": "command", "command": "say done"}
                ]}]}}
                """);

        Map<String, Object> out = ClaudeSettings.uninstall(settings);

        assertThat(Json.write(out)).isEqualTo("{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"say done\"}]}]}}");
    }

    @Test
    void uninstall_noWardenEntries_unchanged() {
        Map<String, Object> user = Json.parseObject(USER_SETTINGS);

        assertThat(Json.write(ClaudeSettings.uninstall(user))).isEqualTo(Json.write(user));
        assertThat(ClaudeSettings.installedEvents(user)).isEmpty();
    }

    static Stream<Object[]> commands() {
        return Stream.of(
                new Object[] {"/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop", true},
                new Object[] {"'/home/me/my tools/warden/bin/warden' dispatch --host cowork --native-event PreToolUse", true},
                new Object[] {"~/bin/warden-lint.sh", false},
                new Object[] {"warden manifest lint", false},
                new Object[] {"/usr/bin/other dispatch --host claude --native-event Stop", false},
                new Object[] {42L, false},
                new Object[] {null, false});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void isWardenCommand_recognisesOnlyWardenDispatch(Object command, boolean expected) {
        assertThat(ClaudeSettings.isWardenCommand(command)).isEqualTo(expected);
    }

    static Stream<String> launchers() {
        return Stream.of("/opt/warden/bin/warden", "/home/me/my tools/bin/warden", "/tmp/it's/bin/warden",
                "/tmp/$HOME/`x`/bin/warden", "/tmp/a;b&c|d/bin/warden");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("launchers")
    void command_anyLauncherPath_shellReadsItBackExactly(String launcher) throws Exception {
        String command = ClaudeSettings.command(launcher, "claude", "Stop");
        String probe = command.replace(" dispatch --host claude --native-event Stop", "");

        Process p = new ProcessBuilder("/bin/sh", "-c", "printf '%s' " + probe).start();
        String echoed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(p.waitFor()).isZero();
        assertThat(echoed).isEqualTo(launcher);
        assertThat(ClaudeSettings.isWardenCommand(command)).isTrue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }
}
