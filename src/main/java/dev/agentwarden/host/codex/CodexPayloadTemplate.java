package dev.agentwarden.host.codex;

import dev.agentwarden.host.PayloadTemplate;
import dev.agentwarden.host.claude.ClaudePayloadTemplate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Codex's hook payloads as 0.171.0 sends them ({@code testdata/hosts/codex-0.171.0/}): every event
 * carries {@code session_id}, {@code transcript_path}, {@code cwd}, {@code hook_event_name},
 * {@code model} and {@code permission_mode}; all but SessionStart a {@code turn_id}; a tool's
 * response is a string.
 */
final class CodexPayloadTemplate implements PayloadTemplate {
    private static final String TOOL_USE_ID = "call_0000000000000test";

    @Override
    public Map<String, Object> fill(String nativeEvent, Map<String, Object> given, String cwd) {
        Map<String, Object> p = new LinkedHashMap<>();
        Object session = given.getOrDefault("session_id", TEST_SESSION_ID);
        p.put("session_id", session);
        if (!"SessionStart".equals(nativeEvent)) {
            p.put("turn_id", "00000000-0000-7000-8000-00000000turn");
        }
        p.put("transcript_path", "/home/user/.codex/sessions/rollout-" + session + ".jsonl");
        p.put("cwd", cwd);
        p.put("hook_event_name", nativeEvent);
        p.put("model", "gpt-5.2-codex");
        p.put("permission_mode", "default");
        switch (nativeEvent) {
            case "SessionStart":
                p.put("source", "startup");
                break;
            case "UserPromptSubmit":
                p.put("prompt", "");
                break;
            case "PreToolUse":
            case "PermissionRequest":
                ClaudePayloadTemplate.putBashCall(p, null, TOOL_USE_ID);
                break;
            case "PostToolUse":
                ClaudePayloadTemplate.putBashCall(p, "", TOOL_USE_ID);
                break;
            case "Stop":
                p.put("stop_hook_active", false);
                p.put("last_assistant_message", "");
                break;
            case "SubagentStart":
                p.put("agent_id", "00000000-0000-7000-8000-0000000agent");
                p.put("agent_type", "default");
                break;
            case "SubagentStop":
                p.put("agent_transcript_path", "/home/user/.codex/sessions/rollout-agent.jsonl");
                p.put("stop_hook_active", false);
                p.put("agent_id", "00000000-0000-7000-8000-0000000agent");
                p.put("agent_type", "default");
                p.put("last_assistant_message", "");
                break;
            default:
                break;
        }
        p.putAll(given);
        return p;
    }
}
