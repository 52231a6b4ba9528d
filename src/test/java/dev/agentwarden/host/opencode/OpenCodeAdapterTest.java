package dev.agentwarden.host.opencode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.verdict.Verdict.Kind;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OpenCode's bridge protocol as {@link OpenCodeAdapter} reads and answers it: the capability table
 * (a plugin refuses by throwing on tool.execute.before and chat.message, adds context to a tool's
 * output or the prompt, observes bus events only, and cannot ask), with every downgrade.
 */
class OpenCodeAdapterTest {
    private final OpenCodeAdapter adapter = new OpenCodeAdapter("opencode", OpenCodeAdapter.TOOLS);

    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("tool.execute.before", true, false),
                Arguments.of("chat.message", true, true),
                Arguments.of("tool.execute.after", false, true),
                Arguments.of("event.session.created", false, false),
                Arguments.of("event.subagent.created", false, false),
                Arguments.of("event.subagent.idle", false, false),
                Arguments.of("event.session.idle", false, false),
                Arguments.of("event.session.deleted", false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void capability_perEvent_isWhatAPluginCanDo(String event, boolean canBlock, boolean hasContext) {
        assertThat(adapter.capability(event)).isEqualTo(new Capability(canBlock, hasContext, false));
    }

    @Test
    void block_onToolExecuteBefore_isADenyTheBridgeThrows() {
        HostResponse r = adapter.render("tool.execute.before", Verdict.block("no"));
        assertThat(Json.parseObject(r.stdout())).containsEntry("decision", "deny").containsEntry("reason", "[warden] no")
                .doesNotContainKey("halt");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void halt_onToolExecuteBefore_isADenyThatAlsoStopsTheSession() {
        HostResponse r = adapter.render("tool.execute.before", new Verdict(Kind.HALT, "stop now", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("decision", "deny").containsEntry("halt", Boolean.TRUE);
    }

    @Test
    void ask_onToolExecuteBefore_isDowngradedToADeny_andSaysSo() {
        HostResponse r = adapter.render("tool.execute.before", new Verdict(Kind.ASK, "confirm", null));
        assertThat(Json.parseObject(r.stdout())).containsEntry("decision", "deny").containsEntry("reason", "[warden] confirm");
        assertThat(r.stderr()).contains("ask rendered as a deny on tool.execute.before");
    }

    @Test
    void block_onToolExecuteAfter_isDowngradedToContext_andSaysSo() {
        HostResponse r = adapter.render("tool.execute.after", Verdict.block("too late"));
        assertThat(Json.parseObject(r.stdout())).containsOnlyKeys("context");
        assertThat((String) Json.parseObject(r.stdout()).get("context")).contains("which a plugin cannot refuse: too late");
        assertThat(r.stderr()).contains("block downgraded on tool.execute.after");
    }

    @Test
    void block_onBusEvent_isAStderrNoteOnly() {
        HostResponse r = adapter.render("event.session.idle", Verdict.block("unfinished"));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("block downgraded on event.session.idle").contains("context not delivered");
    }

    @Test
    void context_onToolExecuteBefore_isNotDelivered_andSaysSo() {
        HostResponse r = adapter.render("tool.execute.before", new Verdict(Kind.WARN, null, "careful"));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("context not delivered on tool.execute.before").contains("careful");
    }

    @Test
    void context_onChatMessage_isContextForThePrompt() {
        HostResponse r = adapter.render("chat.message", new Verdict(Kind.WARN, null, "mind the tests"));
        assertThat(Json.parseObject(r.stdout())).containsEntry("context", "[warden] mind the tests");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void noOpinion_isNoOutput_everywhere() {
        for (String e : new String[] {"tool.execute.before", "tool.execute.after", "chat.message", "event.session.idle"}) {
            assertThat(adapter.render(e, Verdict.NO_OPINION)).isEqualTo(HostResponse.SILENT);
        }
    }

    @Test
    void normalize_bashCall_readsCommandAndSession() {
        HookEvent e = normalize("tool.execute.before", EventName.PRE_TOOL_USE, """
                {"hook":"tool.execute.before","cwd":"/p","input":{"tool":"bash","sessionID":"ses_a","callID":"c1"},
                 "output":{"args":{"command":"echo hi","description":"d"}}}""");
        assertThat(e.sessionId()).isEqualTo("ses_a");
        assertThat(e.agentId()).isNull();
        assertThat(e.toolName()).isEqualTo("bash");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("echo hi");
        assertThat(e.cwd()).isEqualTo("/p");
    }

    @Test
    void normalize_editCall_readsFilePath() {
        HookEvent e = normalize("tool.execute.before", EventName.PRE_TOOL_USE, """
                {"hook":"tool.execute.before","input":{"tool":"edit","sessionID":"ses_a"},
                 "output":{"args":{"filePath":"/p/.warden/manifest.yaml","oldString":"a","newString":"b"}}}""");
        assertThat(e.toolKind()).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(e.filePaths()).containsExactly("/p/.warden/manifest.yaml");
    }

    /** A child session's tool call: the top session is the session, the child session the agent. */
    @Test
    void normalize_childSessionCall_carriesLineage() {
        HookEvent e = normalize("tool.execute.before", EventName.PRE_TOOL_USE, """
                {"hook":"tool.execute.before","parentID":"ses_mid","rootID":"ses_top",
                 "input":{"tool":"bash","sessionID":"ses_child"},"output":{"args":{"command":"ls"}}}""");
        assertThat(e.sessionId()).isEqualTo("ses_top");
        assertThat(e.agentId()).isEqualTo("ses_child");
        assertThat(e.parentAgentId()).isEqualTo("ses_mid");
    }

    @Test
    void normalize_subagentCreated_fromTheCapturedChildSession() {
        HookEvent e = normalize("event.subagent.created", EventName.SUBAGENT_START, """
                {"hook":"event.subagent.created","input":{"type":"session.created","properties":{
                 "sessionID":"ses_child","info":{"id":"ses_child","parentID":"ses_top","agent":"general"}}}}""");
        assertThat(e.sessionId()).isEqualTo("ses_top");
        assertThat(e.agentId()).isEqualTo("ses_child");
        assertThat(e.agentType()).isEqualTo("general");
        assertThat(e.parentAgentId()).isNull();
    }

    @Test
    void normalize_chatMessage_joinsTheTextParts() {
        HookEvent e = normalize("chat.message", EventName.USER_PROMPT_SUBMIT, """
                {"hook":"chat.message","input":{"sessionID":"ses_a"},"output":{"message":{},
                 "parts":[{"type":"text","text":"one"},{"type":"file","url":"x"},{"type":"text","text":"two"}]}}""");
        assertThat(e.prompt()).isEqualTo("one\ntwo");
    }

    @Test
    void normalize_taskCall_isASubagentDispatchWithItsType() {
        HookEvent e = normalize("tool.execute.before", EventName.PRE_TOOL_USE, """
                {"hook":"tool.execute.before","input":{"tool":"task","sessionID":"ses_a"},
                 "output":{"args":{"description":"d","prompt":"p","subagent_type":"general"}}}""");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        assertThat(e.agentType()).isEqualTo("general");
    }

    @Test
    void nativeEvent_isTheEnvelopesHook() {
        assertThat(adapter.nativeEventOf(Map.of("hook", "chat.message"))).isEqualTo("chat.message");
        assertThat(adapter.nativeEventOf(Map.of("hook", 3L))).isNull();
    }

    private HookEvent normalize(String nativeEvent, EventName event, String json) {
        return adapter.normalize(nativeEvent, event, Json.parseObject(json), json.getBytes(StandardCharsets.UTF_8), "/p");
    }
}
