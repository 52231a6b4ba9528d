package dev.agentwarden.host.gemini;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.LauncherContract;
import dev.agentwarden.host.McpConfigLocation;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.UsageFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gemini CLI: {@code hooks} in {@code settings.json} in Claude's nested shape (a named handler, its
 * timeout in milliseconds), in the project's {@code .gemini/} or the user's {@code ~/.gemini/}.
 */
public final class GeminiHost implements Host.InventoryFiles {
    private GeminiHost() {
    }

    /**
     * Gemini CLI 0.61.0's hook events with their canonical events. It has no subagent events (a
     * subagent is the {@code invoke_agent} tool, bracketed by its BeforeTool and AfterTool); its model
     * and tool-selection events are the canonical vocabulary's only model events.
     */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "SessionStart", EventName.SESSION_START,
            "BeforeAgent", EventName.USER_PROMPT_SUBMIT,
            "BeforeModel", EventName.PRE_MODEL_REQUEST,
            "BeforeToolSelection", EventName.PRE_TOOL_SELECTION,
            "AfterModel", EventName.POST_MODEL_RESPONSE,
            "BeforeTool", EventName.PRE_TOOL_USE,
            "AfterTool", EventName.POST_TOOL_USE,
            "AfterAgent", EventName.STOP,
            "PreCompress", EventName.PRE_COMPACT,
            "Notification", EventName.NOTIFICATION,
            "SessionEnd", EventName.SESSION_END);

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "gemini";

    /**
     * Gemini: the project in {@code GEMINI_PROJECT_DIR} (it sets {@code CLAUDE_PROJECT_DIR} too); no
     * known cap on hook output. It reads every exit code but 0, 1 and 2 as a deny, and its JVM answers
     * with 0 always: the launcher makes any other code a warning (1), or 2 under the closed fail mode.
     */
    public static final Host GEMINI = new Host(ID, "Gemini CLI", new GeminiAdapter(),
            EVENTS, Set.of("BeforeTool", "AfterTool"), GeminiAdapter.TOOLS, List.of("GEMINI_PROJECT_DIR"), 0, null)
            .protecting(OwnFile.named("Gemini CLI's hook settings or trust", ".gemini", "settings.json",
                    "trusted_hooks.json", "trustedFolders.json"))
            .settingUp(SetupFileLocation.inProject(".gemini/settings.json"), SetupFileLocation.inHome(".gemini/settings.json"),
                    SetupFileLocation.onMachine("/etc/gemini-cli/settings.json"),
                    SetupFileLocation.inHome(".gemini/settings.json").decidingTrust(),
                    SetupFileLocation.inHome(".gemini/trusted_hooks.json").decidingTrust(),
                    SetupFileLocation.inHome(".gemini/trustedFolders.json").unless("GEMINI_CLI_TRUSTED_FOLDERS_PATH", "")
                            .decidingTrust())
            .launching(LauncherContract.PLAIN.exitingNonZero(LauncherContract.NonZeroExit.WARNING))
            .reading(new GeminiHost());

    /**
     * Gemini CLI's MCP servers: {@code mcpServers} in the project's {@code .gemini/settings.json}, then the
     * user's; an entry with {@code url} and no {@code httpUrl} is an SSE server ({@code httpUrl} is streamable HTTP).
     */
    @Override
    public List<McpConfigLocation> mcpConfigs() {
        return List.of(McpConfigLocation.json(Host.Scope.PROJECT, ".gemini", "settings.json", "mcpServers").withUrlAloneAsSse(),
                McpConfigLocation.json(Host.Scope.USER, ".gemini", "settings.json", "mcpServers").withUrlAloneAsSse());
    }

    @Override
    public List<UsageFileLocation> usageFiles() {
        return List.of();
    }

    @Override
    public int mcpListPosition() {
        return 3;
    }
}
