package dev.agentwarden.host.claude;

import dev.agentwarden.host.Host;
import java.util.List;

/**
 * Representative Claude Code events for the start-up archive: tool calls that pass and that are
 * refused, a prompt, subagent start and stop, stops, a payload that is not JSON.
 */
final class ClaudeTraining implements Host.TrainingPayloads {

    /** A commit that skips its hooks: refused by the default manifest's builtin, whatever the project. */
    @Override
    public String[] probe() {
        return new String[] {"{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}", "\"permissionDecision\":\"deny\""};
    }

    @Override
    public List<String[]> payloads(String trustedCwd, String cwdDir) {
        String trusted = escape(trustedCwd);
        String cwd = escape(cwdDir);
        return List.of(
                new String[] {"PreToolUse", "{\"session_id\":\"t\",\"cwd\":\"" + trusted + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo hi\"}}"},
                new String[] {"Stop", "{\"session_id\":\"t\",\"cwd\":\"" + trusted + "\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}"},
                new String[] {"PreToolUse", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"permission_mode\":\"default\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo hi\"},"
                        + "\"tool_use_id\":\"toolu_1\"}"},
                new String[] {"PreToolUse", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}"},
                new String[] {"UserPromptSubmit", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\","
                        + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hello \\u00e9\"}"},
                new String[] {"PostToolUse", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PostToolUse\","
                        + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{\"stdout\":\"a\\nb\"},\"duration_ms\":3}"},
                new String[] {"PreToolUse", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"tool_name\":\"Agent\",\"tool_input\":{\"prompt\":\"p\",\"subagent_type\":\"general-purpose\"}}"},
                new String[] {"SubagentStart", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"SubagentStart\","
                        + "\"agent_id\":\"a1\",\"agent_type\":\"general-purpose\"}"},
                new String[] {"PreToolUse", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"agent_id\":\"a1\",\"tool_name\":\"Task\",\"tool_input\":{\"prompt\":\"p\"}}"},
                new String[] {"SubagentStop", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"SubagentStop\","
                        + "\"agent_id\":\"a1\",\"agent_type\":\"general-purpose\",\"stop_hook_active\":false,"
                        + "\"last_assistant_message\":\"done\"}"},
                new String[] {"Stop", "{\"session_id\":\"t\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"Stop\",\"stop_hook_active\":false}"},
                new String[] {"PreToolUse", "not json"});
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
