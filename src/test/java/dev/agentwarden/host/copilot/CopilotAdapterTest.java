package dev.agentwarden.host.copilot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
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

/**
 * Copilot CLI 1.0.102's hook protocol as {@link CopilotAdapter} reads and writes it: both payload
 * formats of the captured payloads, and the capability table's every row and downgrade.
 */
class CopilotAdapterTest {
    private static final String DIR = "copilot-cli-1.0.102/";
    private final CopilotAdapter adapter = new CopilotAdapter();

    private HookEvent normalize(String nativeEvent, EventName event, String captured) {
        String raw = HostPayloads.captured(DIR + captured);
        return adapter.normalize(nativeEvent, event, Json.parseObject(raw), raw.getBytes(StandardCharsets.UTF_8), "/p");
    }

    @Test
    void normalize_camelCasePreToolUse_readsToolArgsObject() {
        HookEvent e = normalize("preToolUse", EventName.PRE_TOOL_USE, "camel/session/preToolUse.json");
        assertThat(e.sessionId()).isEqualTo("57cbd1cb-e48f-4d7f-b6cc-0fe1a0b1b11c");
        assertThat(e.toolName()).isEqualTo("bash");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("echo hello > out.txt");
        assertThat(e.agentId()).isNull();
        assertThat(e.cwd()).isEqualTo("/home/dev/proj");
    }

    @Test
    void normalize_toolArgsAsJsonString_isParsedAsTheDocsDescribe() {
        Map<String, Object> p = Json.parseObject(HostPayloads.captured(DIR + "camel/session/preToolUse.json"));
        p.put("toolArgs", "{\"command\":\"git commit -n\"}");
        HookEvent e = adapter.normalize("preToolUse", EventName.PRE_TOOL_USE, p, new byte[0], "/p");
        assertThat(e.shellCommand()).isEqualTo("git commit -n");
        p.put("toolArgs", "not json");
        assertThat(adapter.normalize("preToolUse", EventName.PRE_TOOL_USE, p, new byte[0], "/p").toolInput())
                .isEqualTo("not json");
    }

    @Test
    void normalize_childHook_carriesCopilotsLineage() {
        HookEvent e = normalize("preToolUse", EventName.PRE_TOOL_USE, "camel/subagent/preToolUse.2.json");
        assertThat(e.sessionId()).isEqualTo("f6ffc0a6-2636-4b11-a659-03eab85e96bd");
        assertThat(e.agentId()).isEqualTo("f6ffc0a6-2636-4b11-a659-03eab85e96bd");
        assertThat(e.parentAgentId()).isEqualTo("625c905d-dd27-4196-b879-a4a2d60967ff");
        assertThat(e.agentType()).isEqualTo("task");

        HookEvent spawn = normalize("preToolUse", EventName.PRE_TOOL_USE, "camel/subagent/preToolUse.json");
        assertThat(spawn.toolKind()).isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        HookEvent start = normalize("subagentStart", EventName.SUBAGENT_START, "camel/subagent/subagentStart.json");
        assertThat(start.agentId()).isEqualTo("f6ffc0a6-2636-4b11-a659-03eab85e96bd");
        assertThat(start.parentAgentId()).isEqualTo(start.sessionId());
        HookEvent stop = normalize("subagentStop", EventName.SUBAGENT_STOP, "camel/subagent/subagentStop.json");
        assertThat(stop.lastAssistantMessage()).isEqualTo("SUB-FINAL: sub done");
    }

