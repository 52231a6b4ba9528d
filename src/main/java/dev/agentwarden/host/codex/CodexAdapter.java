package dev.agentwarden.host.codex;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.host.claude.ClaudeAdapter.BlockChannel;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.verdict.Verdict;
import java.util.Map;
import java.util.Set;

/**
 * OpenAI Codex CLI's command-hook protocol: Claude's shapes under strict per-event output schemas
 * (read from the schemas embedded in Codex 0.171.0; unknown fields make the hook's output invalid).
 *
 * <ul>
 *   <li>PreToolUse blocks with {@code permissionDecision: "deny"} and a non-empty reason; it rejects
 *       {@code continue: false} and {@code stopReason} ("PreToolUse hook returned unsupported
 *       continue:false"), so a halt there is a deny. PermissionRequest likewise, with
 *       {@code decision.behavior: "deny"}.</li>
 *   <li>UserPromptSubmit, PostToolUse, Stop and SubagentStop block with {@code decision: "block"}.</li>
 *   <li>{@code additionalContext} exists only on PreToolUse, PostToolUse, UserPromptSubmit,
 *       SessionStart and SubagentStart; elsewhere context goes to {@code systemMessage}.</li>
 *   <li>Stop and SubagentStop read stdout as JSON, so "no opinion" there is {@code {}}.</li>
 *   <li>SessionEnd has no output schema: whatever Warden decides there is a stderr note.</li>
 *   <li>PreToolUse rejects {@code permissionDecision: "ask"} ("unsupported permissionDecision:ask",
 *       the hook's output then counts for nothing), so an ask there is a deny; on PermissionRequest
 *       no opinion leaves Codex's own approval prompt to ask.</li>
 *   <li>PreToolUse runs {@code updatedInput} only beside {@code permissionDecision: "allow"}: a
 *       rewrite is rendered so.</li>
 * </ul>
 */
final class CodexAdapter implements HostAdapter {

    static final ClaudeAdapter.Dialect DIALECT = new ClaudeAdapter.Dialect(
            Map.of(
                    "PreToolUse", BlockChannel.PERMISSION_DENY,
                    "PermissionRequest", BlockChannel.PERMISSION_REQUEST_DENY,
                    "UserPromptSubmit", BlockChannel.DECISION_BLOCK,
                    "PostToolUse", BlockChannel.DECISION_BLOCK,
                    "Stop", BlockChannel.DECISION_BLOCK,
                    "SubagentStop", BlockChannel.DECISION_BLOCK),
            Set.of("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SubagentStart"),
            Set.of("PreToolUse", "PermissionRequest"),
            Set.of(),
            Set.of("SessionEnd"),
            Set.of("Stop", "SubagentStop"),
            Set.of(),
            Set.of("PermissionRequest"));

    /** Codex's tool names in hook payloads by kind. */
    public static final ToolNames TOOLS = new ToolNames(Set.of("Bash"), Set.of("spawn_agent"), Set.of("apply_patch"),
            Set.of(), "mcp__");

    private final ClaudeAdapter protocol = new ClaudeAdapter("codex", DIALECT, TOOLS, Set.of("PreToolUse"));

    @Override
    public String id() {
        return "codex";
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return protocol.nativeEventOf(payload);
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        return protocol.normalize(nativeEvent, event, payload, raw, workspaceRoot);
    }

    @Override
    public Capability capability(String nativeEvent) {
        return protocol.capability(nativeEvent);
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        return protocol.render(nativeEvent, verdict);
    }
}
