package dev.agentwarden.host.copilot;

import dev.agentwarden.host.PayloadTemplate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Copilot CLI 1.0.102's hook payloads ({@code testdata/hosts/copilot-cli-1.0.102/}). A camelCase
 * event carries {@code sessionId}, a millisecond {@code timestamp} and {@code cwd}; a PascalCase
 * one the VS Code format's {@code hook_event_name}, {@code session_id}, an ISO {@code timestamp}
 * and {@code cwd}. Tool events add the tool and its input, stops their reason.
 */
final class CopilotPayloadTemplate implements PayloadTemplate {
    private static final long TEST_TIMESTAMP_MS = 1796108968434L;

    @Override
    public Map<String, Object> fill(String nativeEvent, Map<String, Object> given, String cwd) {
        Map<String, Object> p = new LinkedHashMap<>();
        boolean vsCode = !nativeEvent.isEmpty() && Character.isUpperCase(nativeEvent.charAt(0));
        if (vsCode) {
            p.put("hook_event_name", nativeEvent);
            p.put("session_id", given.getOrDefault("session_id", TEST_SESSION_ID));
            p.put("timestamp", "2026-12-01T07:09:28.434Z");
        } else {
            p.put("sessionId", given.getOrDefault("sessionId", TEST_SESSION_ID));
            p.put("timestamp", TEST_TIMESTAMP_MS);
        }
        p.put("cwd", cwd);
        switch (nativeEvent) {
            case "sessionStart":
            case "SessionStart":
                p.put("source", "new");
                break;
            case "userPromptSubmitted":
            case "UserPromptSubmit":
                p.put("prompt", "");
                break;
            case "preToolUse":
                p.put("toolName", "bash");
                p.put("toolArgs", new LinkedHashMap<>());
                break;
            case "PreToolUse":
                p.put("tool_name", "Bash");
                p.put("tool_input", new LinkedHashMap<>());
                break;
            case "permissionRequest":
            case "PermissionRequest":
                p.put("hookName", "permissionRequest");
                p.put("toolName", "bash");
                p.put("toolInput", new LinkedHashMap<>());
                p.put("permissionSuggestions", new java.util.ArrayList<>());
                break;
            case "postToolUse":
                p.put("toolName", "bash");
                p.put("toolArgs", new LinkedHashMap<>());
                p.put("toolResult", Map.of("resultType", "success", "textResultForLlm", ""));
                break;
            case "agentStop":
                p.put("stopReason", "end_turn");
                p.put("stop_hook_active", false);
                break;
            case "Stop":
                p.put("stop_reason", "end_turn");
                p.put("stop_hook_active", false);
                break;
            case "sessionEnd":
            case "SessionEnd":
                p.put("reason", "complete");
                break;
            default:
                break;
        }
        p.putAll(given);
        return p;
    }
}
