package dev.agentwarden.host.windsurf;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Windsurf's Cascade hooks, from Windsurf's documentation only (no binary runs here). Input is
 * {@code agent_action_name}, {@code trajectory_id} and a per-event {@code tool_info} object; the
 * host reads no JSON back. Only exit code 2 on a {@code pre_*} hook blocks (the reason goes on
 * stderr, which Windsurf shows); there is no context channel and no ask, so context is a stderr
 * note, an ask is a block, a halt is a block, and a block on a post event is a stderr note.
 *
 * <p>Tool names are Warden's for the action ({@code run_command}, {@code write_code},
 * {@code read_code}); an MCP call is {@code mcp__<server>__<tool>}.
 */
final class WindsurfAdapter implements HostAdapter {
    public static final ToolNames TOOLS = new ToolNames(Set.of("run_command"), Set.of(), Set.of("write_code"),
            Set.of("read_code"), "mcp__");

    /** The events whose exit code 2 refuses the action. */
    static final Set<String> PRE = Set.of("pre_read_code", "pre_write_code", "pre_run_command", "pre_mcp_tool_use",
            "pre_user_prompt");

    @Override
    public String id() {
        return "windsurf";
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return payload.get("agent_action_name") instanceof String s ? s : null;
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        @SuppressWarnings("unchecked")
        Map<String, Object> info = payload.get("tool_info") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        String ne = nativeEvent == null ? "" : nativeEvent;
        String toolName = null;
        String command = null;
        List<String> files = new ArrayList<>(1);
        if (ne.endsWith("_run_command")) {
            toolName = "run_command";
            command = str(info, "command_line");
        } else if (ne.endsWith("_write_code") || ne.endsWith("_read_code")) {
            toolName = ne.endsWith("_write_code") ? "write_code" : "read_code";
            if (info.get("file_path") instanceof String path) {
                files.add(path);
            }
        } else if (ne.endsWith("_mcp_tool_use")) {
            toolName = "mcp__" + str(info, "mcp_server_name") + "__" + str(info, "mcp_tool_name");
        }
        String prompt = ne.equals("pre_user_prompt") ? str(info, "user_prompt") : null;
        String response = ne.startsWith("post_cascade_response") ? str(info, "response") : null;
        String session = str(payload, "trajectory_id");
        return new HookEvent("windsurf", event, nativeEvent, session == null ? "" : session, null, null, false, null,
                null, toolName, TOOLS.kindOf(toolName), toolName == null ? null : info, command, files, prompt, response,
                false, str(info, "cwd"), null, workspaceRoot, payload, raw);
    }

    @Override
    public Capability capability(String nativeEvent) {
        return new Capability(PRE.contains(nativeEvent), false, false);
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        switch (verdict.kind()) {
            case HALT:
            case BLOCK:
            case ASK:
                if (PRE.contains(nativeEvent)) {
                    HostResponse refused = new HostResponse(2, "", "[warden] " + verdict.reason());
                    return verdict.kind() == Verdict.Kind.BLOCK ? refused : refused.withStderr("warden: "
                            + verdict.kind().name().toLowerCase(java.util.Locale.ROOT) + " rendered as a block on "
                            + nativeEvent + " (Windsurf only blocks)");
                }
                return HostResponse.SILENT.withStderr("warden: block not delivered on " + nativeEvent
                        + " (Windsurf blocks only pre hooks): " + verdict.reason());
            case WARN:
            case ALLOW:
            default:
                return verdict.context() == null ? HostResponse.SILENT : HostResponse.SILENT.withStderr(
                        "warden: context not delivered on " + nativeEvent + " (Windsurf has no context channel): "
                                + verdict.context());
        }
    }

    private static String str(Map<String, Object> map, String key) {
        return map.get(key) instanceof String s ? s : null;
    }
}
