package dev.agentwarden.event;

/**
 * An MCP tool's name as every host's spelling normalizes it: server and tool, and the canonical
 * {@code mcp__<server>__<tool>} that tool filters and rules match. Host spellings read:
 * {@code mcp__<server>__<tool>} (Claude Code, Codex, Qwen Code, Droid, Windsurf as its adapter builds
 * it), {@code mcp_<server>_<tool>} (Gemini CLI; the server is cut at the first {@code _}, so a
 * server whose name holds {@code _} splits early; where Gemini's {@code mcp_context} names the server
 * and tool its adapter reads them from there, {@link HookEvent#mcpReadings}) and {@code MCP:<server>:<tool>} (Cursor;
 * {@code MCP:<tool>} has no server). Claude Code's and Gemini CLI's spellings were read from their
 * binaries (docs/rules.md, "MCP tools"); Cursor's from its docs only. Hand-written: no regex on the dispatch path.
 *
 * @param server the MCP server's name, or {@code ""} when the host's spelling names none
 * @param tool   the server's own tool name
 */
public record McpToolName(String server, String tool) {
    /** The canonical spelling's prefix. */
    public static final String PREFIX = "mcp__";

    /** The canonical name: {@code mcp__<server>__<tool>}. */
    public String canonical() {
        return PREFIX + server + "__" + tool;
    }

    /** The MCP name of a tool the host's table calls {@link ToolKind#MCP}, else {@code null}. */
    public static McpToolName of(String toolName, ToolKind kind) {
        if (kind != ToolKind.MCP || toolName == null) {
            return null;
        }
        if (toolName.startsWith(PREFIX)) {
            return split(toolName.substring(PREFIX.length()), "__");
        }
        if (toolName.startsWith("mcp_")) {
            return split(toolName.substring("mcp_".length()), "_");
        }
        if (toolName.startsWith("MCP:")) {
            String rest = toolName.substring("MCP:".length());
            return rest.indexOf(':') < 0 ? new McpToolName("", rest) : split(rest, ":");
        }
        return null;
    }

    private static McpToolName split(String rest, String sep) {
        int at = rest.indexOf(sep);
        return at < 0 ? new McpToolName(rest, "") : new McpToolName(rest.substring(0, at), rest.substring(at + sep.length()));
    }
}
