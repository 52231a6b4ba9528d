package dev.agentwarden.host.gemini;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.McpToolName;
import dev.agentwarden.event.ToolKind;
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
 * Gemini CLI 0.61.0's command-hook protocol, as measured on the binary (hosts.md, "Gemini CLI
 * 0.61.0 … measured") and read from its hook runner.
 *
 * <p>Every answer is exit 0 with at most one JSON object on stdout: Gemini parses stdout (or stderr
 * when stdout is empty) as JSON whatever the exit code, reads exit 1 as "allow with a warning" and
 * <em>any other non-zero exit as a deny</em>, so Warden never answers with a code of its own. No
 * opinion is no output. A block is {@code {"decision":"deny","reason":R}} where the event honours it
 * (BeforeTool: the tool does not run and the model reads {@code Tool execution blocked: R};
 * AfterAgent: R becomes the prompt of another turn; BeforeAgent: the prompt is refused). A halt is
 * {@code {"continue":false,"stopReason":R}}, which ends the agent loop. Context reaches the model
 * only through {@code hookSpecificOutput.additionalContext} on SessionStart, BeforeAgent and
 * AfterTool; elsewhere it is a {@code systemMessage} for the user. Gemini has an {@code ask}
 * decision only on BeforeTool, and in headless runs nobody answers it, so an ask is a deny. Each
 * downgrade is the table's ({@link #TABLE}) and says so on stderr.
 */
public final class GeminiAdapter implements HostAdapter {

    /** Gemini CLI's tool names by kind (0.61.0's built-in tools; MCP tools are {@code mcp_<server>_<tool>}). */
    public static final ToolNames TOOLS = new ToolNames(Set.of("run_shell_command"), Set.of("invoke_agent"),
            Set.of("write_file", "replace"), Set.of("read_file", "read_many_files"), "mcp_");

    /**
     * What each native event can do with a verdict.
     *
     * @param block   {@code decision: "deny"} refuses the event's action
     * @param context {@code hookSpecificOutput.additionalContext} reaches the model
     * @param halt    {@code continue: false} stops the agent loop
     */
    record Channels(boolean block, boolean context, boolean halt) {
    }

    /** The capability table of Gemini CLI 0.61.0, one row per native event. */
    static final Map<String, Channels> TABLE = table(
            "SessionStart", new Channels(false, true, false),
            "BeforeAgent", new Channels(true, true, true),
            "BeforeModel", new Channels(true, false, true),
            "BeforeToolSelection", new Channels(false, false, false),
            "AfterModel", new Channels(true, false, true),
            "BeforeTool", new Channels(true, false, true),
            "AfterTool", new Channels(true, true, true),
            "AfterAgent", new Channels(true, false, true),
            "PreCompress", new Channels(false, false, false),
            "Notification", new Channels(false, false, false),
            "SessionEnd", new Channels(false, false, false));

    private static final Channels NONE = new Channels(false, false, false);

    private static final String PREFIX = "[warden] ";

    /** The one event whose {@code hookSpecificOutput.tool_input} rewrites the call. */
    private static final String REWRITE = "BeforeTool";

    @Override
    public String id() {
        return "gemini";
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return payload.get("hook_event_name") instanceof String s ? s : null;
    }

