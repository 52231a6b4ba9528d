package dev.agentwarden.host.codex;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.LauncherContract;
import dev.agentwarden.host.McpConfigLocation;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.UsageFileLocation;
import dev.agentwarden.host.claude.ClaudeAdapter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** OpenAI Codex CLI: Claude-shaped {@code hooks.json}, in the project's {@code .codex/} or in {@code $CODEX_HOME}. */
public final class CodexHost implements Host.InventoryFiles {
    private CodexHost() {
    }

    /** Codex 0.171.0's hook events (PostCompact and Interrupt have no canonical event yet). */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "SessionStart", EventName.SESSION_START,
            "SessionEnd", EventName.SESSION_END,
            "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PermissionRequest", EventName.PERMISSION_REQUEST,
            "PostToolUse", EventName.POST_TOOL_USE,
            "PreCompact", EventName.PRE_COMPACT,
            "SubagentStart", EventName.SUBAGENT_START,
            "SubagentStop", EventName.SUBAGENT_STOP,
            "Stop", EventName.STOP);

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "codex";

    /**
     * Codex: no project-directory variable (its hooks get the project in {@code cwd}); output strings
     * capped as Claude's are, since Codex renders through the same protocol. It reads Stop and
     * SubagentStop answers as JSON, so "no opinion" there is {@code {}}.
     */
    public static final Host CODEX = new Host(ID, "Codex", new CodexAdapter(),
            EVENTS, Set.of("PreToolUse", "PostToolUse", "PermissionRequest"), CodexAdapter.TOOLS,
            List.of(), ClaudeAdapter.OUTPUT_CAP_CHARS, null)
            .with(new CodexPayloadTemplate())
            .protecting(OwnFile.named("Codex's hook settings", ".codex", "hooks.json"),
                    OwnFile.named("Codex's configuration (hooks on or off, project trust, hook review)", ".codex",
                            "config.toml"))
            .settingUp(SetupFileLocation.inProject(".codex/hooks.json"),
                    SetupFileLocation.inHome(".codex/hooks.json").unless("CODEX_HOME", "hooks.json"),
                    SetupFileLocation.onMachine("/etc/codex/requirements.toml"),
                    SetupFileLocation.inHome(".codex/config.toml").unless("CODEX_HOME", "config.toml").decidingTrust())
            .launching(LauncherContract.PLAIN.noOpinion("{}", "Stop", "SubagentStop"))
            .reading(new CodexHost());

    /** Codex's MCP servers: {@code [mcp_servers.*]} in the project's {@code .codex/config.toml}, then in {@code $CODEX_HOME/config.toml}. */
    @Override
    public List<McpConfigLocation> mcpConfigs() {
        return List.of(McpConfigLocation.toml(Host.Scope.PROJECT, ".codex", "config.toml", "mcp_servers", "http_headers"),
                McpConfigLocation.toml(Host.Scope.USER, ".codex", "config.toml", "mcp_servers", "http_headers")
                        .inDirectoryNamedBy("CODEX_HOME"));
    }

    /** The stream of {@code codex exec --json}, which names neither model nor client version. */
    @Override
    public List<UsageFileLocation> usageFiles() {
        return List.of(new UsageFileLocation(UsageFileLocation.Format.EVENT_STREAM, "codex",
                "the standard output of `codex exec --json`, saved to a file"));
    }

    @Override
    public int mcpListPosition() {
        return 2;
    }
}
