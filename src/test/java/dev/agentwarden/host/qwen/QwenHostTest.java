package dev.agentwarden.host.qwen;

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
import dev.agentwarden.install.qwen.QwenSetup;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
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

/**
 * Qwen Code 0.24.4 as a host: its captured payloads normalize to the one event, its installer owns
 * {@code .qwen/settings.json}, and its capability table differs from Claude's where the binary does.
 */
class QwenHostTest {
    private static final Host QWEN = Hosts.byId("qwen");

    private static HookEvent normalize(String capture) {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("qwen-code-0.24.4/" + capture));
        String nativeEvent = QWEN.adapter().nativeEventOf(payload);
        return QWEN.adapter().normalize(nativeEvent, QWEN.defaultAliases().get(nativeEvent), payload,
                Json.write(payload).getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
    }

    @Test
    void registry_namesQwen_andTheManifestAcceptsIt() {
        assertThat(QWEN).isNotNull();
        assertThat(Hosts.KNOWN).contains("qwen");
        assertThat(QWEN.projectDirVariables()).containsExactly("QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR");
    }

    @Test
    void runShellCommand_isTheShell_andItsCommandIsNormalized() {
        HookEvent e = normalize("deny-05-PreToolUse.json");
        assertThat(e.event()).isEqualTo(EventName.PRE_TOOL_USE);
        assertThat(e.toolName()).isEqualTo("run_shell_command");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("echo hello");
        assertThat(e.agentId()).isNull();
    }

    @Test
    void agentTool_isTheSubagentDispatch_andTheChildsCallCarriesItsAgentId() {
        assertThat(normalize("agent-05-PreToolUse.json").toolKind()).isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        HookEvent child = normalize("agent-11-PreToolUse.json");
        assertThat(child.agentId()).isEqualTo("general-purpose-toolu_7408e269821b4a64a3803dc9");
        HookEvent start = normalize("agent-06-SubagentStart.json");
        assertThat(start.event()).isEqualTo(EventName.SUBAGENT_START);
        assertThat(start.agentId()).isEqualTo(child.agentId());
        assertThat(start.agentType()).isEqualTo("general-purpose");
        HookEvent stop = normalize("agent-14-SubagentStop.json");
        assertThat(stop.agentId()).isEqualTo(child.agentId());
        assertThat(stop.lastAssistantMessage()).isEqualTo("SUB-FINAL: sub done");
    }

    @Test
    void qwensExtraEvents_haveCanonicalEvents() {
        assertThat(normalize("agent-01-InstructionsLoaded.json").event()).isEqualTo(EventName.INSTRUCTIONS_LOADED);
        assertThat(normalize("agent-08-PostToolBatch.json").event()).isEqualTo(EventName.POST_TOOL_BATCH);
        assertThat(QWEN.defaultAliases()).containsEntry("TodoCreated", EventName.TODO_CREATED)
                .containsEntry("TodoCompleted", EventName.TODO_COMPLETED);
    }

    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("PreToolUse", true, true, true),
                Arguments.of("PostToolUse", false, true, false),
                Arguments.of("PostToolBatch", true, true, false),
                Arguments.of("UserPromptSubmit", true, true, false),
                Arguments.of("Stop", true, false, false),
                Arguments.of("SubagentStop", true, false, false),
                Arguments.of("SubagentStart", false, true, false),
                Arguments.of("TodoCreated", true, false, false),
                Arguments.of("TodoCompleted", true, false, false),
                Arguments.of("InstructionsLoaded", false, false, false),
                Arguments.of("PermissionRequest", true, false, false));
    }

    @ParameterizedTest(name = "{0}: block={1} context={2} ask={3}")
    @MethodSource("capabilities")
    void capabilityTable_isQwens(String nativeEvent, boolean block, boolean context, boolean ask) {
        assertThat(QWEN.capability(nativeEvent)).isEqualTo(new Capability(block, context, ask));
    }

    /** Qwen only reports a PostToolUse decision:block; the model never reads it. */
    @Test
    void postToolUse_blockIgnoredByQwen_isDowngradedToContextLoudly() {
        HostResponse r = QWEN.adapter().render("PostToolUse", Verdict.block("no"));
        assertThat(r.stdout()).doesNotContain("\"decision\"").contains("additionalContext");
        assertThat(r.stderr()).contains("block downgraded to context on PostToolUse");
    }

    @Test
    void stop_contextQwenDoesNotRead_isASystemMessage() {
        HostResponse r = QWEN.adapter().render("Stop", new Verdict(Verdict.Kind.WARN, "w", "look again"));
        assertThat(Json.parseObject(r.stdout())).containsEntry("systemMessage", "[warden] look again");
    }

    @Test
    void postToolBatch_block_isDecisionBlock() {
        HostResponse r = QWEN.adapter().render("PostToolBatch", Verdict.block("stop here"));
        assertThat(Json.parseObject(r.stdout())).containsEntry("decision", "block").containsEntry("reason", "[warden] stop here");
    }

    @Test
    void projectInstaller_writesQwensSettings_andUserScopeFollowsQwenHome() {
        Path project = Path.of("/p");
        assertThat(QwenSetup.QWEN.installer(Host.Scope.PROJECT).settingsFile(project, Map.of()))
                .isEqualTo(Path.of("/p/.qwen/settings.json"));
        assertThat(QwenSetup.QWEN.installer(Host.Scope.USER).settingsFile(project, Map.of("HOME", "/h")))
                .isEqualTo(Path.of("/h/.qwen/settings.json"));
        assertThat(QwenSetup.QWEN.installer(Host.Scope.USER).settingsFile(project, Map.of("HOME", "/h", "QWEN_HOME", "/q")))
                .isEqualTo(Path.of("/q/settings.json"));
    }

    /** Before Qwen had its own file, only claude and cowork entries were recognised: a reinstall doubled them. */
    @Test
    void install_twiceForQwen_leavesOneEntryPerEvent_andUninstallRemovesThem() throws Exception {
        Installer installer = QwenSetup.QWEN.installer(Host.Scope.PROJECT);
        byte[] doc = "{\"selectedType\": \"anthropic\"}\n".getBytes(StandardCharsets.UTF_8);
        List<Installer.Binding> bindings = List.of(new Installer.Binding("PreToolUse", "*"),
                new Installer.Binding("SubagentStart", null));
        byte[] once = installer.install(doc, HookLauncher.plain("/opt/warden/bin/warden"), bindings);
        byte[] twice = installer.install(once, HookLauncher.plain("/opt/warden/bin/warden"), bindings);
        assertThat(new String(twice, StandardCharsets.UTF_8)).isEqualTo(new String(once, StandardCharsets.UTF_8));
        assertThat(installer.installedEvents(twice)).containsExactly("PreToolUse", "SubagentStart");
        assertThat(new String(once, StandardCharsets.UTF_8)).contains("dispatch --host qwen --native-event PreToolUse");
        assertThat(installer.uninstall(twice)).isEqualTo(doc);
    }
}
