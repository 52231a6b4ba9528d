package dev.agentwarden.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.host.gemini.GeminiAdapter;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The event view rules read: every field present on every event, with the documented values. */
class RuleViewTest {

    private static Map<String, Object> view(String nativeEvent, EventName event, String payload) {
        HookEvent e = new ClaudeAdapter("claude").normalize(nativeEvent, event, Json.parseObject(payload),
                payload.getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
        return RuleView.values(e);
    }

    @Test
    void shellCommand_wordsAndCommands_asTheShellParserReadsThem() {
        Map<String, Object> v = view("PreToolUse", EventName.PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"session_id\":\"s1\","
                + "\"tool_input\":{\"command\":\"cd app && A=1 npm 'run' test | tee \\\"out log\\\"\"}}");
        assertThat(v).containsEntry("tool.name", "Bash").containsEntry("tool.kind", "shell").containsEntry("event", "pre_tool_use")
                .containsEntry("host", "claude").containsEntry("session.id", "s1").containsEntry("subagent.depth", 0L)
                .containsEntry("prompt", "").containsEntry("mcp.server", "");
        assertThat(v.get("commands")).isEqualTo(List.of("cd", "npm", "tee"));
        assertThat(v.get("words")).isEqualTo(List.of("cd", "app", "npm", "run", "test", "tee", "out log"));
    }

    @Test
    void everyField_isPresent_onEveryEvent() {
        Map<String, Object> v = view("UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"hi\"}");
        assertThat(v.keySet()).containsExactlyInAnyOrderElementsOf(RuleField.names());
        assertThat(v).containsEntry("prompt", "hi").containsEntry("tool.name", "").containsEntry("command", "")
                .containsEntry("tool.input", Map.of()).containsEntry("words", List.of());
    }

    @Test
    void mcpTool_serverAndTool_andSubagentDepth() {
        Map<String, Object> v = view("PreToolUse", EventName.PRE_TOOL_USE, "{\"tool_name\":\"mcp__github__create_issue\","
                + "\"agent_id\":\"a1\",\"tool_input\":{\"title\":\"x\"}}");
        assertThat(v).containsEntry("tool.kind", "mcp").containsEntry("mcp.server", "github")
                .containsEntry("mcp.tool", "create_issue").containsEntry("mcp.name", "mcp__github__create_issue")
                .containsEntry("subagent.depth", 1L)
                .containsEntry("command", "");
    }

    @Test
    void paths_insideTheProjectAreRelative_outsideAbsolute_noLinkFollowed() {
        Map<String, Object> v = view("PreToolUse", EventName.PRE_TOOL_USE, "{\"tool_name\":\"Write\",\"cwd\":\"/home/dev/proj/sub\","
                + "\"tool_input\":{\"file_path\":\"../app/.env\"}}");
        assertThat(v.get("paths")).isEqualTo(List.of("app/.env"));
        Map<String, Object> outside = view("PreToolUse", EventName.PRE_TOOL_USE, "{\"tool_name\":\"Write\","
                + "\"tool_input\":{\"file_path\":\"/etc/../etc/passwd\"}}");
        assertThat(outside.get("paths")).isEqualTo(List.of("/etc/passwd"));
        assertThat(outside).containsEntry("tool.kind", "edit");
    }

    private static HookEvent gemini(String toolName, String server, String tool) {
        String payload = "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"" + toolName + "\",\"tool_input\":{},"
                + "\"mcp_context\":{\"server_name\":\"" + server + "\",\"tool_name\":\"" + tool + "\"}}";
        return new GeminiAdapter().normalize("BeforeTool", EventName.PRE_TOOL_USE, Json.parseObject(payload),
                payload.getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
    }

    @Test
    void geminiMcpTool_serverWithUnderscore_isReadFromItsMcpContext() {
        Map<String, Object> v = RuleView.values(gemini("mcp_my_server_echo", "my_server", "echo"));
        assertThat(v).containsEntry("tool.kind", "mcp").containsEntry("mcp.server", "my_server")
                .containsEntry("mcp.tool", "echo").containsEntry("mcp.name", "mcp__my_server__echo")
                .containsEntry("tool.name", "mcp_my_server_echo");
    }

    private static Decision evaluate(String when, HookEvent e) throws Exception {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("when", when);
        settings.put("action", "deny");
        settings.put("reason", "{mcp.name}");
        ConcernSpec spec = new ConcernSpec("r", "builtin:rule", List.of(), false, Posture.BLOCKING, Set.of(), 10_000, false, 0, Map.of());
        return Rules.create(Rules.parse(settings)).evaluate(new ConcernContext(e, spec, MutableClock.at("2026-12-07T14:00:00Z"),
                Path.of("/nonexistent/.warden"), Map.of())).decision();
    }

    @Test
    void rule_onADisagreeingContext_holdsUnderEitherReading() throws Exception {
        HookEvent forged = gemini("mcp_github_delete_repo", "safe", "echo");
        assertThat(evaluate("mcp.server == \"github\" && mcp.tool == \"delete_repo\"", forged)).isEqualTo(Decision.BLOCK);
        assertThat(evaluate("mcp.server == \"safe\" && mcp.tool == \"echo\"", forged)).isEqualTo(Decision.BLOCK);
        assertThat(evaluate("mcp.server == \"other\"", forged)).isEqualTo(Decision.ALLOW);
        assertThat(evaluate("mcp.server == \"my\"", gemini("mcp_my_server_echo", "my_server", "echo")))
                .as("an agreeing context is the one reading").isEqualTo(Decision.ALLOW);
    }
}
