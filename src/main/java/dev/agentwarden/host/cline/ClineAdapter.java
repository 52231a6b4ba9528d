package dev.agentwarden.host.cline;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolInputs;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Cline's hook-file protocol, as Cline 3.0.65 runs it ({@code @cline/core}: the
 * {@code core.hook_config_files} plugin; captures in {@code testdata/hosts/cline-3.0.65/}).
 *
 * <p>Cline writes one JSON object to the hook's stdin: {@code taskId}, {@code sessionContext.rootSessionId}
 * (shared by a task and its subagents), {@code workspaceRoots}, {@code agent_id},
 * {@code parent_agent_id} (set inside a subagent), {@code hookName} (its own name for the event:
 * {@code tool_call} for PreToolUse) and one object per event ({@code preToolUse{toolName,
 * parameters}} with every parameter as a string, beside {@code tool_call{id, name, input}} with the
 * input as sent). It reads the hook's stdout as one JSON object {@code {cancel, errorMessage,
 * contextModification, overrideInput}} and ignores the exit code; empty output, unparsable output
 * and a timeout (120 s) all let the action proceed.
 *
 * <ul>
 *   <li>Only PreToolUse and PostToolUse are waited for. Every other event (TaskStart, TaskResume,
 *       UserPromptSubmit, TaskComplete, TaskCancel, TaskError, SessionShutdown) runs detached with
 *       its output discarded: a verdict there is a stderr note and the decision log's record.
 *       PreCompact has no internal event in 3.0.65, so Cline never runs that file.</li>
 *   <li>Inside a {@code spawn_agent} subagent the same files run with the child's {@code agent_id}
 *       and {@code parent_agent_id}: its start and the end of its run are {@link #SUBAGENT_START}
 *       and {@link #SUBAGENT_STOP} ({@link #refinedNativeEvent}).</li>
 *   <li>{@code cancel: true} stops the whole task (the run ends {@code aborted}); the tool does not
 *       run, and the model never hears why ({@code errorMessage} becomes the task's error). There is
 *       no per-tool deny: a block, a halt and an ask (Cline cannot ask) are all a cancel, and each
 *       says so on stderr.</li>
 *   <li>{@code contextModification} reaches the model as a {@code <hook_context source="PreToolUse">}
 *       user message before its next turn; Cline drops it when {@code cancel} is true, and clips it
 *       at 50,000 characters.</li>
 * </ul>
 */
public final class ClineAdapter implements HostAdapter {

    /** Cline clips hook context above this many characters. */
    public static final int OUTPUT_CAP_CHARS = 50_000;

    /** Cline 3.0.65's built-in tool names by kind (MCP tools carry their server's own names). */
    public static final ToolNames TOOLS = new ToolNames(Set.of("run_commands"), Set.of("spawn_agent"),
            Set.of("editor", "apply_patch"), Set.of("read_files"), null);

    /** A subagent's TaskStart (or TaskResume): the file Cline runs for every agent's start, inside a subagent. */
    public static final String SUBAGENT_START = "SubagentStart";

    /** A subagent's TaskComplete, TaskError or SessionShutdown: exactly one of them ends each agent's run. */
    public static final String SUBAGENT_STOP = "SubagentStop";

    /** The events whose output Cline reads. */
    public static final Set<String> WAITED_FOR = Set.of("PreToolUse", "PostToolUse");

    private static final String PREFIX = "[warden] ";

    @Override
    public String id() {
        return "cline";
    }

    /** The hook file's event from Cline's own {@code hookName}, or {@code null}. */
    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        Object name = payload.get("hookName");
        if (!(name instanceof String s)) {
            return null;
        }
        switch (s) {
            case "agent_start":
                return "TaskStart";
            case "agent_resume":
                return "TaskResume";
            case "agent_abort":
                return "TaskCancel";
            case "agent_end":
                return "TaskComplete";
            case "agent_error":
                return "TaskError";
            case "tool_call":
                return "PreToolUse";
            case "tool_result":
                return "PostToolUse";
            case "prompt_submit":
                return "UserPromptSubmit";
            case "session_shutdown":
                return "SessionShutdown";
            default:
                return null;
        }
    }

    /**
     * Cline runs the same hook files for the main agent and for each subagent ({@code spawn_agent}
     * runs a delegated agent with the parent's hooks); inside a subagent ({@code parent_agent_id}
     * set) its start is {@link #SUBAGENT_START} and the event that ends its run (TaskComplete when it
     * completed, TaskError when it failed, SessionShutdown when it was aborted) {@link #SUBAGENT_STOP}.
     * TaskCancel is not a stop of its own: Cline sends SessionShutdown after it on every abort.
     */
    @Override
    public String refinedNativeEvent(String nativeEvent, Map<String, Object> payload) {
        if (nativeEvent == null || !(payload.get("parent_agent_id") instanceof String p) || p.isEmpty()) {
            return nativeEvent;
        }
        switch (nativeEvent) {
            case "TaskStart":
            case "TaskResume":
                return SUBAGENT_START;
            case "TaskComplete":
            case "TaskError":
            case "SessionShutdown":
                return SUBAGENT_STOP;
            default:
                return nativeEvent;
        }
    }

    /**
     * The session is the root task's ({@code sessionContext.rootSessionId}, shared by subagents);
     * the agent id is set only inside a subagent (an event with a {@code parent_agent_id}), as a
     * Claude subagent's events carry one and the main agent's do not. Cline fires a start for every
     * subagent, its own children's included, so a parent the ledger has no open record of is the
     * main agent ({@link HookEvent#unopenedParentIsMain}); no child payload says so otherwise, since
     * the main agent has an {@code agent_id} of its own that is not the session's.
     */
    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        String session = str(map(payload.get("sessionContext")), "rootSessionId");
        if (session == null || session.isEmpty()) {
            session = str(payload, "taskId");
        }
        String parent = str(payload, "parent_agent_id");
        if (parent != null && parent.isEmpty()) {
            parent = null;
        }
        Object agent = parent == null ? null : payload.get("agent_id");
        String agentId = agent instanceof String s && !s.isEmpty() ? s : null;

        Map<String, Object> call = map(payload.get("tool_call"));
        if (call.isEmpty()) {
            call = map(payload.get("tool_result"));
        }
        Map<String, Object> named = map(payload.get("preToolUse"));
        if (named.isEmpty()) {
            named = map(payload.get("postToolUse"));
        }
        String toolName = str(call, "name");
        if (toolName == null) {
            toolName = str(named, "toolName");
        }
        Object toolInput = call.containsKey("input") ? call.get("input") : named.get("parameters");
        ToolKind kind = TOOLS.kindOf(toolName);
        String source = null;
        if (event == EventName.SESSION_START) {
            source = "TaskResume".equals(nativeEvent) ? "resume" : "startup";
        }
        List<?> roots = payload.get("workspaceRoots") instanceof List<?> l ? l : List.of();
        String cwd = !roots.isEmpty() && roots.get(0) instanceof String s ? s : null;
        return new HookEvent("cline", event, nativeEvent, session == null ? "" : session, source,
                agentId, agent != null && !(agent instanceof String), null, parent, true,
                toolName, kind, toolInput, kind == ToolKind.SHELL ? commandOf(toolInput) : null, filePathsOf(toolInput),
                str(map(payload.get("userPromptSubmit")), "prompt"), str(map(payload.get("turn")), "outputText"),
                false, cwd, null, workspaceRoot, payload, raw);
    }

    /**
     * What {@code run_commands} runs: its {@code commands}, one per line (Cline runs them in turn),
     * whether given as a list, as one string, or as the JSON text of a list ({@code preToolUse.parameters}).
     */
    static String commandOf(Object toolInput) {
        Object commands = map(toolInput).get("commands");
        if (commands instanceof String s && s.startsWith("[")) {
            try {
                commands = Json.parse(s);
            } catch (RuntimeException notJson) {
                return s;
            }
        }
        if (commands instanceof String s) {
            return s;
        }
        if (!(commands instanceof List<?> list)) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < list.size(); i++) {
            Object c = list.get(i);
            String line = c instanceof String s ? s : str(map(c), "command");
            if (line != null) {
                out.append(out.length() == 0 ? "" : "\n").append(line);
            }
        }
        return out.length() == 0 ? null : out.toString();
    }

    /**
     * The files a tool input names: {@code editor}'s {@code path}, {@code read_files}' paths, and
     * those of the patch envelope {@code apply_patch} takes as {@code input}.
     */
    static List<String> filePathsOf(Object toolInput) {
        Map<String, Object> input = map(toolInput);
        List<String> out = new ArrayList<>(2);
        if (input.get("path") instanceof String p) {
            out.add(p);
        }
        for (String key : new String[] {"files", "paths", "file_paths"}) {
            if (input.get(key) instanceof List<?> list) {
                for (int i = 0; i < list.size(); i++) {
                    Object f = list.get(i);
                    String p = f instanceof String s ? s : str(map(f), "path");
                    if (p != null) {
                        out.add(p);
                    }
                }
            }
        }
        ToolInputs.addPatchPaths(toolInput, out);
        return out;
    }

    /** A block on PreToolUse and PostToolUse is a cancel of the whole task; Cline asks nothing of a hook. */
    @Override
    public Capability capability(String nativeEvent) {
        boolean waited = WAITED_FOR.contains(nativeEvent);
        return new Capability(waited, waited, false);
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        if (!WAITED_FOR.contains(nativeEvent)) {
            return verdict.kind() == Verdict.Kind.ALLOW && verdict.context() == null ? HostResponse.SILENT
                    : HostResponse.SILENT.withStderr("warden: " + verdict.kind().name().toLowerCase(Locale.ROOT)
                    + " not delivered on " + nativeEvent + " (Cline runs it detached and reads no output): "
                    + (verdict.reason() != null ? verdict.reason() : verdict.context()));
        }
        switch (verdict.kind()) {
            case HALT:
            case BLOCK:
            case ASK:
                return cancel(nativeEvent, verdict);
            case WARN:
            case ALLOW:
            default:
                if (verdict.context() == null) {
                    return HostResponse.SILENT;
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("contextModification", cap(verdict.context()));
                return new HostResponse(0, Json.write(out), "");
        }
    }

    /** {@code {"cancel":true,"errorMessage":…}}: the task ends; the stderr note says so, and how it differs. */
    private static HostResponse cancel(String nativeEvent, Verdict verdict) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cancel", Boolean.TRUE);
        out.put("errorMessage", cap(PREFIX + verdict.reason()));
        String what = verdict.kind() == Verdict.Kind.ASK ? "ask rendered as a cancel (Cline cannot ask)"
                : verdict.kind().name().toLowerCase(Locale.ROOT) + " rendered as a cancel";
        String after = "PostToolUse".equals(nativeEvent) ? " (the tool already ran)" : " (the tool does not run)";
        return new HostResponse(0, Json.write(out), "").withStderr("warden: " + what + " on " + nativeEvent
                + ": Cline has no per-tool deny, so the whole task ends" + after + " and the model is not told why");
    }

    private static String cap(String s) {
        return HostResponse.capped(s, OUTPUT_CAP_CHARS);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static String str(Map<String, Object> m, String key) {
        return m.get(key) instanceof String s ? s : null;
    }
}
