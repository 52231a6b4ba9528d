package dev.agentwarden.host.cline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter.Capability;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.verdict.Verdict.Kind;
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
 * Cline's hook-file protocol as {@link ClineAdapter} reads and renders it: the output keys Cline
 * 3.0.65 parses ({@code cancel}, {@code errorMessage}, {@code contextModification},
 * {@code overrideInput}, {@code context}, {@code review}), the events it waits for, and every
 * downgrade of a verdict Cline cannot express.
 */
class ClineAdapterTest {
    private final ClineAdapter adapter = new ClineAdapter();

    /** What Cline's hook-output schema accepts; anything else is passed through and ignored. */
    private static final Set<String> OUTPUT_KEYS = Set.of("cancel", "errorMessage", "contextModification",
            "overrideInput", "context", "review");

    static Stream<Arguments> capabilities() {
        return Stream.of(
                Arguments.of("PreToolUse", true, true),
                Arguments.of("PostToolUse", true, true),
                Arguments.of("UserPromptSubmit", false, false),
                Arguments.of("TaskStart", false, false),
                Arguments.of("TaskResume", false, false),
                Arguments.of("TaskComplete", false, false),
                Arguments.of("TaskCancel", false, false),
                Arguments.of("TaskError", false, false),
                Arguments.of("PreCompact", false, false),
                Arguments.of("SessionShutdown", false, false),
                Arguments.of("SubagentStart", false, false),
                Arguments.of("SubagentStop", false, false));
    }

    static Stream<Arguments> refinements() {
        return Stream.of(
                Arguments.of("TaskStart", "agent_p", "SubagentStart"),
                Arguments.of("TaskResume", "agent_p", "SubagentStart"),
                Arguments.of("TaskComplete", "agent_p", "SubagentStop"),
                Arguments.of("TaskError", "agent_p", "SubagentStop"),
                Arguments.of("SessionShutdown", "agent_p", "SubagentStop"),
                Arguments.of("TaskCancel", "agent_p", "TaskCancel"),
                Arguments.of("PreToolUse", "agent_p", "PreToolUse"),
                Arguments.of("TaskStart", null, "TaskStart"),
                Arguments.of("TaskComplete", "", "TaskComplete"));
    }

