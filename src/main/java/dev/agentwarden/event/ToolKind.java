package dev.agentwarden.event;

/**
 * What a tool does, whatever a host calls it: the normalized tool name beside the native one.
 * Each host's adapter maps its own tool names onto these.
 */
public enum ToolKind {
    /** Runs a shell command ({@code Bash}). */
    SHELL("shell"),
    /** Starts a subagent ({@code Agent}, {@code Task}, {@code spawn_agent}). */
    SUBAGENT_DISPATCH("subagent_dispatch"),
    /** Writes or edits files ({@code Write}, {@code Edit}, {@code apply_patch}). */
    FILE_EDIT("file_edit"),
    /** Reads files ({@code Read}). */
    FILE_READ("file_read"),
    /** A tool served by an MCP server ({@code mcp__<server>__<tool>}). */
    MCP("mcp"),
    /** Any other tool. */
    OTHER("other");

    private final String wire;

    ToolKind(String wire) {
        this.wire = wire;
    }

    /** The snake_case name. */
    public String wire() {
        return wire;
    }

    @Override
    public String toString() {
        return wire;
    }
}
