package dev.agentwarden.host.augment;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.host.claude.ClaudeAdapter.BlockChannel;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.json.Json;
import dev.agentwarden.verdict.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Augment's CLI ({@code auggie}, npm {@code @augmentcode/auggie}; read from its docs and the shipped
 * 0.36.0 bundle, never run: its models go through Augment's service). Claude-compatible output with
 * its own input and a few differences:
 * <ul>
 *   <li>Input: {@code hook_event_name}, {@code conversation_id} (the session), {@code workspace_roots};
 *       {@code PromptSubmit} (not UserPromptSubmit) carries {@code user_prompt}; no subagent events.</li>
 *   <li>PreToolUse: {@code hookSpecificOutput.permissionDecision: "deny"} refuses the tool.
 *       PostToolUse and Stop read {@code decision}/{@code reason} <em>inside</em>
 *       {@code hookSpecificOutput} (Claude puts them at the top level), so Warden writes them there.</li>
 *   <li>Context is read from {@code hookSpecificOutput.additionalContext} on PostToolUse and SessionStart.</li>
 *   <li>{@code continue: false} stops on any event: a block on PromptSubmit, and a halt everywhere.</li>
 * </ul>
 */
final class AugmentAdapter implements HostAdapter {
    /** Augment's tool names by kind (MCP tools are flagged {@code is_mcp_tool}, not prefixed). */
    public static final ToolNames TOOLS = new ToolNames(Set.of("launch-process"), Set.of("sub-agent"),
            Set.of("str-replace-editor", "save-file", "remove-files"), Set.of("view"), null);

    private static final String PREFIX = "[warden] ";

    /** Blocks and context as Augment reads them; PostToolUse, Stop and PromptSubmit are rendered here. */
    static final ClaudeAdapter.Dialect DIALECT = new ClaudeAdapter.Dialect(
            Map.of("PreToolUse", BlockChannel.PERMISSION_DENY),
            Set.of("PostToolUse", "SessionStart"), Set.of(), Set.of("PreToolUse"), Set.of(), Set.of(),
            Set.of("PreToolUse"), Set.of());

    /** Events whose block is {@code hookSpecificOutput.decision: "block"}. */
    static final Set<String> SPECIFIC_DECISION = Set.of("PostToolUse", "Stop");

    private final ClaudeAdapter claude = new ClaudeAdapter("augment", DIALECT, TOOLS, Set.of("PreToolUse"));

    @Override
    public String id() {
        return "augment";
    }

    @Override
    public String nativeEventOf(Map<String, Object> payload) {
        return claude.nativeEventOf(payload);
    }

    @Override
    public HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                               String workspaceRoot) {
        HookEvent e = claude.normalize(nativeEvent, event, payload, raw, workspaceRoot);
        String session = payload.get("conversation_id") instanceof String s ? s : e.sessionId();
        String prompt = payload.get("user_prompt") instanceof String p ? p : e.prompt();
        List<?> roots = payload.get("workspace_roots") instanceof List<?> l ? l : List.of();
        String cwd = e.cwd() == null && !roots.isEmpty() && roots.get(0) instanceof String r ? r : e.cwd();
        return new HookEvent(e.host(), e.event(), e.nativeEvent(), session, e.sessionSource(), e.agentId(),
                e.agentIdMalformed(), e.agentType(), e.parentAgentId(), e.toolName(), e.toolKind(), e.toolInput(),
                e.shellCommand(), e.filePaths(), prompt, e.lastAssistantMessage(), e.stopHookActive(), cwd,
                e.transcriptPath(), e.workspaceRoot(), e.payload(), e.rawPayload());
    }

    @Override
    public Capability capability(String nativeEvent) {
        boolean block = DIALECT.block().containsKey(nativeEvent) || SPECIFIC_DECISION.contains(nativeEvent)
                || "PromptSubmit".equals(nativeEvent);
        return new Capability(block, DIALECT.context().contains(nativeEvent), DIALECT.ask().contains(nativeEvent),
                claude.capability(nativeEvent).canRewrite());
    }

    @Override
    public HostResponse render(String nativeEvent, Verdict verdict) {
        boolean refuse = verdict.kind() == Verdict.Kind.BLOCK || verdict.kind() == Verdict.Kind.ASK;
        if (refuse && SPECIFIC_DECISION.contains(nativeEvent)) {
            Map<String, Object> specific = new LinkedHashMap<>();
            specific.put("hookEventName", nativeEvent);
            specific.put("decision", "block");
            specific.put("reason", PREFIX + verdict.reason());
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("hookSpecificOutput", specific);
            HostResponse r = new HostResponse(0, Json.write(out), "");
            return verdict.kind() == Verdict.Kind.ASK
                    ? r.withStderr("warden: ask rendered as a block on " + nativeEvent + " (the host cannot ask there)") : r;
        }
        if (refuse && "PromptSubmit".equals(nativeEvent)) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("continue", Boolean.FALSE);
            out.put("stopReason", PREFIX + verdict.reason());
            return new HostResponse(0, Json.write(out), "");
        }
        return claude.render(nativeEvent, verdict);
    }
}