    @Test
    void normalize_vsCodeFormat_readsSnakeCaseAndPartlyCamelCase() {
        HookEvent pre = normalize("PreToolUse", EventName.PRE_TOOL_USE, "pascal/subagent-deny/PreToolUse.2.json");
        assertThat(pre.sessionId()).isEqualTo("a9acf42f-30ad-48c8-9285-c46c30ddb113");
        assertThat(pre.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(pre.shellCommand()).isEqualTo("echo from-sub > sub.txt");
        assertThat(pre.parentAgentId()).isEqualTo("7281897b-724b-4e51-a3bb-c9228e541612");
        assertThat(normalize("PreToolUse", EventName.PRE_TOOL_USE, "pascal/subagent-deny/PreToolUse.json").toolKind())
                .isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        HookEvent start = normalize("SubagentStart", EventName.SUBAGENT_START, "pascal/session/SubagentStart.json");
        assertThat(start.sessionId()).isEqualTo("7281897b-724b-4e51-a3bb-c9228e541612");
        assertThat(start.agentId()).isEqualTo("a9acf42f-30ad-48c8-9285-c46c30ddb113");
        HookEvent permission = normalize("PermissionRequest", EventName.PERMISSION_REQUEST, "pascal/session/PermissionRequest.json");
        assertThat(permission.shellCommand()).isEqualTo("echo hello > out.txt");
        assertThat(normalize("SubagentStop", EventName.SUBAGENT_STOP, "pascal/session/SubagentStop.json")
                .lastAssistantMessage()).isEqualTo("SUB-FINAL: sub done");
        assertThat(normalize("Stop", EventName.STOP, "pascal/session/Stop.json").transcriptPath()).endsWith("events.jsonl");
    }

    @Test
    void normalize_transformedPrompt_isWhatConcernsRead() {
        HookEvent e = normalize("userPromptTransformed", EventName.USER_PROMPT_TRANSFORMED,
                "camel/session/userPromptTransformed.json");
        assertThat(e.prompt()).startsWith("<current_datetime>").endsWith("run echo");
        assertThat(normalize("userPromptSubmitted", EventName.USER_PROMPT_SUBMIT, "camel/session/userPromptSubmitted.json")
                .prompt()).isEqualTo("run echo");
    }

    @Test
    void normalize_fileTools_readCopilotsPathKey() {
        HookEvent e = normalize("postToolUseFailure", EventName.POST_TOOL_USE_FAILURE, "camel/session/postToolUseFailure.json");
        assertThat(e.toolKind()).isEqualTo(ToolKind.FILE_READ);
        assertThat(e.filePaths()).containsExactly("/home/dev/proj/nonexistent.txt");
        assertThat(CopilotHost.TOOLS.kindOf("create")).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(CopilotHost.TOOLS.kindOf("edit")).isEqualTo(ToolKind.FILE_EDIT);
    }

    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("preToolUse", true, true, true), Arguments.of("PreToolUse", true, true, true),
                Arguments.of("permissionRequest", true, false, false), Arguments.of("PermissionRequest", true, false, false),
                Arguments.of("userPromptSubmitted", true, true, false), Arguments.of("UserPromptSubmit", true, true, false),
                Arguments.of("agentStop", true, false, false), Arguments.of("Stop", true, false, false),
                Arguments.of("subagentStop", true, false, false), Arguments.of("SubagentStop", true, false, false),
                Arguments.of("sessionStart", false, true, false), Arguments.of("postToolUse", false, true, false),
                Arguments.of("subagentStart", false, true, false), Arguments.of("SubagentStart", false, true, false),
                Arguments.of("userPromptTransformed", false, false, false), Arguments.of("postToolUseFailure", false, false, false),
                Arguments.of("notification", false, false, false), Arguments.of("errorOccurred", false, false, false),
                Arguments.of("preCompact", false, false, false), Arguments.of("sessionEnd", false, false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void capability_perEvent_isTheMeasuredTable(String nativeEvent, boolean canBlock, boolean context, boolean ask) {
        assertThat(adapter.capability(nativeEvent)).isEqualTo(new Capability(canBlock, context, ask));
    }

    /** Every event, every kind: exit 0 (exit 1 on preToolUse is a fail-closed deny, exit 2 a deny). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void render_anyVerdict_isExitZero_andNoOpinionIsNothingOnStdout(String nativeEvent) {
        for (Kind kind : Kind.values()) {
            HostResponse r = adapter.render(nativeEvent, new Verdict(kind, "why", kind == Kind.WARN ? "note" : null));
            assertThat(r.exitCode()).as("%s on %s", kind, nativeEvent).isZero();
            if (!r.stdout().isEmpty()) {
                assertThat(Json.parse(r.stdout())).isInstanceOf(Map.class);
            }
        }
        assertThat(adapter.render(nativeEvent, Verdict.NO_OPINION)).isEqualTo(HostResponse.SILENT);
    }

    @Test
    void render_blockOnPreToolUse_isPermissionDecisionDeny() {
        assertThat(Json.parseObject(adapter.render("preToolUse", Verdict.block("no")).stdout()))
                .isEqualTo(Map.of("permissionDecision", "deny", "permissionDecisionReason", "[warden] no"));
    }

    @Test
    void render_haltOnPreToolUse_isADenyBecauseContinueFalseIsIgnored() {
        HostResponse r = adapter.render("preToolUse", new Verdict(Kind.HALT, "stop", null));
        assertThat(Json.parseObject(r.stdout())).isEqualTo(Map.of("permissionDecision", "deny", "permissionDecisionReason", "[warden] stop"));
        assertThat(r.stdout()).doesNotContain("continue");
        assertThat(r.stderr()).contains("halt rendered as a refusal on preToolUse");
    }

    @Test
    void render_permissionRequest_deniesWithBehavior_andAHaltInterrupts() {
        assertThat(Json.parseObject(adapter.render("permissionRequest", Verdict.block("no")).stdout()))
                .isEqualTo(Map.of("behavior", "deny", "message", "[warden] no"));
        assertThat(Json.parseObject(adapter.render("permissionRequest", new Verdict(Kind.HALT, "stop", null)).stdout()))
                .isEqualTo(Map.of("behavior", "deny", "message", "[warden] stop", "interrupt", true));
        HostResponse ask = adapter.render("permissionRequest", new Verdict(Kind.ASK, "sure?", null));
        assertThat(ask.stdout()).as("an ask is left to Copilot's own prompt").isEmpty();
        assertThat(ask.stderr()).contains("ask left to Copilot's own prompt");
    }

    @Test
    void render_promptAndStop_blockWithDecisionBlock_andAHaltOnAStopNeedsNothing() {
        for (String e : List.of("userPromptSubmitted", "UserPromptSubmit", "agentStop", "Stop", "subagentStop")) {
            assertThat(Json.parseObject(adapter.render(e, Verdict.block("no")).stdout())).as(e)
                    .isEqualTo(Map.of("decision", "block", "reason", "[warden] no"));
        }
        assertThat(Json.parseObject(adapter.render("userPromptSubmitted", new Verdict(Kind.HALT, "h", null)).stdout()))
                .isEqualTo(Map.of("decision", "block", "reason", "[warden] h"));
        HostResponse stop = adapter.render("agentStop", new Verdict(Kind.HALT, "h", null));
        assertThat(stop.stdout()).isEmpty();
        assertThat(stop.stderr()).contains("halt on agentStop needs nothing");
    }

    @Test
    void render_blockWhereCopilotCannotRefuse_isContextOrANote_neverSilent() {
        HostResponse context = adapter.render("postToolUse", Verdict.block("ran anyway"));
        assertThat(Json.parseObject(context.stdout()).get("additionalContext")).asString().contains("ran anyway");
        assertThat(context.stderr()).contains("block downgraded to context on postToolUse");
        HostResponse note = adapter.render("sessionEnd", Verdict.block("late"));
        assertThat(note.stdout()).isEmpty();
        assertThat(note.stderr()).contains("block not delivered on sessionEnd").contains("late");
        HostResponse warn = adapter.render("preCompact", new Verdict(Kind.WARN, null, "mind it"));
        assertThat(warn.stdout()).isEmpty();
        assertThat(warn.stderr()).contains("context not delivered on preCompact").contains("mind it");
    }

    @Test
    void render_askOnPreToolUse_isPermissionDecisionAsk_elsewhereABlock() {
        assertThat(Json.parseObject(adapter.render("preToolUse", new Verdict(Kind.ASK, "sure?", null)).stdout()))
                .isEqualTo(Map.of("permissionDecision", "ask", "permissionDecisionReason", "[warden] sure?"));
        HostResponse prompt = adapter.render("userPromptSubmitted", new Verdict(Kind.ASK, "sure?", null));
        assertThat(Json.parseObject(prompt.stdout())).containsEntry("decision", "block");
        assertThat(prompt.stderr()).contains("ask rendered as a block");
    }

    @Test
    void render_warnWithContext_isAdditionalContextWhereItReachesTheModel() {
        for (String e : List.of("sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "subagentStart")) {
            assertThat(Json.parseObject(adapter.render(e, new Verdict(Kind.WARN, null, "heads up")).stdout())).as(e)
                    .isEqualTo(Map.of("additionalContext", "heads up"));
        }
    }

    @Test
    void nativeEventOf_namesTheVsCodeEventOrThePermissionHook_camelCaseNone() {
        assertThat(adapter.nativeEventOf(Json.parseObject(HostPayloads.captured(DIR + "pascal/session/PreToolUse.json"))))
                .isEqualTo("PreToolUse");
        assertThat(adapter.nativeEventOf(Json.parseObject(HostPayloads.captured(DIR + "camel/session/permissionRequest.json"))))
                .isEqualTo("permissionRequest");
        assertThat(adapter.nativeEventOf(Json.parseObject(HostPayloads.captured(DIR + "camel/session/preToolUse.json"))))
                .isNull();
    }
}
