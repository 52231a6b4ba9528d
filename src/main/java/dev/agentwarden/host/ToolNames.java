package dev.agentwarden.host;

import dev.agentwarden.event.ToolKind;
import java.util.Set;

/**
 * A host's tool names, by what the tools do: the normalization table behind {@link ToolKind}.
 *
 * @param shell            tools that run a shell command
 * @param subagentDispatch tools that start a subagent
 * @param fileEdit         tools that write or edit files
 * @param fileRead         tools that read files
 * @param mcpPrefix        the prefix of MCP tool names ({@code mcp__}), or {@code null}
 */
public record ToolNames(Set<String> shell, Set<String> subagentDispatch, Set<String> fileEdit, Set<String> fileRead,
                        String mcpPrefix) {

    /** What {@code name} does, or {@code null} for no tool. */
    public ToolKind kindOf(String name) {
        if (name == null) {
            return null;
        }
        if (shell.contains(name)) {
            return ToolKind.SHELL;
        }
        if (subagentDispatch.contains(name)) {
            return ToolKind.SUBAGENT_DISPATCH;
        }
        if (fileEdit.contains(name)) {
            return ToolKind.FILE_EDIT;
        }
        if (fileRead.contains(name)) {
            return ToolKind.FILE_READ;
        }
        if (mcpPrefix != null && name.startsWith(mcpPrefix)) {
            return ToolKind.MCP;
        }
        return ToolKind.OTHER;
    }
}
