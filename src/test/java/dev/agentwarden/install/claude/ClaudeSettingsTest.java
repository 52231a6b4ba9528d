package dev.agentwarden.install.claude;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.Installer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Editing the hooks of a Claude Code settings.json or Codex hooks.json as text: Warden's exact
 * entries in, Warden's exact entries out, every other byte as written.
 */
class ClaudeSettingsTest {
    private static final String LAUNCHER = "/opt/agent-warden/bin/warden";
    private static final Path CORPUS = Path.of("src/test/resources/host/settings-corpus");

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

    private static final List<Installer.Binding> BINDINGS = List.of(
            new Installer.Binding("PreToolUse", "Bash"),
            new Installer.Binding("Stop", null));

    @Test
    void install_empty_oneEntryPerBinding() throws Exception {
        String out = install("{}\n", "claude");

        assertThat(out).isEqualTo("""
                {
                  "hooks": {
                    "PreToolUse": [
                      {
                        "matcher": "Bash",
                        "hooks": [
                          {
                            "type": "command",
                            "command": "/opt/agent-warden/bin/warden dispatch --host claude --native-event PreToolUse",
                            "timeout": 60
                          }
                        ]
                      }
                    ],
                    "Stop": [
                      {
                        "hooks": [
                          {
                            "type": "command",
                            "command": "/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop",
                            "timeout": 60
                          }
                        ]
                      }
                    ]
                  }
                }
                """);
    }

    @Test
    void install_userHooks_untouchedAndWardenAppended() throws Exception {
        String out = install(USER_SETTINGS, "claude");

        Map<String, Object> tree = Json.parseObject(out);
        Map<String, Object> user = Json.parseObject(USER_SETTINGS);
        Map<String, Object> hooks = map(tree.get("hooks"));
        assertThat(List.copyOf(tree.keySet())).isEqualTo(List.of("model", "permissions", "hooks", "env"));
        assertThat(list(hooks.get("PreToolUse"))).hasSize(2);
        assertThat(list(hooks.get("PreToolUse")).get(0)).isEqualTo(list(map(user.get("hooks")).get("PreToolUse")).get(0));
        assertThat(hooks.get("Notification")).isEqualTo(map(user.get("hooks")).get("Notification"));
        assertThat(ClaudeSettings.installedEvents(bytes(out), "claude")).containsExactly("PreToolUse", "Stop");
        assertThat(out).startsWith(USER_SETTINGS.substring(0, USER_SETTINGS.indexOf("~/bin/audit-bash.sh")));
    }

    @Test
    void install_twice_idempotent() throws Exception {
        String once = install(USER_SETTINGS, "claude");

        assertThat(install(once, "claude")).isEqualTo(once);
    }

    @Test
    void install_newBindings_replaceOldWardenEntries() throws Exception {
        String first = install(USER_SETTINGS, "claude");

        String second = new String(ClaudeSettings.install(bytes(first), HookLauncher.plain("/elsewhere/bin/warden"), "cowork",
                List.of(new Installer.Binding("SessionStart", null))), StandardCharsets.UTF_8);

        assertThat(ClaudeSettings.installedEvents(bytes(second), "claude")).containsExactly("SessionStart");
        assertThat(second).doesNotContain("/opt/agent-warden").contains("--host cowork --native-event SessionStart");
        assertThat(uninstall(second, "cowork")).isEqualTo(USER_SETTINGS);
    }

    @Test
    void uninstall_afterInstall_exactlyTheUserSettings() throws Exception {
        assertThat(uninstall(install(USER_SETTINGS, "claude"), "claude")).isEqualTo(USER_SETTINGS);
    }

    @Test
    void uninstall_handlerSharingAGroup_onlyWardenHandlerRemoved() {
        String settings = """
                {"hooks": {"Stop": [{"hooks": [
                  {"type": "command", "command": "/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop", "timeout": 60},
                  {"type": "command", "command": "say done"}
                ]}]}}
                """;

        assertThat(uninstall(settings, "claude")).isEqualTo("""
                {"hooks": {"Stop": [{"hooks": [
                  {"type": "command", "command": "say done"}
                ]}]}}
                """);
    }

    @Test
    void uninstall_noWardenEntries_unchanged() {
        assertThat(uninstall(USER_SETTINGS, "claude")).isEqualTo(USER_SETTINGS);
        assertThat(ClaudeSettings.installedEvents(bytes(USER_SETTINGS), "claude")).isEmpty();
    }

