package dev.agentwarden.host.cursor;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.cursor.CursorSetup;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Cursor as documented: its capability table, each downgrade, and its {@code hooks.json} installer. */
class CursorHostTest {
    private static final Host CURSOR = Hosts.byId("cursor");

    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("preToolUse", true, false, false),
                Arguments.of("beforeShellExecution", true, false, true),
                Arguments.of("beforeMCPExecution", true, false, true),
                Arguments.of("beforeReadFile", true, false, false),
                Arguments.of("subagentStart", true, false, false),
                Arguments.of("beforeSubmitPrompt", true, false, false),
                Arguments.of("stop", true, false, false),
                Arguments.of("subagentStop", true, false, false),
                Arguments.of("sessionStart", false, true, false),
                Arguments.of("postToolUse", false, true, false),
                Arguments.of("afterFileEdit", false, false, false),
                Arguments.of("sessionEnd", false, false, false));
    }

    @ParameterizedTest(name = "{0}: block={1} context={2} ask={3}")
    @MethodSource("capabilities")
    void capabilityTable_isCursorsDocumentedOne(String nativeEvent, boolean block, boolean context, boolean ask) {
        assertThat(CURSOR.capability(nativeEvent)).isEqualTo(new Capability(block, context, ask));
    }

    @Test
    void ask_onBeforeShellExecution_isPermissionAsk() {
        HostResponse r = CURSOR.adapter().render("beforeShellExecution", new Verdict(Verdict.Kind.ASK, "sure?", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("permission", "ask").containsEntry("agent_message", "[warden] sure?");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void ask_wherePermissionHasNoAsk_isABlockLoudly() {
        HostResponse r = CURSOR.adapter().render("preToolUse", new Verdict(Verdict.Kind.ASK, "sure?", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("permission", "deny");
        assertThat(r.stderr()).contains("ask rendered as a block on preToolUse");
    }

    @Test
    void halt_isABlockLoudly_sinceCursorHooksCannotEndASession() {
        HostResponse r = CURSOR.adapter().render("beforeShellExecution", new Verdict(Verdict.Kind.HALT, "stop all", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("permission", "deny");
        assertThat(r.stderr()).contains("halt rendered as a block");
    }

    @Test
    void context_whereCursorTakesNone_isAStderrNote_neverAnAllow() {
        HostResponse r = CURSOR.adapter().render("beforeShellExecution", new Verdict(Verdict.Kind.WARN, "w", "mind it"));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("context not delivered on beforeShellExecution");
    }

    @Test
    void beforeShellExecution_normalizesToTheShellWithItsCommand() {
        Map<String, Object> payload = Json.parseObject("{\"hook_event_name\":\"beforeShellExecution\",\"conversation_id\":\"c1\","
                + "\"command\":\"git status\",\"cwd\":\"/p\",\"workspace_roots\":[\"/p\"]}");
        HookEvent e = CURSOR.adapter().normalize("beforeShellExecution", EventName.PRE_TOOL_USE, payload, new byte[0], "/p");
        assertThat(e.toolName()).isEqualTo("Shell");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("git status");
        assertThat(e.sessionId()).isEqualTo("c1");
    }

    @Test
    void install_writesVersionOneAndFailClosedOnGatingEvents_andUninstallRestoresTheFile() throws Exception {
        Installer installer = CursorSetup.CURSOR.installer(Host.Scope.PROJECT);
        assertThat(installer.settingsFile(Path.of("/p"), Map.of())).isEqualTo(Path.of("/p/.cursor/hooks.json"));
        assertThat(CursorSetup.CURSOR.installer(Host.Scope.USER).settingsFile(Path.of("/p"), Map.of("HOME", "/h")))
                .isEqualTo(Path.of("/h/.cursor/hooks.json"));
        byte[] doc = "{\"hooks\": {\"stop\": [{\"command\": \"./mine.sh\"}]}}\n".getBytes(StandardCharsets.UTF_8);
        List<Installer.Binding> bindings = List.of(new Installer.Binding("beforeShellExecution", null),
                new Installer.Binding("stop", null));
        byte[] once = installer.install(doc, HookLauncher.plain("/opt/warden/bin/warden"), bindings);
        Map<String, Object> written = Json.parseObject(new String(once, StandardCharsets.UTF_8));
        assertThat(written).containsEntry("version", 1L);
        @SuppressWarnings("unchecked")
        Map<String, Object> hooks = (Map<String, Object>) written.get("hooks");
        assertThat(hooks.get("beforeShellExecution")).isEqualTo(List.of(Map.of("command",
                "/opt/warden/bin/warden dispatch --host cursor --native-event beforeShellExecution", "failClosed", true)));
        assertThat(hooks.get("stop")).isEqualTo(List.of(Map.of("command", "./mine.sh"), Map.of("command",
                "/opt/warden/bin/warden dispatch --host cursor --native-event stop", "failClosed", false)));
        assertThat(installer.install(once, HookLauncher.plain("/opt/warden/bin/warden"), bindings)).isEqualTo(once);
        assertThat(installer.installedEvents(once)).containsExactly("stop", "beforeShellExecution");
        byte[] removed = installer.uninstall(once);
        assertThat(installer.installedEvents(removed)).isEmpty();
        assertThat(new String(removed, StandardCharsets.UTF_8)).contains("./mine.sh");
    }

    @Test
    void lookalike_withAnExtraKey_isTheUsers_andStays() {
        Installer installer = CursorSetup.CURSOR.installer(Host.Scope.PROJECT);
        byte[] doc = ("{\"version\":1,\"hooks\":{\"stop\":[{\"command\":\"/opt/warden/bin/warden dispatch --host cursor"
                + " --native-event stop\",\"failClosed\":false,\"timeout\":5}]}}").getBytes(StandardCharsets.UTF_8);
        assertThat(installer.uninstall(doc)).isEqualTo(doc);
        assertThat(installer.lookalikes(doc)).hasSize(1);
    }
}