    /** The same files run inside a subagent: there its start and the end of its run are the ledger's events. */
    @ParameterizedTest(name = "{0} parent={1}")
    @MethodSource("refinements")
    void refinedNativeEvent_insideASubagent_isItsStartOrStop(String file, String parent, String expected) {
        Map<String, Object> payload = new java.util.HashMap<>();
        payload.put("parent_agent_id", parent);
        assertThat(adapter.refinedNativeEvent(file, payload)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capabilities")
    void capability_isClinesTable_noEventCanAsk(String event, boolean canBlock, boolean hasContext) {
        assertThat(adapter.capability(event)).isEqualTo(new Capability(canBlock, hasContext, false));
    }

    static Stream<Arguments> verdicts() {
        return Stream.of(
                Arguments.of(Kind.BLOCK, "block rendered as a cancel"),
                Arguments.of(Kind.HALT, "halt rendered as a cancel"),
                Arguments.of(Kind.ASK, "ask rendered as a cancel (Cline cannot ask)"));
    }

    /** Cline has no per-tool deny: every refusal is a cancel of the task, and says so. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("verdicts")
    void render_preToolUseRefusal_isACancelOfTheTask_withTheReasonInErrorMessage(Kind kind, String note) {
        HostResponse r = adapter.render("PreToolUse", new Verdict(kind, "no", "ignored context"));
        assertThat(r.exitCode()).isZero();
        assertThat(Json.parseObject(r.stdout())).containsExactly(Map.entry("cancel", true),
                Map.entry("errorMessage", "[warden] no"));
        assertThat(r.stderr()).contains(note).contains("the whole task ends (the tool does not run)")
                .contains("the model is not told why");
        assertThat(Json.parseObject(r.stdout()).keySet()).isSubsetOf(OUTPUT_KEYS);
    }

    @Test
    void render_postToolUseBlock_isACancel_afterTheToolRan() {
        HostResponse r = adapter.render("PostToolUse", Verdict.block("bad result"));
        assertThat(Json.parseObject(r.stdout())).containsEntry("cancel", true).containsEntry("errorMessage", "[warden] bad result");
        assertThat(r.stderr()).contains("(the tool already ran)");
    }

    @Test
    void render_warnOnPreToolUse_isContextModification() {
        HostResponse r = adapter.render("PreToolUse", new Verdict(Kind.WARN, null, "careful"));
        assertThat(r.stdout()).isEqualTo("{\"contextModification\":\"careful\"}");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void render_noOpinion_isNoOutput_neverAnExplicitCancelFalse() {
        for (String event : List.of("PreToolUse", "PostToolUse", "TaskStart", "SessionShutdown")) {
            assertThat(adapter.render(event, Verdict.NO_OPINION)).isEqualTo(HostResponse.SILENT);
        }
    }

    /** Cline runs every event but PreToolUse and PostToolUse detached and reads no output: a verdict there is a note. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("detached")
    void render_onADetachedEvent_isNoOutputAndAStderrNote(String event) {
        HostResponse block = adapter.render(event, Verdict.block("stop it"));
        assertThat(block.stdout()).isEmpty();
        assertThat(block.stderr()).isEqualTo("warden: block not delivered on " + event
                + " (Cline runs it detached and reads no output): stop it");
        HostResponse context = adapter.render(event, new Verdict(Kind.WARN, null, "fyi"));
        assertThat(context.stdout()).isEmpty();
        assertThat(context.stderr()).contains("warn not delivered on " + event).endsWith(": fyi");
    }

    static Stream<String> detached() {
        return Stream.of("TaskStart", "TaskResume", "UserPromptSubmit", "TaskComplete", "TaskCancel", "TaskError",
                "PreCompact", "SessionShutdown");
    }

    @Test
    void render_contextOverClinesCap_isClippedByWarden_notByCline() {
        HostResponse r = adapter.render("PostToolUse", new Verdict(Kind.WARN, null, "x".repeat(60_000)));
        String context = (String) Json.parseObject(r.stdout()).get("contextModification");
        assertThat(context).hasSize(ClineAdapter.OUTPUT_CAP_CHARS).endsWith("[…truncated by warden]");
    }

    @Test
    void nativeEventOf_readsClinesHookName() {
        assertThat(adapter.nativeEventOf(Map.of("hookName", "tool_call"))).isEqualTo("PreToolUse");
        assertThat(adapter.nativeEventOf(Map.of("hookName", "tool_result"))).isEqualTo("PostToolUse");
        assertThat(adapter.nativeEventOf(Map.of("hookName", "agent_start"))).isEqualTo("TaskStart");
        assertThat(adapter.nativeEventOf(Map.of("hookName", "agent_end"))).isEqualTo("TaskComplete");
        assertThat(adapter.nativeEventOf(Map.of("hookName", "session_shutdown"))).isEqualTo("SessionShutdown");
        assertThat(adapter.nativeEventOf(Map.of("hookName", "something_new"))).isNull();
        assertThat(adapter.nativeEventOf(Map.of())).isNull();
    }

    /** Captured: a subagent's run_commands call carries parent_agent_id; its commands come as a list and as JSON text. */
    @Test
    void normalize_subagentRunCommands_fromCapture() throws IOException {
        HookEvent e = normalize("agent-04-PreToolUse.json", "PreToolUse", EventName.PRE_TOOL_USE);
        assertThat(e.host()).isEqualTo("cline");
        assertThat(e.sessionId()).isEqualTo("1796109906551_th7qx");
        assertThat(e.agentId()).isEqualTo("agent_1796109907142_y9qpkv");
        assertThat(e.parentAgentId()).isEqualTo("agent_1796109906728_9a1v7s");
        assertThat(e.toolName()).isEqualTo("run_commands");
        assertThat(e.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(e.shellCommand()).isEqualTo("echo from-sub");
        assertThat(e.cwd()).isEqualTo("/home/dev/proj");
    }

    @Test
    void normalize_mainAgent_hasNoAgentId_spawnAgentIsSubagentDispatch() throws IOException {
        HookEvent e = normalize("agent-02-PreToolUse.json", "PreToolUse", EventName.PRE_TOOL_USE);
        assertThat(e.agentId()).isNull();
        assertThat(e.parentAgentId()).isNull();
        assertThat(e.toolKind()).isEqualTo(ToolKind.SUBAGENT_DISPATCH);
        assertThat(e.shellCommand()).isNull();
    }

    @Test
    void normalize_taskComplete_lastMessage_andTaskStartSource() throws IOException {
        assertThat(normalize("agent-08-TaskComplete.json", "TaskComplete", EventName.SESSION_END).lastAssistantMessage())
                .isEqualTo("FINAL: all done");
        assertThat(normalize("allow-01-TaskStart.json", "TaskStart", EventName.SESSION_START).sessionSource())
                .isEqualTo("startup");
    }

    @Test
    void commandOf_runCommandsFromParametersText_joinsEachCommandOnItsOwnLine() {
        assertThat(ClineAdapter.commandOf(Map.of("commands", "[\"echo a\",\"git commit -n\"]"))).isEqualTo("echo a\ngit commit -n");
        assertThat(ClineAdapter.commandOf(Map.of("commands", List.of("echo a", "echo b")))).isEqualTo("echo a\necho b");
        assertThat(ClineAdapter.commandOf(Map.of("commands", "echo plain"))).isEqualTo("echo plain");
        assertThat(ClineAdapter.commandOf(Map.of("commands", "[not json"))).isEqualTo("[not json");
        assertThat(ClineAdapter.commandOf("not a map")).isNull();
    }

    @Test
    void filePathsOf_editorPath_andReadFilesEntries() {
        assertThat(ClineAdapter.filePathsOf(Map.of("path", "/p/a.txt"))).containsExactly("/p/a.txt");
        assertThat(ClineAdapter.filePathsOf(Map.of("files", List.of(Map.of("path", "/p/b"), "/p/c")))).containsExactly("/p/b", "/p/c");
    }

    private HookEvent normalize(String capture, String nativeEvent, EventName event) throws IOException {
        byte[] raw = Files.readAllBytes(Path.of("src/test/resources/hosts/cline-3.0.65", capture));
        return adapter.normalize(nativeEvent, event, Json.parseObject(new String(raw, StandardCharsets.UTF_8)), raw, "/home/dev/proj");
    }
}
