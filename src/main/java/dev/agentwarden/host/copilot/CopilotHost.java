package dev.agentwarden.host.copilot;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.LauncherContract;
import dev.agentwarden.host.McpConfigLocation;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.host.UsageFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * GitHub Copilot CLI: {@code .github/hooks/warden.json} in the project, or
 * {@code $COPILOT_HOME/hooks/warden.json} (default {@code ~/.copilot}) for the user.
 */
public final class CopilotHost implements Host.InventoryFiles {
    private CopilotHost() {
    }

    /**
     * The fourteen events Copilot CLI 1.0.102 fires (native camelCase names, which Warden installs),
     * then the PascalCase names that select the VS Code payload format, for hooks a user writes so.
     */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "sessionStart", EventName.SESSION_START,
            "sessionEnd", EventName.SESSION_END,
            "userPromptSubmitted", EventName.USER_PROMPT_SUBMIT,
            "userPromptTransformed", EventName.USER_PROMPT_TRANSFORMED,
            "preToolUse", EventName.PRE_TOOL_USE,
            "permissionRequest", EventName.PERMISSION_REQUEST,
            "postToolUse", EventName.POST_TOOL_USE,
            "postToolUseFailure", EventName.POST_TOOL_USE_FAILURE,
            "notification", EventName.NOTIFICATION,
            "errorOccurred", EventName.AGENT_ERROR,
            "preCompact", EventName.PRE_COMPACT,
            "agentStop", EventName.STOP,
            "subagentStart", EventName.SUBAGENT_START,
            "subagentStop", EventName.SUBAGENT_STOP,
            "SessionStart", EventName.SESSION_START,
            "SessionEnd", EventName.SESSION_END,
            "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PermissionRequest", EventName.PERMISSION_REQUEST,
            "PostToolUse", EventName.POST_TOOL_USE,
            "Stop", EventName.STOP,
            "SubagentStart", EventName.SUBAGENT_START,
            "SubagentStop", EventName.SUBAGENT_STOP);

    /** Events whose hooks take a tool {@code matcher}. */
    static final Set<String> TOOL_EVENTS = Set.of("preToolUse", "postToolUse", "postToolUseFailure", "permissionRequest",
            "PreToolUse", "PostToolUse", "PermissionRequest");

    /**
     * Copilot's tool names by kind: the native format's ({@code bash}, {@code task}, {@code create},
     * {@code edit}, {@code view}) and the VS Code format's ({@code Bash}, {@code Agent}).
     */
    public static final ToolNames TOOLS = new ToolNames(Set.of("bash", "powershell", "Bash"), Set.of("task", "Agent"),
            Set.of("create", "edit"), Set.of("view"), null);

    /** The refusal's reason when Warden cannot run: the JVM's own ({@code DispatchMain}), as this adapter renders it. */
    static final String CANNOT_EVALUATE = "[warden] Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)";

    /**
     * Copilot CLI reads exit 1 on preToolUse as its own "hook errored" deny and exit 2 elsewhere as a
     * mere warning, and its JVM answers with 0 always: a non-zero exit is answered per the fail mode,
     * and the closed refusal is JSON with exit 0 on the events that take one.
     */
    static final LauncherContract LAUNCHER = LauncherContract.PLAIN
            .exitingNonZero(LauncherContract.NonZeroExit.FAIL_MODE)
            .refusingWithExit(0)
            .refusing("{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"" + CANNOT_EVALUATE + "\"}",
                    "preToolUse", "PreToolUse")
            .refusing("{\"behavior\":\"deny\",\"message\":\"" + CANNOT_EVALUATE + "\"}",
                    "permissionRequest", "PermissionRequest")
            .refusing("{\"decision\":\"block\",\"reason\":\"" + CANNOT_EVALUATE + "\"}",
                    "userPromptSubmitted", "UserPromptSubmit", "agentStop", "Stop", "subagentStop", "SubagentStop");

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "copilot";

    public static final Host COPILOT = new Host(ID, "Copilot CLI", new CopilotAdapter(),
            EVENTS, TOOL_EVENTS, TOOLS, List.of("COPILOT_PROJECT_DIR"),
            CopilotAdapter.OUTPUT_CAP_CHARS, null)
            .with(new CopilotPayloadTemplate())
            .protecting(OwnFile.matching("Copilot CLI's hook settings", "hooks", "", ".json").under(".github", ".copilot"),
                    OwnFile.named("Copilot CLI's configuration (its trustedFolders)", ".copilot", "config.json"))
            .settingUp(SetupFileLocation.inProject(".github/hooks/warden.json"),
                    SetupFileLocation.inHome(".copilot/hooks/warden.json").unless("COPILOT_HOME", "hooks/warden.json"),
                    SetupFileLocation.onMachine("/etc/github-copilot/policy.d/warden.json"),
                    SetupFileLocation.inHome(".copilot/config.json").unless("COPILOT_HOME", "config.json").decidingTrust())
            .launching(LAUNCHER)
            .reading(new CopilotHost());

    /**
     * Copilot CLI's MCP servers: {@code mcpServers} in {@code $COPILOT_HOME/mcp-config.json} (default
     * {@code ~/.copilot}), then {@code servers} in the project's {@code .vscode/mcp.json}.
     */
    @Override
    public List<McpConfigLocation> mcpConfigs() {
        return List.of(McpConfigLocation.json(Host.Scope.USER, ".copilot", "mcp-config.json", "mcpServers")
                        .inDirectoryNamedBy("COPILOT_HOME"),
                McpConfigLocation.json(Host.Scope.PROJECT, ".vscode", "mcp.json", "servers"));
    }

    /** Copilot CLI's session state, read in the session-event schema its SDKs publish. */
    @Override
    public List<UsageFileLocation> usageFiles() {
        return List.of(new UsageFileLocation(UsageFileLocation.Format.SESSION_EVENTS, "copilot-cli",
                "$COPILOT_HOME/session-state/<session>/events.jsonl (default ~/.copilot), the transcriptPath of its"
                        + " hook payloads"));
    }

    @Override
    public int mcpListPosition() {
        return 4;
    }
}
