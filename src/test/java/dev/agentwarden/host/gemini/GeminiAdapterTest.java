package dev.agentwarden.host.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.verdict.Verdict.Kind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Gemini CLI 0.61.0's hook protocol as {@link GeminiAdapter} renders and reads it. */
class GeminiAdapterTest {
    private final GeminiAdapter adapter = new GeminiAdapter();

    /** The table as measured: block, context to the model, halt. */
    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("SessionStart", false, true, false),
                Arguments.of("BeforeAgent", true, true, true),
                Arguments.of("BeforeModel", true, false, true),
                Arguments.of("BeforeToolSelection", false, false, false),
                Arguments.of("AfterModel", true, false, true),
                Arguments.of("BeforeTool", true, false, true),
                Arguments.of("AfterTool", true, true, true),
                Arguments.of("AfterAgent", true, false, true),
                Arguments.of("PreCompress", false, false, false),
                Arguments.of("Notification", false, false, false),
                Arguments.of("SessionEnd", false, false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void capability_eachEvent_isTheMeasuredRow(String event, boolean block, boolean context, boolean halt) {
        // BeforeTool's hookSpecificOutput.tool_input rewrites the call
        assertThat(adapter.capability(event)).isEqualTo(new Capability(block, context, false, event.equals("BeforeTool")));
        assertThat(GeminiAdapter.TABLE.get(event)).isEqualTo(new GeminiAdapter.Channels(block, context, halt));
    }

    @Test
    void table_coversEveryAliasedEvent() {
        assertThat(GeminiAdapter.TABLE.keySet()).isEqualTo(GeminiHost.EVENTS.keySet());
        assertThat(Hosts.byId("gemini")).isSameAs(GeminiHost.GEMINI);
    }

    /** Gemini reads any exit code but 0, 1 and 2 as a deny: every answer, on every event, is exit 0. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void render_everyKind_exitsZeroWithAtMostOneJsonObject(String event, boolean block, boolean context, boolean halt) {
        for (Kind kind : Kind.values()) {
            HostResponse r = adapter.render(event, new Verdict(kind, kind.decides() ? "why" : null, "ctx"));
            assertThat(r.exitCode()).as("%s on %s", kind, event).isZero();
            if (!r.stdout().isEmpty()) {
                assertThat(Json.parse(r.stdout())).isInstanceOf(Map.class);
            }
        }
    }

    @Test
    void render_blockOnBeforeTool_isDecisionDenyWithReason() {
        HostResponse r = adapter.render("BeforeTool", Verdict.block("no"));
        assertThat(r.stdout()).isEqualTo("{\"decision\":\"deny\",\"reason\":\"[warden] no\"}");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void render_haltOnBeforeTool_isContinueFalse() {
        HostResponse r = adapter.render("BeforeTool", new Verdict(Kind.HALT, "stop", null));
        assertThat(r.stdout()).isEqualTo("{\"continue\":false,\"stopReason\":\"[warden] stop\"}");
    }

    @Test
    void render_blockOnAfterAgent_isDenyThatForcesAnotherTurn() {
        assertThat(adapter.render("AfterAgent", Verdict.block("finish")).stdout())
                .isEqualTo("{\"decision\":\"deny\",\"reason\":\"[warden] finish\"}");
    }

    @Test
    void render_contextOnAfterTool_isAdditionalContext() {
        assertThat(adapter.render("AfterTool", new Verdict(Kind.WARN, null, "note")).stdout())
                .isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"AfterTool\",\"additionalContext\":\"note\"}}");
    }

    @Test
    void render_noOpinion_isNoOutput() {
        assertThat(adapter.render("BeforeTool", Verdict.NO_OPINION)).isEqualTo(HostResponse.SILENT);
    }

    /** Every downgrade the table implies, each visible on stderr. */
    @Test
    void render_contextWhereNoneReachesTheModel_isSystemMessage() {
        HostResponse r = adapter.render("BeforeTool", new Verdict(Kind.WARN, null, "note"));
        assertThat(r.stdout()).isEqualTo("{\"systemMessage\":\"[warden] note\"}");
    }

    @Test
    void render_blockOnUnblockableEventWithContext_isContextAndANote() {
        HostResponse r = adapter.render("SessionStart", Verdict.block("no"));
        assertThat(r.stdout()).contains("\"additionalContext\":\"policy would block this SessionStart, which Gemini cannot refuse: no\"");
        assertThat(r.stderr()).isEqualTo("warden: block downgraded to context on SessionStart (not blockable)");
    }

    @Test
    void render_blockOnUnblockableEventWithoutContext_isSystemMessageAndANote() {
        HostResponse r = adapter.render("PreCompress", Verdict.block("no"));
        assertThat(r.stdout()).isEqualTo("{\"systemMessage\":\"[warden] policy would block this PreCompress, which Gemini cannot refuse: no\"}");
        assertThat(r.stderr()).isEqualTo("warden: block downgraded to a message on PreCompress (not blockable)");
    }

    @Test
    void render_haltWhereGeminiDoesNotStop_isABlockAndANote() {
        HostResponse r = adapter.render("SessionEnd", new Verdict(Kind.HALT, "stop", null));
        assertThat(r.stdout()).contains("systemMessage");
        assertThat(r.stderr()).contains("halt rendered as a block on SessionEnd (Gemini does not stop there)")
                .contains("block downgraded to a message on SessionEnd");
    }

    @Test
    void render_ask_isADenyAndANote() {
        HostResponse r = adapter.render("BeforeTool", new Verdict(Kind.ASK, "sure?", null));
        assertThat(r.stdout()).isEqualTo("{\"decision\":\"deny\",\"reason\":\"[warden] sure?\"}");
        assertThat(r.stderr()).isEqualTo("warden: ask rendered as a block on BeforeTool (Gemini cannot ask in a hook)");
    }

    @Test
    void render_unknownNativeEvent_isTreatedAsUnblockable() {
        HostResponse r = adapter.render("SomeFutureEvent", Verdict.block("no"));
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).contains("not blockable");
    }

