package dev.agentwarden.host.gemini;

import dev.agentwarden.event.McpToolName;
import dev.agentwarden.event.ToolKind;
import java.util.List;
import java.util.Map;

/**
 * Gemini CLI's {@code mcp_context} on BeforeTool and AfterTool: the exact {@code server_name} and
 * {@code tool_name} of an MCP tool call, beside the flattened {@code tool_name}
 * {@code mcp_<server>_<tool>}, which cannot be split back when the server's name holds {@code _}.
 *
 * <p>The context is read only when both names are non-empty strings of at most
 * {@link #MAX_NAME_CHARS} characters; otherwise the event carries none and the tool name's reading
 * stands. A readable context whose names Gemini would flatten into the payload's tool name
 * ({@link #flattened}, the 0.61.0 bundle's {@code generateValidName}) is the one reading. One that
 * does not flatten into it is forged or from a Gemini that names differently: both readings are
 * kept, the context's first, so a filter or rule matching either applies.
 */
final class GeminiMcpContext {
    /** Longest server or tool name read from {@code mcp_context}. */
    static final int MAX_NAME_CHARS = 512;

    /** Gemini CLI's longest MCP function name ({@code MAX_FUNCTION_NAME_LENGTH - 1}). */
    private static final int MAX_FUNCTION_NAME_CHARS = 63;

    private static final String PREFIX = "mcp_";

    private GeminiMcpContext() {
    }

    /** The MCP readings of a tool call named {@code toolName} with {@code context} beside it; empty without a readable context. */
    static List<McpToolName> readings(String toolName, Object context) {
        if (!(context instanceof Map<?, ?> m)
                || !(m.get("server_name") instanceof String server) || !(m.get("tool_name") instanceof String tool)
                || !readable(server) || !readable(tool)) {
            return List.of();
        }
        McpToolName exact = new McpToolName(server, tool);
        if (flattened(server, tool).equals(toolName)) {
            return List.of(exact);
        }
        McpToolName named = McpToolName.of(toolName, ToolKind.MCP);
        // fields compared by hand: a record's equals bootstraps through invokedynamic (lambda forms) on the hot path
        boolean same = named == null || named.server().equals(server) && named.tool().equals(tool);
        return same ? List.of(exact) : List.of(exact, named);
    }

    /**
     * The function name Gemini CLI gives {@code tool} of {@code server}: {@code mcp_} before
     * {@code <server>_<tool>} unless that already starts with it, every UTF-16 unit outside
     * {@code [A-Za-z0-9_.:-]} as {@code _}, and a result over 63 units cut to its first 30 and last 30
     * around {@code ...}.
     */
    static String flattened(String server, String tool) {
        String name = server + "_" + tool;
        if (!name.startsWith(PREFIX)) {
            name = PREFIX + name;
        }
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean valid = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '_' || c == '-' || c == '.' || c == ':';
            sb.append(valid ? c : '_');
        }
        if (sb.length() > MAX_FUNCTION_NAME_CHARS) {
            return sb.substring(0, 30) + "..." + sb.substring(sb.length() - 30);
        }
        return sb.toString();
    }

    private static boolean readable(String name) {
        return !name.isEmpty() && name.length() <= MAX_NAME_CHARS;
    }
}
