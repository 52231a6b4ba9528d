package dev.agentwarden.event;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One host lifecycle event, normalized: the only event type concerns, the guard, the ledger and the
 * dispatcher read. A host adapter fills every field from its own payload shape; nothing downstream
 * reads a host's payload keys.
 *
 * @param host                 host id as named in the manifest
 * @param event                canonical event
 * @param nativeEvent          the host's own event name ({@code PreToolUse})
 * @param sessionId            host session id, or "" when the host sent none
 * @param sessionSource        how the session started ({@code startup}, {@code resume}, …) on session
 *                             start, else {@code null}
 * @param agentId              id of the subagent the event happens inside (or that starts or stops),
 *                             or {@code null} when the host named none or named one that is not a
 *                             non-empty string
 * @param agentIdMalformed     the host named an agent id that is not a string
 * @param agentType            subagent type as the host sent it, or {@code null}
 * @param parentAgentId        the parent agent the host named, or {@code null}
 * @param unopenedParentIsMain the host announces every subagent's start under the id its children
 *                             name as their parent, so a named parent the ledger holds no open
 *                             record of is the session's main agent (Cline, whose main agent has an
 *                             id of its own that no child can tell apart from a subagent's)
 * @param toolName             the host's tool name on tool events, else {@code null}
 * @param toolKind             what the tool does, on tool events, else {@code null}
 * @param toolInput            tool input as read from the payload (any JSON value), else {@code null}
 * @param shellCommand         the command the tool call would run: the {@code command} string of its
 *                             input (a shell tool's, and any other tool's that names one), else
 *                             {@code null}
 * @param filePaths            the files the tool call names, as written (never {@code null})
 * @param prompt               the user's prompt on prompt submission, else {@code null}
 * @param lastAssistantMessage the agent's last message on stop events, else {@code null}
 * @param stopHookActive       the host is re-running a stop after a stop hook refused it
 * @param cwd                  the host's working directory, or {@code null}
 * @param transcriptPath       the session transcript file the host named, or {@code null}
 * @param workspaceRoot        the project root all state is resolved against
 * @param payload              the host payload as an object, for the agent-config envelope only
 * @param rawPayload           the payload bytes exactly as received
 * @param mcpReadings          the MCP server and tool the host named beside the tool name (Gemini CLI's
 *                             {@code mcp_context}), the host's exact reading first; a second reading
 *                             (the tool name's) when the two disagree, so that a filter or rule matching
 *                             either applies; empty when the host named none, and then the tool name's
 *                             reading ({@link McpToolName#of}) stands (never {@code null})
 */
public record HookEvent(String host, EventName event, String nativeEvent, String sessionId, String sessionSource,
                        String agentId, boolean agentIdMalformed, String agentType, String parentAgentId,
                        boolean unopenedParentIsMain, String toolName, ToolKind toolKind, Object toolInput, String shellCommand,
                        List<String> filePaths, String prompt, String lastAssistantMessage, boolean stopHookActive,
                        String cwd, String transcriptPath, String workspaceRoot, Map<String, Object> payload, byte[] rawPayload,
                        List<McpToolName> mcpReadings) {

    public HookEvent {
        mcpReadings = mcpReadings == null ? List.of() : mcpReadings;
    }

    /** An event whose host names no MCP server and tool beside the tool name. */
    public HookEvent(String host, EventName event, String nativeEvent, String sessionId, String sessionSource,
                     String agentId, boolean agentIdMalformed, String agentType, String parentAgentId,
                     boolean unopenedParentIsMain, String toolName, ToolKind toolKind, Object toolInput, String shellCommand,
                     List<String> filePaths, String prompt, String lastAssistantMessage, boolean stopHookActive,
                     String cwd, String transcriptPath, String workspaceRoot, Map<String, Object> payload, byte[] rawPayload) {
        this(host, event, nativeEvent, sessionId, sessionSource, agentId, agentIdMalformed, agentType, parentAgentId,
                unopenedParentIsMain, toolName, toolKind, toolInput, shellCommand, filePaths, prompt, lastAssistantMessage,
                stopHookActive, cwd, transcriptPath, workspaceRoot, payload, rawPayload, List.of());
    }

    /** An event from a host that does not announce every subagent ({@code unopenedParentIsMain} false). */
    public HookEvent(String host, EventName event, String nativeEvent, String sessionId, String sessionSource,
                     String agentId, boolean agentIdMalformed, String agentType, String parentAgentId,
                     String toolName, ToolKind toolKind, Object toolInput, String shellCommand,
                     List<String> filePaths, String prompt, String lastAssistantMessage, boolean stopHookActive,
                     String cwd, String transcriptPath, String workspaceRoot, Map<String, Object> payload, byte[] rawPayload) {
        this(host, event, nativeEvent, sessionId, sessionSource, agentId, agentIdMalformed, agentType, parentAgentId,
                false, toolName, toolKind, toolInput, shellCommand, filePaths, prompt, lastAssistantMessage,
                stopHookActive, cwd, transcriptPath, workspaceRoot, payload, rawPayload);
    }

    /**
     * Every reading of the MCP tool this tool event calls: the host's {@link #mcpReadings} when it sent
     * any, else the tool name's ({@link McpToolName#of}); empty when the tool is not an MCP tool.
     */
    public List<McpToolName> mcpNames() {
        if (!mcpReadings.isEmpty()) {
            return mcpReadings;
        }
        if (toolKind != ToolKind.MCP) {
            return List.of();
        }
        McpToolName parsed = McpToolName.of(toolName, toolKind);
        return parsed == null ? List.of() : List.of(parsed);
    }

    /** The normalized tool name ({@code shell}, {@code file_edit}, …), or {@code null} off tool events. */
    public String normalizedToolName() {
        return toolKind == null ? null : toolKind.wire();
    }

    /** The raw payload as text (lenient UTF-8). */
    public String rawPayloadText() {
        return new String(rawPayload, StandardCharsets.UTF_8);
    }
}