    @Test
    void normalize_capturedShellCall_isShellWithItsCommand() {
        HookEvent e = normalize("session/BeforeTool.json", EventName.PRE_TOOL_USE);
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("echo hello > out.txt");
        assertThat(e.sessionId()).isEqualTo("c467e683-ee9f-4d1d-bd14-a962a8be385c");
        assertThat(e.agentId()).isNull();
    }

    @Test
    void normalize_capturedInvokeAgent_isSubagentDispatchTypedByAgentName() {
        HookEvent e = normalize("subagent/BeforeTool.json", EventName.PRE_TOOL_USE);
        assertThat(e.toolKind()).isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        assertThat(e.agentType()).isEqualTo("generalist");
        assertThat(e.agentId()).as("Gemini names no agent").isNull();
    }

    @Test
    void normalize_capturedChildToolCall_carriesNoAgentMarker() {
        HookEvent e = normalize("subagent/BeforeTool.2.json", EventName.PRE_TOOL_USE);
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.agentId()).isNull();
        assertThat(e.sessionId()).isEqualTo(normalize("subagent/BeforeTool.json", EventName.PRE_TOOL_USE).sessionId());
    }

    @Test
    void normalize_afterAgent_isTheLastMessageNotThePrompt() {
        HookEvent e = normalize("session/AfterAgent.json", EventName.STOP);
        assertThat(e.lastAssistantMessage()).isEqualTo("I'll run it.\nFINAL: done");
        assertThat(e.prompt()).isNull();
        HookEvent before = normalize("session/BeforeAgent.json", EventName.USER_PROMPT_SUBMIT);
        assertThat(before.prompt()).isEqualTo("run echo");
    }

    @Test
    void normalize_fileAndMcpTools_areKindedAndTheirPathsRead() {
        Map<String, Object> write = Json.parseObject("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"write_file\","
                + "\"tool_input\":{\"file_path\":\"/p/.gemini/settings.json\",\"content\":\"{}\"}}");
        HookEvent e = adapter.normalize("BeforeTool", EventName.PRE_TOOL_USE, write, new byte[0], "/p");
        assertThat(e.toolKind()).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(e.filePaths()).isEqualTo(List.of("/p/.gemini/settings.json"));
        assertThat(GeminiAdapter.TOOLS.kindOf("replace")).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(GeminiAdapter.TOOLS.kindOf("read_file")).isEqualTo(ToolKind.FILE_READ);
        assertThat(GeminiAdapter.TOOLS.kindOf("mcp_github_create_issue")).isEqualTo(ToolKind.MCP);
        assertThat(GeminiAdapter.TOOLS.kindOf("google_web_search")).isEqualTo(ToolKind.OTHER);
    }

    @Test
    void aliases_everyNativeEvent_hasItsCanonicalEvent() {
        assertThat(GeminiHost.EVENTS).containsEntry("BeforeTool", EventName.PRE_TOOL_USE)
                .containsEntry("AfterTool", EventName.POST_TOOL_USE)
                .containsEntry("BeforeAgent", EventName.USER_PROMPT_SUBMIT)
                .containsEntry("AfterAgent", EventName.STOP)
                .containsEntry("PreCompress", EventName.PRE_COMPACT)
                .containsEntry("BeforeModel", EventName.PRE_MODEL_REQUEST)
                .containsEntry("AfterModel", EventName.POST_MODEL_RESPONSE)
                .containsEntry("BeforeToolSelection", EventName.PRE_TOOL_SELECTION)
                .hasSize(11);
        assertThat(GeminiHost.EVENTS.values()).doesNotContain(EventName.SUBAGENT_START, EventName.SUBAGENT_STOP);
    }

    private HookEvent normalize(String capture, EventName event) {
        String text = HostPayloads.captured("gemini-cli-0.61.0/" + capture);
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        Map<String, Object> payload = Json.parseObject(text);
        return adapter.normalize((String) payload.get("hook_event_name"), event, payload, raw, "/home/dev/proj");
    }
}