    /**
     * Gemini's snake_case payload. There is no agent marker: a subagent's tool calls carry the
     * parent's {@code session_id}, so {@code agentId} is always {@code null}; on the subagent tool
     * ({@code invoke_agent}) the agent type is its {@code agent_name}. The prompt is BeforeAgent's
     * (AfterAgent repeats it, but it is no longer the subject there); AfterAgent's
     * {@code prompt_response} is the last assistant message. An MCP tool's server and tool come from
     * {@code mcp_context} where it is readable ({@link GeminiMcpContext}); a tool so named is an MCP
     * tool whatever its name, unless the name is one of Gemini's built-in tools.
     */
    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        String toolName = str(payload, "tool_name");
        ToolKind kind = TOOLS.kindOf(toolName);
        Object mcpContext = payload.get("mcp_context");
        List<McpToolName> mcp = toolName == null || mcpContext == null ? List.of() : GeminiMcpContext.readings(toolName, mcpContext);
        if (kind == ToolKind.OTHER && !mcp.isEmpty()) {
            kind = ToolKind.MCP;
        }
        Object toolInput = payload.get("tool_input");
        Map<?, ?> input = toolInput instanceof Map<?, ?> m ? m : Map.of();
        String agentType = kind == ToolKind.SUBAGENT_DISPATCH && input.get("agent_name") instanceof String s ? s : null;
        String session = str(payload, "session_id");
        return new HookEvent("gemini", event, nativeEvent, session == null ? "" : session,
                event == EventName.SESSION_START ? str(payload, "source") : null,
                null, false, agentType, null, false,
                toolName, kind, toolInput, input.get("command") instanceof String c ? c : null, filePaths(input),
                "BeforeAgent".equals(nativeEvent) ? str(payload, "prompt") : null,
                "AfterAgent".equals(nativeEvent) ? str(payload, "prompt_response") : null,
                Boolean.TRUE.equals(payload.get("stop_hook_active")),
                str(payload, "cwd"), str(payload, "transcript_path"), workspaceRoot, payload, raw, mcp);
    }

    /** The files a Gemini tool input names: {@code file_path} (read_file, write_file, replace). */
    private static List<String> filePaths(Map<?, ?> input) {
        List<String> out = new ArrayList<>(1);
        if (input.get("file_path") instanceof String path) {
            out.add(path);
        }
        return out;
    }

    @Override
    public Capability capability(String nativeEvent) {
        Channels c = channels(nativeEvent);
        return new Capability(c.block(), c.context(), false, REWRITE.equals(nativeEvent));
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        Channels c = channels(nativeEvent);
        switch (verdict.kind()) {
            case HALT:
                if (!c.halt()) {
                    return renderBlock(nativeEvent, c, verdict)
                            .withStderr("warden: halt rendered as a block on " + nativeEvent + " (Gemini does not stop there)");
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("continue", Boolean.FALSE);
                out.put("stopReason", PREFIX + verdict.reason());
                return json(out);
            case BLOCK:
                return renderBlock(nativeEvent, c, verdict);
            case ASK:
                return renderBlock(nativeEvent, c, verdict)
                        .withStderr("warden: ask rendered as a block on " + nativeEvent + " (Gemini cannot ask in a hook)");
            case WARN:
            case ALLOW:
            default:
                if (verdict.rewrites() && REWRITE.equals(nativeEvent)) {
                    return renderRewrite(nativeEvent, c, verdict);
                }
                return verdict.context() == null ? HostResponse.SILENT : renderContext(nativeEvent, c, verdict.context());
        }
    }

    private static HostResponse renderBlock(String nativeEvent, Channels c, Verdict verdict) {
        if (!c.block()) {
            String text = "policy would block this " + nativeEvent + ", which Gemini cannot refuse: " + verdict.reason();
            return renderContext(nativeEvent, c, verdict.context() == null ? text : text + "\n" + verdict.context())
                    .withStderr("warden: block downgraded to " + (c.context() ? "context" : "a message") + " on "
                            + nativeEvent + " (not blockable)");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("decision", "deny");
        out.put("reason", PREFIX + verdict.reason() + (verdict.context() == null ? "" : "\n" + verdict.context()));
        return json(out);
    }

    /** BeforeTool's {@code hookSpecificOutput.tool_input}: Gemini CLI runs the call with it in place of its own. */
    private static HostResponse renderRewrite(String nativeEvent, Channels c, Verdict verdict) {
        Map<String, Object> specific = new LinkedHashMap<>();
        specific.put("hookEventName", nativeEvent);
        specific.put("tool_input", verdict.updatedInput());
        if (verdict.context() != null && c.context()) {
            specific.put("additionalContext", verdict.context());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hookSpecificOutput", specific);
        return json(out);
    }

    private static HostResponse renderContext(String nativeEvent, Channels c, String context) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (c.context()) {
            Map<String, Object> specific = new LinkedHashMap<>();
            specific.put("hookEventName", nativeEvent);
            specific.put("additionalContext", context);
            out.put("hookSpecificOutput", specific);
        } else {
            out.put("systemMessage", PREFIX + context);
        }
        return json(out);
    }

    private static Channels channels(String nativeEvent) {
        Channels c = nativeEvent == null ? null : TABLE.get(nativeEvent);
        return c == null ? NONE : c;
    }

    private static HostResponse json(Map<String, Object> out) {
        return new HostResponse(0, Json.write(out), "");
    }

    private static String str(Map<String, Object> payload, String key) {
        return payload.get(key) instanceof String s ? s : null;
    }

    private static Map<String, Channels> table(Object... pairs) {
        Map<String, Channels> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            out.put((String) pairs[i], (Channels) pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }
}
