package dev.agentwarden.host.droid;

import dev.agentwarden.host.PayloadTemplate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Droid's hook payloads as 0.225.2 sends them ({@code testdata/hosts/droid-0.225.2/}): every event
 * carries {@code session_id}, {@code transcript_path}, {@code cwd}, {@code permission_mode} and
 * {@code hook_event_name}, then its own fields; tool calls have no {@code tool_use_id}.
 */
final class DroidPayloadTemplate implements PayloadTemplate {
    private static final String MESSAGE_ID = "00000000-0000-4000-8000-00000message";

    @Override
    public Map<String, Object> fill(String nativeEvent, Map<String, Object> given, String cwd) {
        Map<String, Object> p = new LinkedHashMap<>();
        Object session = given.getOrDefault("session_id", TEST_SESSION_ID);
        p.put("session_id", session);
        p.put("transcript_path", "/home/user/.factory/sessions/" + cwd.replace('/', '-') + "/" + session + ".jsonl");
        p.put("cwd", cwd);
        p.put("permission_mode", "SessionStart".equals(nativeEvent) ? "off" : "auto-high");
        p.put("hook_event_name", nativeEvent);
        switch (nativeEvent) {
            case "SessionStart":
                p.put("source", "startup");
                break;
            case "PreToolUse":
                p.put("tool_name", "Execute");
                p.put("tool_input", new LinkedHashMap<>());
                break;
            case "PostToolUse":
                p.put("tool_name", "Execute");
                p.put("tool_input", new LinkedHashMap<>());
                p.put("tool_response", "");
                break;
            case "Stop":
                p.put("message_id", MESSAGE_ID);
                p.put("stop_hook_active", false);
                p.put("tool_execution_count", 0L);
                p.put("elapsed_time", 0L);
                break;
            case "SessionEnd":
                p.put("message_id", MESSAGE_ID);
                p.put("reason", "other");
                p.put("session_duration_ms", 0L);
                p.put("message_count", 0L);
                break;
            default:
                break;
        }
        p.putAll(given);
        return p;
    }
}
