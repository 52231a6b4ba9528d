package dev.agentwarden.host.claude;

import dev.agentwarden.host.PayloadTemplate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Claude Code's hook payloads as 2.1.332 sends them ({@code testdata/hosts/claude-code-2.1.332/}):
 * every event carries {@code session_id}, {@code transcript_path}, {@code cwd} and
 * {@code hook_event_name}; all but SessionStart a {@code prompt_id}; the events of a turn a
 * {@code permission_mode}; each event its own fields.
 */
public final class ClaudePayloadTemplate implements PayloadTemplate {
    @Override
    public Map<String, Object> fill(String nativeEvent, Map<String, Object> given, String cwd) {
        Map<String, Object> p = new LinkedHashMap<>();
        Object session = given.getOrDefault("session_id", TEST_SESSION_ID);
        p.put("session_id", session);
        p.put("transcript_path", "/home/user/.claude/projects/" + cwd.replace('/', '-') + "/" + session + ".jsonl");
        p.put("cwd", cwd);
        if (!"SessionStart".equals(nativeEvent)) {
            p.put("prompt_id", "00000000-0000-4000-8000-0000000prompt");
        }
        boolean inTurn = !"SessionStart".equals(nativeEvent) && !"SessionEnd".equals(nativeEvent)
                && !"SubagentStart".equals(nativeEvent);
        if (inTurn) {
            p.put("permission_mode", "default");
        }
        if ("SubagentStart".equals(nativeEvent) || "SubagentStop".equals(nativeEvent)) {
            p.put("agent_id", "a0000000000test");
            p.put("agent_type", "general-purpose");
        }
        p.put("hook_event_name", nativeEvent);
        switch (nativeEvent) {
            case "SessionStart":
                p.put("source", "startup");
                break;
            case "SessionEnd":
                p.put("reason", "other");
                break;
            case "UserPromptSubmit":
                p.put("prompt", "");
                break;
            case "PreToolUse":
            case "PermissionRequest":
                p.put("tool_name", "Bash");
                p.put("tool_input", new LinkedHashMap<>());
                p.put("tool_use_id", "toolu_00000000000000000000test");
                break;
            case "PostToolUse":
            case "PostToolUseFailure":
                p.put("tool_name", "Bash");
                p.put("tool_input", new LinkedHashMap<>());
                p.put("tool_response", new LinkedHashMap<>());
                p.put("tool_use_id", "toolu_00000000000000000000test");
                break;
            case "Stop":
                p.put("stop_hook_active", false);
                p.put("last_assistant_message", "");
                break;
            case "SubagentStop":
                p.put("stop_hook_active", false);
                p.put("agent_transcript_path", "/home/user/.claude/projects/" + cwd.replace('/', '-') + "/" + session
                        + "/subagents/agent-a0000000000test.jsonl");
                p.put("last_assistant_message", "");
                break;
            default:
                break;
        }
        p.putAll(given);
        return p;
    }
}
