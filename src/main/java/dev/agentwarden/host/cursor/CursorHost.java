package dev.agentwarden.host.cursor;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.McpConfigLocation;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.UsageFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cursor (the editor's agent; no binary on the registries, so built and tested from Cursor's
 * documentation only): {@code {"version": 1, "hooks": {…}}} in the project's {@code .cursor/hooks.json}
 * or the user's {@code ~/.cursor/hooks.json}.
 *
 * <p>Warden's entries on the events that can refuse an action carry {@code "failClosed": true}: when
 * Warden itself cannot answer (its JVM missing, a crash, a timeout), Cursor refuses the action rather
 * than letting it through unchecked. Concern-level fail-open stays Warden's own setting; only a
 * broken Warden is refused by Cursor.
 */
public final class CursorHost implements Host.InventoryFiles {
    private CursorHost() {
    }

    /** Cursor's agent hook events with canonical events (afterAgentResponse and afterAgentThought have none). */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "sessionStart", EventName.SESSION_START,
            "sessionEnd", EventName.SESSION_END,
            "beforeSubmitPrompt", EventName.USER_PROMPT_SUBMIT,
            "preToolUse", EventName.PRE_TOOL_USE,
            "beforeShellExecution", EventName.PRE_TOOL_USE,
            "beforeMCPExecution", EventName.PRE_TOOL_USE,
            "beforeReadFile", EventName.PRE_TOOL_USE,
            "postToolUse", EventName.POST_TOOL_USE,
            "afterShellExecution", EventName.POST_TOOL_USE,
            "afterMCPExecution", EventName.POST_TOOL_USE,
            "afterFileEdit", EventName.POST_TOOL_USE,
            "postToolUseFailure", EventName.POST_TOOL_USE_FAILURE,
            "subagentStart", EventName.SUBAGENT_START,
            "subagentStop", EventName.SUBAGENT_STOP,
            "stop", EventName.STOP,
            "preCompact", EventName.PRE_COMPACT);

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "cursor";

    public static final Host CURSOR = new Host(ID, "Cursor", new CursorAdapter(),
            EVENTS, Set.of(), CursorAdapter.TOOLS, List.of("CURSOR_PROJECT_DIR"), 0, null)
            .settingUp(SetupFileLocation.inProject(".cursor/hooks.json"), SetupFileLocation.inHome(".cursor/hooks.json"),
                    SetupFileLocation.onMachine("/etc/cursor/hooks.json"))
            .reading(new CursorHost());

    /** Cursor's MCP servers: {@code mcpServers} in the project's {@code .cursor/mcp.json}, then the user's. */
    @Override
    public List<McpConfigLocation> mcpConfigs() {
        return List.of(McpConfigLocation.json(Host.Scope.PROJECT, ".cursor", "mcp.json", "mcpServers"),
                McpConfigLocation.json(Host.Scope.USER, ".cursor", "mcp.json", "mcpServers"));
    }

    @Override
    public List<UsageFileLocation> usageFiles() {
        return List.of();
    }

    @Override
    public int mcpListPosition() {
        return 5;
    }
}