    @Test
    void uninstall_emptyListWardenFilled_isRemovedWithIt() throws Exception {
        String settings = "{\n  \"hooks\": {\n    \"Notification\": [],\n    \"Stop\": []\n  }\n}\n";

        String back = uninstall(install(settings, "claude"), "claude");

        assertThat(back).as("an empty list Warden filled goes with Warden's entry; hosts read none and [] alike")
                .isEqualTo("{\n  \"hooks\": {\n    \"Notification\": []\n  }\n}\n");
    }

    // --- Issue 10: hooks of a shape Warden would have to replace are refused ---

    static Stream<Arguments> unsupportedShapes() {
        return Stream.of(
                Arguments.of("hooksIsString", "{\"hooks\": \"my-linter\"}", "settings_hooks_not_object"),
                Arguments.of("hooksIsArray", "{\"hooks\": [{\"command\": \"my-linter\"}]}", "settings_hooks_not_object"),
                Arguments.of("eventEntryIsObject",
                        "{\"hooks\": {\"Stop\": {\"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}}}",
                        "settings_event_not_list"),
                Arguments.of("hooksNamedTwice", "{\"hooks\": {}, \"hooks\": {\"Stop\": []}}", "settings_duplicate_key"),
                Arguments.of("eventNamedTwice",
                        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"my-linter\"}]}], \"Stop\": []}}",
                        "settings_duplicate_key"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsupportedShapes")
    void install_unsupportedHooksShape_refused(String name, String settings, String code) {
        for (String host : List.of("claude", "codex")) {
            assertThatThrownBy(() -> ClaudeSettings.install(bytes(settings), HookLauncher.plain(LAUNCHER), host, BINDINGS))
                    .isInstanceOfSatisfying(SettingsFile.SettingsException.class, e -> {
                        assertThat(e.code()).isEqualTo(code);
                        assertThat(e.getMessage()).contains("left unchanged");
                    });
        }
    }

    @Test
    void uninstall_hooksIsString_unchanged() {
        assertThat(uninstall("{\"hooks\": \"my-linter\"}", "claude")).isEqualTo("{\"hooks\": \"my-linter\"}");
    }

    // --- Issue 10: Warden's own entries recognised exactly, never by substring ---

    static Stream<Arguments> commands() {
        return Stream.of(
                Arguments.of("/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop", "Stop", true),
                Arguments.of("/opt/agent-warden/bin/warden dispatch --host cowork --native-event Stop", "Stop", true),
                Arguments.of("'/home/me/my tools/warden/bin/warden' dispatch --host cowork --native-event PreToolUse", "PreToolUse", true),
                Arguments.of("'/tmp/it'\\''s/bin/warden' dispatch --host claude --native-event Stop", "Stop", true),
                Arguments.of("/old/checkout/bin/warden dispatch --host claude --native-event Stop", "Stop", true),
                Arguments.of("~/bin/my-warden-audit.sh dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("WARDEN_LOG=debug /opt/agent-warden/bin/warden dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop --verbose", "Stop", false),
                Arguments.of("/opt/agent-warden/bin/warden dispatch --host claude --native-event Stop", "PreToolUse", false),
                Arguments.of("/opt/agent-warden/bin/warden dispatch --host codex --native-event Stop", "Stop", false),
                Arguments.of("/opt/agent-warden/bin/warden dispatch --host claude  --native-event Stop", "Stop", false),
                Arguments.of("'/opt/agent-warden/bin/warden' dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("bin/warden dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("/opt/agent-warden/bin/warden-old dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("/usr/bin/other dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("notify-send 'warden says: dispatch --host claude --native-event Stop'", "Stop", false),
                Arguments.of("/x/bin/warden; rm -rf ~; /x/bin/warden dispatch --host claude --native-event Stop", "Stop", false),
                Arguments.of("warden manifest lint", "Stop", false));
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("commands")
    void isWardenCommand_recognisesOnlyTheExactCommand(String command, String event, boolean expected) {
        assertThat(ClaudeSettings.isWardenCommand(command, event, ClaudeSettings.hostsSharing("claude"))).isEqualTo(expected);
    }

    @Test
    void isWardenCommand_codexFile_onlyCodexHost() {
        Set<String> codex = ClaudeSettings.hostsSharing("codex");

        assertThat(ClaudeSettings.isWardenCommand(LAUNCHER + " dispatch --host codex --native-event Stop", "Stop", codex)).isTrue();
        assertThat(ClaudeSettings.isWardenCommand(LAUNCHER + " dispatch --host claude --native-event Stop", "Stop", codex)).isFalse();
    }

    /** Regression: uninstall removed any command containing warden, " dispatch --host " and " --native-event ". */
    @Test
    void uninstall_unrelatedWardenSubstring_isKept() {
        for (String host : List.of("claude", "codex")) {
            String settings = "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\":"
                    + " \"~/bin/my-warden-audit.sh dispatch --host " + host + " --native-event PreToolUse\", \"timeout\": 60}]}]}}";

            assertThat(uninstall(settings, host)).isEqualTo(settings);
        }
    }

    @Test
    void uninstall_customisedWardenEntry_isKeptAndReported() throws Exception {
        for (String host : List.of("claude", "codex")) {
            String custom = "WARDEN_LOG=debug " + LAUNCHER + " dispatch --host " + host + " --native-event Stop";
            String settings = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"" + custom + "\"}]}]}}";

            assertThat(uninstall(settings, host)).isEqualTo(settings);
            assertThat(uninstall(install(settings, host), host)).isEqualTo(settings);
            assertThat(ClaudeSettings.lookalikes(bytes(settings), host)).containsExactly("hooks.Stop: " + custom);
        }
    }

    @Test
    void uninstall_notifySendMentioningWarden_isKept() {
        String settings = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\":"
                + " \"notify-send 'warden says: dispatch --host claude --native-event Stop'\", \"timeout\": 60}]}]}}";

        assertThat(uninstall(settings, "claude")).isEqualTo(settings);
    }

    static Stream<Arguments> customisedHandlers() {
        String cmd = LAUNCHER + " dispatch --host claude --native-event Stop";
        return Stream.of(
                Arguments.of("otherTimeout", "{\"type\": \"command\", \"command\": \"" + cmd + "\", \"timeout\": 120}"),
                Arguments.of("noTimeout", "{\"type\": \"command\", \"command\": \"" + cmd + "\"}"),
                Arguments.of("extraKey", "{\"type\": \"command\", \"command\": \"" + cmd + "\", \"timeout\": 60, \"async\": true}"),
                Arguments.of("commandTwice", "{\"type\": \"command\", \"command\": \"" + cmd + "\", \"command\": \"rm x\"}"),
                Arguments.of("notCommandType", "{\"type\": \"http\", \"command\": \"" + cmd + "\", \"timeout\": 60}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("customisedHandlers")
    void uninstall_customisedHandler_isKept(String name, String handler) {
        String settings = "{\"hooks\": {\"Stop\": [{\"hooks\": [" + handler + "]}]}}";

        assertThat(uninstall(settings, "claude")).isEqualTo(settings);
    }

    @Test
    void uninstall_wardenHandlerInUserGroup_groupKept() {
        String settings = "{\"hooks\": {\"Stop\": [{\"matcher\": \"\", \"note\": \"mine\", \"hooks\": [{\"type\": \"command\","
                + " \"command\": \"" + LAUNCHER + " dispatch --host claude --native-event Stop\", \"timeout\": 60}]}]}}";

        assertThat(uninstall(settings, "claude")).isEqualTo("{\"hooks\": {\"Stop\": [{\"matcher\": \"\", \"note\": \"mine\", \"hooks\": []}]}}");
    }

    @Test
    void install_entryOfEarlierWardenAtOtherPath_replaced() throws Exception {
        String old = install(USER_SETTINGS, "claude").replace(LAUNCHER, "/old/checkout/bin/warden");

        String out = install(old, "claude");

        assertThat(out).doesNotContain("/old/checkout").isEqualTo(install(USER_SETTINGS, "claude"));
    }

    // --- Issue 10: everything Warden did not add comes back byte for byte ---

    static Stream<Arguments> corpus() throws IOException {
        try (Stream<Path> files = Files.list(CORPUS)) {
            return files.sorted().flatMap(f -> Stream.of(Arguments.of(f.getFileName().toString(), "claude"),
                    Arguments.of(f.getFileName().toString(), "codex"))).toList().stream();
        }
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("corpus")
    void installThenUninstall_corpusFile_originalBytesBack(String name, String host) throws Exception {
        byte[] original = Files.readAllBytes(CORPUS.resolve(name));

        byte[] installed = ClaudeSettings.install(original, HookLauncher.plain(LAUNCHER), host, BINDINGS);
        byte[] twice = ClaudeSettings.install(installed, HookLauncher.plain(LAUNCHER), host, BINDINGS);
        byte[] back = ClaudeSettings.uninstall(installed, host);

        assertThat(JsonSpans.parse(installed).kind()).isEqualTo(JsonSpans.Kind.OBJECT);
        assertThat(ClaudeSettings.installedEvents(installed, host)).containsExactlyInAnyOrder("PreToolUse", "Stop");
        assertThat(twice).as("install twice is idempotent").isEqualTo(installed);
        assertThat(back).as("install then uninstall gives the original bytes").isEqualTo(original);
        assertThat(ClaudeSettings.lookalikes(installed, host)).isEqualTo(ClaudeSettings.lookalikes(original, host));
    }

    /** Regression: rewriting read 123456789012345678901234567890 back as 1.2345678901234568e+29. */
    @Test
    void install_bigIntegerLiteral_keepsOriginalText() throws Exception {
        assertThat(install("{\"env\": {\"ID\": 123456789012345678901234567890}}", "claude"))
                .startsWith("{\"env\": {\"ID\": 123456789012345678901234567890},");
    }

    /** Regression: 0.1000000000000000055511151231257827 came back as 0.1. */
    @Test
    void install_longDecimalLiteral_keepsOriginalText() throws Exception {
        assertThat(install("{\"x\": 0.1000000000000000055511151231257827}", "codex"))
                .startsWith("{\"x\": 0.1000000000000000055511151231257827,");
    }

    /** Regression: -0 came back as 0. */
    @Test
    void install_negativeZero_keepsOriginalText() throws Exception {
        assertThat(install("{\"x\": -0, \"y\": 1.50, \"z\": 1E400}", "claude")).startsWith("{\"x\": -0, \"y\": 1.50, \"z\": 1E400,");
    }

    /** Regression: bytes that are not UTF-8 came back as U+FFFD. */
    @Test
    void install_invalidUtf8InOtherString_keepsBytes() throws Exception {
        byte[] original = {'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xc3, '"', '}'};

        byte[] installed = ClaudeSettings.install(original, HookLauncher.plain(LAUNCHER), "claude", BINDINGS);

        assertThat(java.util.Arrays.copyOf(installed, 9)).isEqualTo(java.util.Arrays.copyOf(original, 9));
        assertThat(ClaudeSettings.uninstall(installed, "claude")).isEqualTo(original);
    }

    /** Regression: of two duplicate keys, one was dropped. */
    @Test
    void install_duplicateKeys_bothKept() throws Exception {
        String settings = "{\"model\": \"sonnet\", \"model\": \"opus\"}";

        String out = install(settings, "claude");

        assertThat(out).startsWith("{\"model\": \"sonnet\", \"model\": \"opus\",");
        assertThat(uninstall(out, "claude")).isEqualTo(settings);
    }

    static Stream<String> launchers() {
        return Stream.of("/opt/warden/bin/warden", "/home/me/my tools/bin/warden", "/tmp/it's/bin/warden",
                "/tmp/$HOME/`x`/bin/warden", "/tmp/a;b&c|d/bin/warden");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("launchers")
    void command_anyLauncherPath_shellReadsItBackExactly(String launcher) throws Exception {
        String command = ClaudeSettings.command(HookLauncher.plain(launcher), "claude", "Stop");
        String probe = command.replace(" dispatch --host claude --native-event Stop", "");

        Process p = new ProcessBuilder("/bin/sh", "-c", "printf '%s' " + probe).start();
        String echoed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(p.waitFor()).isZero();
        assertThat(echoed).isEqualTo(launcher);
        assertThat(ClaudeSettings.isWardenCommand(command, "Stop", ClaudeSettings.hostsSharing("claude"))).isTrue();
    }

    private static String install(String settings, String host) throws SettingsFile.SettingsException {
        return new String(ClaudeSettings.install(bytes(settings), HookLauncher.plain(LAUNCHER), host, BINDINGS), StandardCharsets.UTF_8);
    }

    private static String uninstall(String settings, String host) {
        return new String(ClaudeSettings.uninstall(bytes(settings), host), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
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
