package dev.agentwarden.host.claude;

import dev.agentwarden.host.PayloadTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Claude Code's hook payloads as 2.1.332 sends them ({@code testdata/hosts/claude-code-2.1.332/}):
 * every event carries {@code session_id}, {@code transcript_path}, {@code cwd} and
 * {@code hook_event_name}; all but SessionStart a {@code prompt_id}; the events of a turn a
 * {@code permission_mode} (and, but for the prompt, an {@code effort}); each event its own fields.
 * Events from inside a subagent also carry {@code agent_id} and {@code agent_type}: a case that
 * means one gives them.
 */
public final class ClaudePayloadTemplate implements PayloadTemplate {
    private static final String TOOL_USE_ID = "toolu_00000000000000000000test";

    /**
     * A call of the shell tool with an empty input, in the fields of Claude's protocol (Codex's
     * too): {@code tool_name}, {@code tool_input}, {@code tool_response} when {@code response} is
     * not {@code null}, and {@code tool_use_id}, in that order.
     */
    public static void putBashCall(Map<String, Object> p, Object response, String toolUseId) {
        p.put("tool_name", "Bash");
        p.put("tool_input", new LinkedHashMap<>());
        if (response != null) {
            p.put("tool_response", response);
        }
        p.put("tool_use_id", toolUseId);
    }

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
        if (inTurn && !"UserPromptSubmit".equals(nativeEvent)) {
            Map<String, Object> effort = new LinkedHashMap<>();
            effort.put("level", "medium");
            p.put("effort", effort);
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
                putBashCall(p, null, TOOL_USE_ID);
                break;
            case "PostToolUse":
            case "PostToolUseFailure":
                putBashCall(p, new LinkedHashMap<>(), TOOL_USE_ID);
                p.put("duration_ms", 0L);
                break;
            case "Stop":
                p.put("stop_hook_active", false);
                p.put("last_assistant_message", "");
                p.put("background_tasks", new ArrayList<>());
                p.put("session_crons", new ArrayList<>());
                break;
            case "SubagentStop":
                p.put("stop_hook_active", false);
                p.put("agent_transcript_path", "/home/user/.claude/projects/" + cwd.replace('/', '-') + "/" + session
                        + "/subagents/agent-a0000000000test.jsonl");
                p.put("last_assistant_message", "");
                p.put("background_tasks", new ArrayList<>());
                p.put("session_crons", new ArrayList<>());
                break;
            default:
                break;
        }
        p.putAll(given);
        return p;
    }
}
