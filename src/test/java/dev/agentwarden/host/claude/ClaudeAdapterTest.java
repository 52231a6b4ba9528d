package dev.agentwarden.host.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.verdict.Verdict.Kind;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Claude Code's (and Cowork's) hook protocol as {@link ClaudeAdapter} renders it: the capability
 * table per native event, each verdict kind on each event, every downgrade, and the output cap.
 */
class ClaudeAdapterTest {
    private final ClaudeAdapter adapter = new ClaudeAdapter("claude");

    /** Which events can refuse and which carry context to the model (hosts.md, Claude Code). */
    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("PreToolUse", true, true),
                Arguments.of("PostToolUse", true, true),
                Arguments.of("UserPromptSubmit", true, true),
                Arguments.of("Stop", true, true),
                Arguments.of("SubagentStop", true, true),
                Arguments.of("PermissionRequest", true, false),
                Arguments.of("SessionStart", false, true),
                Arguments.of("SubagentStart", false, true),
                Arguments.of("PostToolUseFailure", false, true),
                Arguments.of("SessionEnd", false, false),
                Arguments.of("PreCompact", false, false),
                Arguments.of("Notification", false, false),
                Arguments.of("TeammateIdle", false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void capability_perNativeEvent_isTheTable(String nativeEvent, boolean canBlock, boolean hasContext) {
        // PreToolUse alone asks, and runs a rewritten input (updatedInput with permissionDecision allow)
        assertThat(adapter.capability(nativeEvent)).isEqualTo(new Capability(canBlock, hasContext, nativeEvent.equals("PreToolUse"),
                nativeEvent.equals("PreToolUse")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void render_noOpinion_exit0AndNoOutput(String nativeEvent) {
        assertThat(adapter.render(nativeEvent, Verdict.NO_OPINION)).isEqualTo(HostResponse.SILENT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void render_warnWithoutText_noOutput(String nativeEvent) {
        assertThat(adapter.render(nativeEvent, new Verdict(Kind.WARN, null, null))).isEqualTo(HostResponse.SILENT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void render_warn_contextChannelElseSystemMessage(String nativeEvent, boolean canBlock, boolean hasContext) {
        HostResponse r = adapter.render(nativeEvent, new Verdict(Kind.WARN, null, "mind the tests"));

        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).isEqualTo(hasContext
                ? "{\"hookSpecificOutput\":{\"hookEventName\":\"" + nativeEvent + "\",\"additionalContext\":\"mind the tests\"}}"
                : "{\"systemMessage\":\"[warden] mind the tests\"}");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void render_allowWithContext_sameAsWarn(String nativeEvent) {
        assertThat(adapter.render(nativeEvent, new Verdict(Kind.ALLOW, null, "fyi")))
                .isEqualTo(adapter.render(nativeEvent, new Verdict(Kind.WARN, null, "fyi")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void render_halt_continueFalseOnEveryEvent(String nativeEvent) {
        HostResponse r = adapter.render(nativeEvent, new Verdict(Kind.HALT, "integrity gate halted", "ignored"));

        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).isEmpty();
        assertThat(r.stdout()).startsWith("{\"continue\":false,\"stopReason\":\"[warden] integrity gate halted\"");
        if (!nativeEvent.equals("PreToolUse") && !nativeEvent.equals("PermissionRequest")) {
            assertThat(r.stdout()).isEqualTo("{\"continue\":false,\"stopReason\":\"[warden] integrity gate halted\"}");
        }
    }

    /**
     * Claude Code 2.1.197 and 2.1.332 run the tool on a PreToolUse {@code continue: false} and only
     * then end the session, so a halt there must also deny the call.
     */
    @Test
    void render_haltOnPreToolUse_deniesTheCallAndStops() {
        HostResponse r = adapter.render("PreToolUse", new Verdict(Kind.HALT, "integrity gate halted", "ignored"));

        assertThat(r).isEqualTo(new HostResponse(0, "{\"continue\":false,\"stopReason\":\"[warden] integrity gate halted\","
                + "\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                + "\"permissionDecisionReason\":\"[warden] integrity gate halted\"}}", ""));
    }

    @Test
    void render_haltOnPermissionRequest_deniesInterruptsAndStops() {
        HostResponse r = adapter.render("PermissionRequest", new Verdict(Kind.HALT, "integrity gate halted", null));

        assertThat(r).isEqualTo(new HostResponse(0, "{\"continue\":false,\"stopReason\":\"[warden] integrity gate halted\","
                + "\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\","
                + "\"message\":\"[warden] integrity gate halted\",\"interrupt\":true}}}", ""));
    }

    @Test
    void render_haltOnCowork_sharesClaudesDeny() {
        HostResponse r = dev.agentwarden.host.HostAdapters.forId("cowork").render("PreToolUse", new Verdict(Kind.HALT, "stop", null));

        assertThat(r.stdout()).contains("\"continue\":false", "\"permissionDecision\":\"deny\"");
    }

    static Stream<Arguments> blocks() {
        return Stream.of(
                Arguments.of("PreToolUse", "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                        + "\"permissionDecisionReason\":\"[warden] no\"}}"),
                Arguments.of("UserPromptSubmit", "{\"decision\":\"block\",\"reason\":\"[warden] no\"}"),
                Arguments.of("Stop", "{\"decision\":\"block\",\"reason\":\"[warden] no\"}"),
                Arguments.of("SubagentStop", "{\"decision\":\"block\",\"reason\":\"[warden] no\"}"),
                Arguments.of("PostToolUse", "{\"decision\":\"block\",\"reason\":\"[warden] no\"}"),
                Arguments.of("PermissionRequest", "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\","
                        + "\"decision\":{\"behavior\":\"deny\",\"message\":\"[warden] no\"}}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("blocks")
    void render_block_inTheEventsOwnChannel(String nativeEvent, String stdout) {
        assertThat(adapter.render(nativeEvent, Verdict.block("no"))).isEqualTo(new HostResponse(0, stdout, ""));
    }

    @Test
    void render_preToolUseBlockWithWarning_denyCarriesContext() {
        HostResponse r = adapter.render("PreToolUse", new Verdict(Kind.BLOCK, "no", "also: w"));

        assertThat(r.stdout()).isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                + "\"permissionDecisionReason\":\"[warden] no\",\"additionalContext\":\"also: w\"}}");
    }

    static Stream<Arguments> downgrades() {
        return Stream.of(
                Arguments.of("SessionStart", "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":"
                        + "\"policy would block this SessionStart, which the host cannot refuse: no\"}}"),
                Arguments.of("SubagentStart", "{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":"
                        + "\"policy would block this SubagentStart, which the host cannot refuse: no\"}}"),
                Arguments.of("PostToolUseFailure", "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUseFailure\",\"additionalContext\":"
                        + "\"policy would block this PostToolUseFailure, which the host cannot refuse: no\"}}"),
                Arguments.of("SessionEnd", "{\"systemMessage\":\"[warden] policy would block this SessionEnd, which the host cannot refuse: no\"}"),
                Arguments.of("PreCompact", "{\"systemMessage\":\"[warden] policy would block this PreCompact, which the host cannot refuse: no\"}"),
                Arguments.of("Notification", "{\"systemMessage\":\"[warden] policy would block this Notification, which the host cannot refuse: no\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("downgrades")
    void render_blockOnNonBlockableEvent_downgradedVisibly(String nativeEvent, String stdout) {
        HostResponse r = adapter.render(nativeEvent, Verdict.block("no"));

        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEqualTo(stdout);
        assertThat(r.stderr()).isEqualTo("warden: block downgraded to context on " + nativeEvent + " (not blockable)");
    }

    @Test
    void render_downgradedBlockWithWarning_bothInContext() {
        HostResponse r = adapter.render("SessionStart", new Verdict(Kind.BLOCK, "no", "w"));

        assertThat(Json.parseObject(r.stdout())).isEqualTo(Map.of("hookSpecificOutput", Map.of("hookEventName", "SessionStart",
                "additionalContext", "policy would block this SessionStart, which the host cannot refuse: no\nw")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PreToolUse", "Stop", "SessionStart", "SessionEnd", "PermissionRequest"})
    void render_longText_cappedBelowHostLimit(String nativeEvent) {
        String huge = "r".repeat(50_000);

        for (Verdict v : List.of(Verdict.block(huge), new Verdict(Kind.WARN, null, huge), new Verdict(Kind.HALT, huge, null))) {
            HostResponse r = adapter.render(nativeEvent, v);
            for (String text : strings(Json.parse(r.stdout()))) {
                assertThat(text.length()).as("%s %s", nativeEvent, v.kind()).isLessThanOrEqualTo(ClaudeAdapter.OUTPUT_CAP_CHARS);
            }
            assertThat(r.stdout()).contains(" […truncated by warden]");
        }
    }

    @Test
    void render_controlCharactersAndQuotes_escapedInOneLine() {
        HostResponse r = adapter.render("Stop", Verdict.block("line1\nline2\t\"quoted\" \\ \u0001 \u2028"));

        assertThat(r.stdout()).doesNotContain("\n").doesNotContain("\u2028");
        assertThat(Json.parseObject(r.stdout())).containsEntry("reason", "[warden] line1\nline2\t\"quoted\" \\ \u0001 \u2028");
    }

    @Test
    void cowork_rendersLikeClaude() {
        ClaudeAdapter cowork = new ClaudeAdapter("cowork");

        assertThat(cowork.id()).isEqualTo("cowork");
        assertThat(cowork.render("PreToolUse", Verdict.block("no"))).isEqualTo(adapter.render("PreToolUse", Verdict.block("no")));
    }

    // ---- normalize ----

    @Test
    void normalize_realSubagentPreToolUse_allFieldsRead() {
        String raw = "{\"session_id\":\"2a69a5cf\",\"cwd\":\"/home/dev/proj\",\"permission_mode\":\"default\","
                + "\"agent_id\":\"ad9cdb08fdd0f454a\",\"agent_type\":\"general-purpose\",\"effort\":{\"level\":\"high\"},"
                + "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo from-sub\"},"
                + "\"tool_use_id\":\"toolu_69\"}";
        Map<String, Object> payload = Json.parseObject(raw);

        HookEvent e = adapter.normalize("PreToolUse", EventName.PRE_TOOL_USE, payload, raw.getBytes(StandardCharsets.UTF_8), "/root");

        assertThat(adapter.nativeEventOf(payload)).isEqualTo("PreToolUse");
        assertThat(e.host()).isEqualTo("claude");
        assertThat(e.event()).isEqualTo(EventName.PRE_TOOL_USE);
        assertThat(e.nativeEvent()).isEqualTo("PreToolUse");
        assertThat(e.sessionId()).isEqualTo("2a69a5cf");
        assertThat(e.agentId()).isEqualTo("ad9cdb08fdd0f454a");
        assertThat(e.agentType()).isEqualTo("general-purpose");
        assertThat(e.toolName()).isEqualTo("Bash");
        assertThat(e.toolInput()).isEqualTo(Map.of("command", "echo from-sub"));
        assertThat(e.cwd()).isEqualTo("/home/dev/proj");
        assertThat(e.workspaceRoot()).isEqualTo("/root");
        assertThat(e.rawPayloadText()).isEqualTo(raw);
    }

    @Test
    void normalize_wrongTypesAndMissingFields_readAsAbsent() {
        String raw = "{\"session_id\":42,\"agent_id\":null,\"tool_name\":[\"Bash\"],\"hook_event_name\":7}";
        Map<String, Object> payload = Json.parseObject(raw);

        HookEvent e = adapter.normalize("Stop", EventName.STOP, payload, raw.getBytes(StandardCharsets.UTF_8), "/root");

        assertThat(adapter.nativeEventOf(payload)).isNull();
        assertThat(e.sessionId()).isEmpty();
        assertThat(e.agentId()).isNull();
        assertThat(e.toolName()).isNull();
        assertThat(e.toolInput()).isNull();
        assertThat(e.cwd()).isNull();
    }

    private static List<String> strings(Object json) {
        List<String> out = new java.util.ArrayList<>();
        if (json instanceof String s) {
            out.add(s);
        } else if (json instanceof Map<?, ?> m) {
            m.values().forEach(v -> out.addAll(strings(v)));
        } else if (json instanceof List<?> l) {
            l.forEach(v -> out.addAll(strings(v)));
        }
        return out;
    }

    /** An ask on PreToolUse is Claude's own confirmation prompt, with Warden's reason. */
    @Test
    void render_askOnPreToolUse_isPermissionDecisionAsk() {
        HostResponse r = adapter.render("PreToolUse", new Verdict(Kind.ASK, "pushes to main", "note"));
        assertThat(r.stdout()).isEqualTo("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                + "\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"[warden] pushes to main\","
                + "\"additionalContext\":\"note\"}}");
        assertThat(r.stderr()).isEmpty();
    }

    /** A permission request is already the host's question: an ask there is no opinion, said on stderr. */
    @Test
    void render_askOnPermissionRequest_leavesTheHostsPrompt() {
        HostResponse r = adapter.render("PermissionRequest", new Verdict(Kind.ASK, "confirm", null));
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("ask left to the host's own prompt on PermissionRequest: confirm");
    }

    /** Where the host cannot ask, an ask is refused as a block (the safe side), and says so. */
    @Test
    void render_askOnStop_isABlockAndSaysSo() {
        HostResponse r = adapter.render("Stop", new Verdict(Kind.ASK, "tests not run", null));
        assertThat(r.stdout()).isEqualTo("{\"decision\":\"block\",\"reason\":\"[warden] tests not run\"}");
        assertThat(r.stderr()).contains("ask rendered as a block on Stop");
    }

    /** What a concern reads, taken from Claude's payload keys by the adapter alone. */
    @Test
    void normalize_claudePayload_fillsEveryFieldConcernsRead() {
        Map<String, Object> pre = Json.parseObject("{\"session_id\":\"s\",\"cwd\":\"/p\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"git push\"},\"agent_id\":\"a1\",\"agent_type\":\"Explore\"}");
        HookEvent e = adapter.normalize("PreToolUse", EventName.PRE_TOOL_USE, pre, new byte[0], "/p");
        assertThat(e.shellCommand()).isEqualTo("git push");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.normalizedToolName()).isEqualTo("shell");
        assertThat(e.toolName()).isEqualTo("Bash");
        assertThat(e.agentId()).isEqualTo("a1");
        assertThat(e.agentType()).isEqualTo("Explore");
        assertThat(e.filePaths()).isEmpty();

        HookEvent edit = adapter.normalize("PreToolUse", EventName.PRE_TOOL_USE, Json.parseObject(
                "{\"tool_name\":\"NotebookEdit\",\"tool_input\":{\"notebook_path\":\"n.ipynb\"}}"), new byte[0], "/p");
        assertThat(edit.toolKind()).isEqualTo(ToolKind.FILE_EDIT);
        assertThat(edit.filePaths()).containsExactly("n.ipynb");
        assertThat(edit.shellCommand()).isNull();
        assertThat(adapter.normalize("PreToolUse", EventName.PRE_TOOL_USE, Json.parseObject(
                "{\"tool_name\":\"mcp__fs__read\",\"tool_input\":{}}"), new byte[0], "/p").toolKind()).isEqualTo(ToolKind.MCP);

        HookEvent stop = adapter.normalize("SubagentStop", EventName.SUBAGENT_STOP, Json.parseObject(
                "{\"stop_hook_active\":true,\"last_assistant_message\":\"done\",\"agentId\":\"c1\","
                        + "\"subagent_type\":\"Plan\",\"parentAgentId\":\"p1\"}"), new byte[0], "/p");
        assertThat(stop.stopHookActive()).isTrue();
        assertThat(stop.lastAssistantMessage()).isEqualTo("done");
        assertThat(stop.agentId()).as("camelCase spelling").isEqualTo("c1");
        assertThat(stop.agentType()).isEqualTo("Plan");
        assertThat(stop.parentAgentId()).isEqualTo("p1");
        assertThat(stop.toolKind()).isNull();

        HookEvent start = adapter.normalize("SessionStart", EventName.SESSION_START, Json.parseObject(
                "{\"source\":\"resume\",\"agent_id\":42}"), new byte[0], "/p");
        assertThat(start.sessionSource()).isEqualTo("resume");
        assertThat(start.agentId()).isNull();
        assertThat(start.agentIdMalformed()).isTrue();

        HookEvent prompt = adapter.normalize("UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, Json.parseObject(
                "{\"prompt\":\"hi\",\"source\":\"x\"}"), new byte[0], "/p");
        assertThat(prompt.prompt()).isEqualTo("hi");
        assertThat(prompt.sessionSource()).as("source is a session-start field").isNull();
    }
}
