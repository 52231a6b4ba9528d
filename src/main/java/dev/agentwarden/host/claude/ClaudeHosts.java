package dev.agentwarden.host.claude;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.McpConfigLocation;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.UsageFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Claude Code, and Cowork (Claude's desktop agent, which runs the same CLI with user settings only).
 * An instance is one of the two hosts' {@link Host.InventoryFiles}: Claude Code's own, or Cowork's, which
 * are Claude Code's.
 */
public final class ClaudeHosts implements Host.InventoryFiles {
    private final boolean cowork;

    private ClaudeHosts(boolean cowork) {
        this.cowork = cowork;
    }

    /** Claude Code's id and Cowork's: constants, so {@link dev.agentwarden.host.Hosts#byId} builds no record to find them. */
    public static final String CLAUDE_ID = "claude";
    public static final String COWORK_ID = "cowork";

    /** Claude Code's hook events with their canonical events. */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "SessionStart", EventName.SESSION_START,
            "SessionEnd", EventName.SESSION_END,
            "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PostToolUse", EventName.POST_TOOL_USE,
            "PostToolUseFailure", EventName.POST_TOOL_USE_FAILURE,
            "PermissionRequest", EventName.PERMISSION_REQUEST,
            "Notification", EventName.NOTIFICATION,
            "Stop", EventName.STOP,
            "PreCompact", EventName.PRE_COMPACT,
            "SubagentStart", EventName.SUBAGENT_START,
            "SubagentStop", EventName.SUBAGENT_STOP,
            // A skill's or command's inline shell command as it loads: tool_name Bash or PowerShell and
            // tool_input.command as on PreToolUse, and the same permissionDecision answer, so every
            // shell concern covers it. PreToolUse does not fire for these commands.
            "PreSkillShellCommand", EventName.PRE_TOOL_USE,
            "PreModelSwitch", EventName.PRE_MODEL_SWITCH,
            "PostModelSwitch", EventName.POST_MODEL_SWITCH,
            "DirectoryAdded", EventName.DIRECTORY_ADDED);

    static final Set<String> TOOL_EVENTS = Set.of("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
            "PreSkillShellCommand");

    /**
     * Events that Claude Code first sent in 2.1.332: older versions open a settings dialog at start
     * when a settings file names one, so {@code install} writes their hooks only where the manifest
     * names them in its own {@code native_event_aliases} (dispatch answers them either way).
     */
    public static final Set<String> SINCE_2_1_332 = Set.of("PreSkillShellCommand", "PreModelSwitch", "PostModelSwitch",
            "DirectoryAdded");

    /** The events the hook block {@code warden serve} prints covers. */
    public static final List<String> SERVE_EVENTS = List.of("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop",
            "SubagentStop", "SessionStart");

    public static final Host CLAUDE = new Host(CLAUDE_ID, "Claude Code", new ClaudeAdapter(CLAUDE_ID),
            EVENTS, TOOL_EVENTS, ClaudeAdapter.TOOLS, List.of("CLAUDE_PROJECT_DIR"),
            ClaudeAdapter.OUTPUT_CAP_CHARS, new ClaudeTraining())
            .with(new ClaudePayloadTemplate())
            .protecting(OwnFile.matching("Claude Code's hook settings", ".claude", "settings", ".json"))
            .settingUp(SetupFileLocation.inProject(".claude/settings.json"),
                    SetupFileLocation.inProject(".claude/settings.local.json"), SetupFileLocation.inHome(".claude/settings.json"),
                    SetupFileLocation.onMachine("/etc/claude-code/managed-settings.json"))
            .reading(new ClaudeHosts(false));

    /** Cowork honours only the user's {@code ~/.claude/settings.json} (it runs the CLI with {@code --setting-sources user}). */
    public static final Host COWORK = new Host(COWORK_ID, "Cowork", new ClaudeAdapter(COWORK_ID),
            EVENTS, TOOL_EVENTS, ClaudeAdapter.TOOLS, List.of("CLAUDE_PROJECT_DIR"),
            ClaudeAdapter.OUTPUT_CAP_CHARS, null)
            .with(new ClaudePayloadTemplate())
            .settingUp(SetupFileLocation.inHome(".claude/settings.json"))
            .reading(new ClaudeHosts(true));

    /**
     * Claude Code's MCP servers: the project's {@code .mcp.json}, then the user's {@code ~/.claude.json}
     * ({@code mcpServers}, then {@code projects[<project>].mcpServers}).
     */
    @Override
    public List<McpConfigLocation> mcpConfigs() {
        if (cowork) {
            return List.of();
        }
        return List.of(McpConfigLocation.json(Host.Scope.PROJECT, "", ".mcp.json", "mcpServers"),
                McpConfigLocation.json(Host.Scope.USER, "", ".claude.json", "mcpServers"),
                McpConfigLocation.json(Host.Scope.USER, "", ".claude.json", "mcpServers").underProjectEntry());
    }

    /** Claude Code's transcripts. */
    @Override
    public List<UsageFileLocation> usageFiles() {
        if (cowork) {
            return List.of();
        }
        return List.of(new UsageFileLocation(UsageFileLocation.Format.TRANSCRIPT, "claude-code",
                "the transcript_path of its hook payloads (~/.claude/projects/<project>/<session>.jsonl)"));
    }

    @Override
    public int mcpListPosition() {
        return 1;
    }

    /** Cowork runs Claude Code. */
    @Override
    public Host runsTheCliOf() {
        return cowork ? CLAUDE : null;
    }
}
