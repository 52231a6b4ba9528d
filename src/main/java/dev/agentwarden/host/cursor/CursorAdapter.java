package dev.agentwarden.host.cursor;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cursor's hook protocol, from Cursor's documentation only (no Cursor binary runs here).
 *
 * <p>Input is snake_case with {@code hook_event_name} and {@code conversation_id}. Output is one
 * JSON object at exit 0, or nothing for no opinion (never {@code permission: "allow"}, which would
 * skip Cursor's own approval). A block is rendered in its event's channel:
 * {@code permission: "deny"} with {@code user_message} and {@code agent_message} on the permission
 * events ({@code beforeReadFile} takes the permission alone), {@code continue: false} with
 * {@code user_message} on {@code beforeSubmitPrompt}, and {@code followup_message} on {@code stop}
 * and {@code subagentStop} (the agent goes on with Warden's reason). An ask is
 * {@code permission: "ask"} where the docs list it, else a block. Context reaches the model only as
 * {@code additional_context} on {@code sessionStart} and {@code postToolUse}. A halt is a block:
 * Cursor has no way for a hook to end the session. Every downgrade says so on stderr.
 */
final class CursorAdapter implements HostAdapter {
    /** Cursor's tool names by kind ({@code MCP:<server>:<tool>} for MCP tools). */
    public static final ToolNames TOOLS = new ToolNames(Set.of("Shell"), Set.of("Task"),
            Set.of("Write", "Edit", "StrReplace", "Delete"), Set.of("Read"), "MCP:");

    private static final String PREFIX = "[warden] ";

    /** Events answered with {@code permission}; the first four take {@code user_message}/{@code agent_message}. */
    static final Set<String> PERMISSION = Set.of("preToolUse", "beforeShellExecution", "beforeMCPExecution",
            "subagentStart", "beforeReadFile");
    /** Events whose {@code permission} may be {@code "ask"}. */
    static final Set<String> ASK = Set.of("beforeShellExecution", "beforeMCPExecution");
    /** Events refused by a {@code followup_message} that keeps the agent going. */
    static final Set<String> FOLLOWUP = Set.of("stop", "subagentStop");
    /** Events whose {@code additional_context} reaches the model. */
    static final Set<String> CONTEXT = Set.of("sessionStart", "postToolUse");

    @Override
    public String id() {
        return "cursor";
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return payload.get("hook_event_name") instanceof String s ? s : null;
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        String toolName;
        Object toolInput;
        String command = null;
        List<String> files = new ArrayList<>(1);
        String ne = nativeEvent == null ? "" : nativeEvent;
        switch (ne) {
            case "beforeShellExecution":
            case "afterShellExecution": {
                toolName = "Shell";
                Map<String, Object> input = new LinkedHashMap<>();
                input.put("command", payload.get("command"));
                input.put("cwd", payload.get("cwd"));
                toolInput = input;
                command = str(payload, "command");
                break;
            }
            case "beforeReadFile":
            case "afterFileEdit": {
                toolName = ne.equals("beforeReadFile") ? "Read" : "Write";
                Map<String, Object> input = new LinkedHashMap<>();
                input.put("file_path", payload.get("file_path"));
                toolInput = input;
                break;
            }
            default:
                toolName = str(payload, "tool_name");
                toolInput = payload.get("tool_input");
                if (toolInput instanceof Map<?, ?> map && map.get("command") instanceof String c) {
                    command = c;
                }
                break;
        }
        if (payload.get("file_path") instanceof String path) {
            files.add(path);
        } else if (toolInput instanceof Map<?, ?> map && map.get("file_path") instanceof String path) {
            files.add(path);
        }
        String agentId = str(payload, "subagent_id");
        String session = str(payload, "conversation_id");
        List<?> roots = payload.get("workspace_roots") instanceof List<?> l ? l : List.of();
        String cwd = str(payload, "cwd");
        if (cwd == null && !roots.isEmpty() && roots.get(0) instanceof String r) {
            cwd = r;
        }
        return new HookEvent("cursor", event, nativeEvent, session == null ? "" : session, null,
                agentId, false, str(payload, "subagent_type"), str(payload, "parent_conversation_id"),
                toolName, TOOLS.kindOf(toolName), toolInput, command, files,
                str(payload, "prompt"), str(payload, "summary"), false,
                cwd, str(payload, "transcript_path"), workspaceRoot, payload, raw);
    }

    @Override
    public Capability capability(String nativeEvent) {
        boolean block = PERMISSION.contains(nativeEvent) || FOLLOWUP.contains(nativeEvent)
                || "beforeSubmitPrompt".equals(nativeEvent);
        return new Capability(block, CONTEXT.contains(nativeEvent), ASK.contains(nativeEvent));
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        switch (verdict.kind()) {
            case HALT:
                return block(nativeEvent, verdict.reason())
                        .withStderr("warden: halt rendered as a block on " + nativeEvent + " (Cursor hooks cannot end a session)");
            case BLOCK:
                return block(nativeEvent, verdict.reason());
            case ASK:
                if (ASK.contains(nativeEvent)) {
                    return permission("ask", verdict.reason(), true);
                }
                return block(nativeEvent, verdict.reason())
                        .withStderr("warden: ask rendered as a block on " + nativeEvent + " (Cursor cannot ask there)");
            case WARN:
            case ALLOW:
            default:
                if (verdict.context() == null) {
                    return HostResponse.SILENT;
                }
                if (CONTEXT.contains(nativeEvent)) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("additional_context", verdict.context());
                    return json(out);
                }
                return HostResponse.SILENT.withStderr("warden: context not delivered on " + nativeEvent
                        + " (Cursor takes context only on sessionStart and postToolUse): " + verdict.context());
        }
    }

    private HostResponse block(String nativeEvent, String why) {
        if (PERMISSION.contains(nativeEvent)) {
            return permission("deny", why, !"beforeReadFile".equals(nativeEvent));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if ("beforeSubmitPrompt".equals(nativeEvent)) {
            out.put("continue", Boolean.FALSE);
            out.put("user_message", PREFIX + why);
            return json(out);
        }
        if (FOLLOWUP.contains(nativeEvent)) {
            out.put("followup_message", PREFIX + why);
            return json(out);
        }
        return HostResponse.SILENT.withStderr("warden: block not delivered on " + nativeEvent
                + " (Cursor cannot refuse it): " + why);
    }

    private static HostResponse permission(String decision, String why, boolean messages) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("permission", decision);
        if (messages) {
            out.put("user_message", PREFIX + why);
            out.put("agent_message", PREFIX + why);
        }
        return json(out);
    }

    private static HostResponse json(Map<String, Object> out) {
        return new HostResponse(0, Json.write(out), "");
    }

    private static String str(Map<String, Object> payload, String key) {
        return payload.get(key) instanceof String s ? s : null;
    }
}
