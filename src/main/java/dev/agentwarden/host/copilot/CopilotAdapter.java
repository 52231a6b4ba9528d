package dev.agentwarden.host.copilot;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolInputs;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.verdict.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GitHub Copilot CLI's command-hook protocol, as 1.0.102 behaves (hosts.md, "Copilot CLI 1.0.102,
 * measured"; payloads in {@code testdata/hosts/copilot-cli-1.0.102/}).
 *
 * <p>Two payload formats. A camelCase event name ({@code preToolUse}) gets the native format:
 * {@code sessionId}, millisecond {@code timestamp}, {@code toolName}, {@code toolArgs} (an object in
 * 1.0.102, a JSON string in the docs: both are read), {@code agentId}, {@code parentAgentId}. A
 * PascalCase name ({@code PreToolUse}) selects the VS Code format: snake_case keys, Claude's tool
 * names ({@code Bash}, {@code Agent}), with SubagentStart and PermissionRequest still partly
 * camelCase. Normalization reads either spelling of every key, whatever the format.
 *
 * <p>Output. Warden's "no opinion" is exit 0 with nothing on stdout on every event, since exit 1 on
 * preToolUse is a fail-closed deny in Copilot and a timeout or garbage stdout fails open. Every
 * answer is exit 0; a refusal is JSON in the event's channel ({@link Channel}), with the reason
 * prefixed {@code [warden] }. What Copilot cannot do on an event is data ({@link #capability}) and
 * each downgrade says so on stderr:
 * <ul>
 *   <li>preToolUse ignores {@code continue:false} and {@code decision:"block"} (the tool runs), so a
 *       halt there is a deny;</li>
 *   <li>permissionRequest denies with {@code {"behavior":"deny","message":…}}; a halt adds
 *       {@code interrupt: true}, which ends the turn; an ask is left to Copilot's own prompt;</li>
 *   <li>userPromptSubmitted and agentStop (and subagentStop, as documented) block with
 *       {@code decision:"block"}; a halt on a prompt is its block (no model call), a halt on a stop
 *       is no opinion (the agent is stopping already);</li>
 *   <li>{@code additionalContext} reaches the model on sessionStart, userPromptSubmitted,
 *       preToolUse, postToolUse and subagentStart; a block on the first, fourth and fifth (which
 *       cannot be refused) is downgraded to context there;</li>
 *   <li>an ask on preToolUse is {@code permissionDecision:"ask"} (in {@code -p} mode Copilot treats
 *       it as a deny); elsewhere an ask is a block;</li>
 *   <li>every other event has no channel Copilot reads: a verdict there is a stderr note.</li>
 * </ul>
 */
final class CopilotAdapter implements HostAdapter {

    /** Longest string Warden writes into an output field. */
    public static final int OUTPUT_CAP_CHARS = 10_000;

    private static final String PREFIX = "[warden] ";

    /** How a refusal is written on an event. */
    enum Channel { PERMISSION_DECISION, PERMISSION_REQUEST, DECISION_BLOCK, NONE }

    /**
     * One native event's row of the capability table.
     *
     * @param refusal     how a block is written, {@link Channel#NONE} when Copilot cannot refuse
     * @param context     {@code additionalContext} reaches the model
     * @param ask         {@code permissionDecision:"ask"} is read
     * @param askDefers   no opinion leaves the question to Copilot's own prompt
     * @param haltIsBlock a halt is this event's block ({@code continue:false} is ignored or absent)
     */
    record Row(Channel refusal, boolean context, boolean ask, boolean askDefers, boolean haltIsBlock) {
    }

    private static final Row PRE_TOOL = new Row(Channel.PERMISSION_DECISION, true, true, false, true);
    private static final Row PERMISSION = new Row(Channel.PERMISSION_REQUEST, false, false, true, true);
    private static final Row PROMPT = new Row(Channel.DECISION_BLOCK, true, false, false, true);
    private static final Row STOP = new Row(Channel.DECISION_BLOCK, false, false, false, false);
    private static final Row CONTEXT_ONLY = new Row(Channel.NONE, true, false, false, false);
    private static final Row SILENT = new Row(Channel.NONE, false, false, false, false);

    /** The capability table, both formats' event names. */
    static final Map<String, Row> TABLE = table(
            "preToolUse", PRE_TOOL, "PreToolUse", PRE_TOOL,
            "permissionRequest", PERMISSION, "PermissionRequest", PERMISSION,
            "userPromptSubmitted", PROMPT, "UserPromptSubmit", PROMPT,
            "agentStop", STOP, "Stop", STOP,
            "subagentStop", STOP, "SubagentStop", STOP,
            "sessionStart", CONTEXT_ONLY, "SessionStart", CONTEXT_ONLY,
            "postToolUse", CONTEXT_ONLY, "PostToolUse", CONTEXT_ONLY,
            "subagentStart", CONTEXT_ONLY, "SubagentStart", CONTEXT_ONLY);

    @Override
    public String id() {
        return "copilot";
    }

    /** The VS Code format's {@code hook_event_name}, else permissionRequest's {@code hookName}; camelCase payloads name none. */
    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        if (payload.get("hook_event_name") instanceof String s && !s.isEmpty()) {
            return s;
        }
        return payload.get("hookName") instanceof String s && !s.isEmpty() ? s : null;
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        String toolName = string(payload, "toolName", "tool_name");
        ToolKind kind = CopilotHost.TOOLS.kindOf(toolName);
        Object toolInput = toolInput(payload);
        Object agent = first(payload, "agentId", "agent_id");
        String agentId = agent instanceof String s && !s.isEmpty() ? s : null;
        String session = string(payload, "sessionId", "session_id");
        String prompt = event == EventName.USER_PROMPT_TRANSFORMED
                ? string(payload, "transformedPrompt", "transformed_prompt") : null;
        if (prompt == null) {
            prompt = string(payload, "prompt", "prompt");
        }
        return new HookEvent("copilot", event, nativeEvent, session == null ? "" : session,
                event == EventName.SESSION_START ? string(payload, "source", "source") : null,
                agentId, agent != null && !(agent instanceof String),
                string(payload, "agentType", "agent_type"), string(payload, "parentAgentId", "parent_agent_id"),
                toolName, kind, toolInput, ToolInputs.command(toolInput), filePathsOf(toolInput), prompt,
                lastMessage(payload), Boolean.TRUE.equals(payload.get("stop_hook_active")),
                string(payload, "cwd", "cwd"), string(payload, "transcriptPath", "transcript_path"), workspaceRoot,
                payload, raw);
    }

    /**
     * A tool's input: {@code toolArgs} (an object, or the JSON string the docs describe, parsed; a
     * string that is not JSON stays a string), else permissionRequest's {@code toolInput}, else the
     * VS Code format's {@code tool_input}.
     */
    static Object toolInput(Map<String, Object> payload) {
        Object args = first(payload, "toolArgs", "toolInput");
        if (args == null) {
            args = payload.get("tool_input");
        }
        if (args instanceof String s) {
            try {
                return Json.parse(s, JsonLimits.LENIENT);
            } catch (JsonException e) {
                return s;
            }
        }
        return args;
    }

    /** The subagent's final message: {@code response} (camelCase subagentStop) or {@code last_assistant_message}. */
    private static String lastMessage(Map<String, Object> payload) {
        String own = string(payload, "last_assistant_message", "lastAssistantMessage");
        return own != null ? own : string(payload, "response", "response");
    }

    /**
     * The files a tool input names: Copilot's {@code path} ({@code view}, {@code create}, {@code edit}),
     * or a {@code file_path}, and those of a patch envelope ({@code apply_patch}).
     */
    private static List<String> filePathsOf(Object toolInput) {
        return ToolInputs.filePaths(toolInput, "path", "file_path");
    }

    @Override
    public Capability capability(String nativeEvent) {
        Row row = row(nativeEvent);
        return new Capability(row.refusal() != Channel.NONE, row.context(), row.ask());
    }

    private static Row row(String nativeEvent) {
        Row row = nativeEvent == null ? null : TABLE.get(nativeEvent);
        return row == null ? SILENT : row;
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        Row row = row(nativeEvent);
        switch (verdict.kind()) {
            case HALT:
                if (row.haltIsBlock()) {
                    return refuse(nativeEvent, row, verdict.reason(), true)
                            .withStderr("warden: halt rendered as a refusal on " + nativeEvent
                                    + " (Copilot has no continue:false there)");
                }
                if (row.refusal() == Channel.DECISION_BLOCK) {
                    return HostResponse.SILENT.withStderr("warden: halt on " + nativeEvent
                            + " needs nothing from Copilot (the agent is stopping): " + verdict.reason());
                }
                return downgrade(nativeEvent, row, verdict, "halt");
            case BLOCK:
                if (row.refusal() == Channel.NONE) {
                    return downgrade(nativeEvent, row, verdict, "block");
                }
                return refuse(nativeEvent, row, verdict.reason(), false);
            case ASK:
                if (row.ask()) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("permissionDecision", "ask");
                    out.put("permissionDecisionReason", cap(PREFIX + verdict.reason()));
                    return json(out);
                }
                if (row.askDefers()) {
                    return HostResponse.SILENT.withStderr("warden: ask left to Copilot's own prompt on " + nativeEvent
                            + ": " + verdict.reason());
                }
                if (row.refusal() == Channel.NONE) {
                    return downgrade(nativeEvent, row, verdict, "ask");
                }
                return refuse(nativeEvent, row, verdict.reason(), false)
                        .withStderr("warden: ask rendered as a block on " + nativeEvent + " (Copilot cannot ask there)");
            case WARN:
            case ALLOW:
            default:
                if (verdict.context() == null) {
                    return HostResponse.SILENT;
                }
                if (!row.context()) {
                    return HostResponse.SILENT.withStderr("warden: context not delivered on " + nativeEvent
                            + " (Copilot reads no context there): " + verdict.context());
                }
                return context(verdict.context());
        }
    }

    /** A refusal in the event's channel; a halting refusal of a permission request also ends the turn. */
    private static HostResponse refuse(String nativeEvent, Row row, String why, boolean halt) {
        String reason = cap(PREFIX + (why == null ? Verdict.DEFAULT_BLOCK_REASON : why));
        Map<String, Object> out = new LinkedHashMap<>();
        switch (row.refusal()) {
            case PERMISSION_DECISION:
                out.put("permissionDecision", "deny");
                out.put("permissionDecisionReason", reason);
                break;
            case PERMISSION_REQUEST:
                out.put("behavior", "deny");
                out.put("message", reason);
                if (halt) {
                    out.put("interrupt", Boolean.TRUE);
                }
                break;
            case DECISION_BLOCK:
                out.put("decision", "block");
                out.put("reason", reason);
                break;
            default:
                throw new IllegalArgumentException(nativeEvent + " has no refusal channel");
        }
        return json(out);
    }

    /** A refusal or question Copilot cannot put on this event: context for the model where it reaches one, else a note. */
    private static HostResponse downgrade(String nativeEvent, Row row, Verdict verdict, String kind) {
        String text = "policy would " + kind + " this " + nativeEvent + ", which Copilot cannot refuse: " + verdict.reason();
        if (!row.context()) {
            return HostResponse.SILENT.withStderr("warden: " + kind + " not delivered on " + nativeEvent
                    + " (Copilot reads no output there): " + verdict.reason());
        }
        return context(verdict.context() == null ? text : text + "\n" + verdict.context())
                .withStderr("warden: " + kind + " downgraded to context on " + nativeEvent + " (not refusable)");
    }

    private static HostResponse context(String text) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("additionalContext", cap(text));
        return json(out);
    }

    private static HostResponse json(Map<String, Object> out) {
        return new HostResponse(0, Json.write(out), "");
    }

    private static String cap(String s) {
        return HostResponse.capped(s, OUTPUT_CAP_CHARS);
    }

    private static Object first(Map<String, Object> payload, String key, String alternative) {
        Object v = payload.get(key);
        return v != null ? v : payload.get(alternative);
    }

    /** The first of the two keys present, if its value is a string; else {@code null}. */
    private static String string(Map<String, Object> payload, String camel, String snake) {
        Object v = first(payload, camel, snake);
        return v instanceof String s ? s : null;
    }

    private static Map<String, Row> table(Object... pairs) {
        Map<String, Row> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            out.put((String) pairs[i], (Row) pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }
}
