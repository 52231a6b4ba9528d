package dev.agentwarden.host.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.McpToolName;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Gemini CLI's {@code mcp_context}: the exact server and tool where the name splits early, both readings where they disagree. */
class GeminiMcpContextTest {

    private static Map<String, Object> context(String server, String tool) {
        return Map.of("server_name", server, "tool_name", tool, "command", "node", "args", List.of("index.js"));
    }

    private static HookEvent normalize(String payload) {
        return new GeminiAdapter().normalize("BeforeTool", EventName.PRE_TOOL_USE, Json.parseObject(payload),
                payload.getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
    }

    @Test
    void readings_serverWithUnderscore_isTheContextsExactReading() {
        assertThat(GeminiMcpContext.readings("mcp_my_server_echo", context("my_server", "echo")))
                .containsExactly(new McpToolName("my_server", "echo"));
        assertThat(McpToolName.of("mcp_my_server_echo", ToolKind.MCP)).as("the name alone")
                .isEqualTo(new McpToolName("my", "server_echo"));
    }

    @Test
    void readings_toolWithUnderscore_andServerStartingWithMcp_flattenAsGeminiDoes() {
        assertThat(GeminiMcpContext.readings("mcp_everything_get-sum", context("everything", "get-sum")))
                .containsExactly(new McpToolName("everything", "get-sum"));
        // Gemini adds no second mcp_ before a name that starts with one
        assertThat(GeminiMcpContext.readings("mcp_x_tool", context("mcp_x", "tool")))
                .containsExactly(new McpToolName("mcp_x", "tool"));
    }

    @Test
    void flattened_invalidUnitsBecomeUnderscores_andLongNamesAreCut() {
        assertThat(GeminiMcpContext.flattened("my server", "get sum")).isEqualTo("mcp_my_server_get_sum");
        assertThat(GeminiMcpContext.flattened("srv", "caf\u00e9.v1:x-y")).isEqualTo("mcp_srv_caf_.v1:x-y");
        assertThat(GeminiMcpContext.flattened("s", "\ud83d\ude00")).as("a surrogate pair is two units").isEqualTo("mcp_s___");
        String server = "a".repeat(40);
        String tool = "b".repeat(40);
        String cut = GeminiMcpContext.flattened(server, tool);
        assertThat(cut).isEqualTo("mcp_" + "a".repeat(26) + "..." + "b".repeat(30)).hasSize(63);
        assertThat(GeminiMcpContext.readings(cut, context(server, tool))).containsExactly(new McpToolName(server, tool));
        assertThat(GeminiMcpContext.flattened("a".repeat(29), "b".repeat(29))).hasSize(63).doesNotContain("...");
    }

    @Test
    void readings_contextThatDoesNotFlattenIntoTheName_keepsBoth_contextFirst() {
        assertThat(GeminiMcpContext.readings("mcp_github_delete_repo", context("safe", "echo")))
                .containsExactly(new McpToolName("safe", "echo"), new McpToolName("github", "delete_repo"));
        assertThat(GeminiMcpContext.readings("run_shell_command", context("safe", "echo")))
                .as("a name that reads as no MCP tool adds no reading").containsExactly(new McpToolName("safe", "echo"));
    }

    @Test
    void readings_unreadableContext_isNone() {
        assertThat(GeminiMcpContext.readings("mcp_a_b", "not an object")).isEmpty();
        assertThat(GeminiMcpContext.readings("mcp_a_b", Map.of("server_name", "a"))).isEmpty();
        assertThat(GeminiMcpContext.readings("mcp_a_b", Map.of("server_name", 7, "tool_name", "b"))).isEmpty();
        assertThat(GeminiMcpContext.readings("mcp_a_b", context("", "b"))).isEmpty();
        assertThat(GeminiMcpContext.readings("mcp_a_b", context("a", "b".repeat(GeminiMcpContext.MAX_NAME_CHARS + 1)))).isEmpty();
        assertThat(GeminiMcpContext.readings("mcp_a_b", context("a".repeat(GeminiMcpContext.MAX_NAME_CHARS), "b")))
                .as("at the limit").hasSize(2);
    }

    @Test
    void normalize_withContext_theEventsMcpNamesAreTheContexts() {
        HookEvent e = normalize("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_my_server_echo\",\"tool_input\":{},"
                + "\"mcp_context\":{\"server_name\":\"my_server\",\"tool_name\":\"echo\",\"command\":\"node\"}}");
        assertThat(e.toolKind()).isEqualTo(ToolKind.MCP);
        assertThat(e.mcpNames()).containsExactly(new McpToolName("my_server", "echo"));
    }

    @Test
    void normalize_withoutContext_fallsBackToTheNamesReading() {
        HookEvent e = normalize("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_my_server_echo\",\"tool_input\":{}}");
        assertThat(e.mcpReadings()).isEmpty();
        assertThat(e.mcpNames()).containsExactly(new McpToolName("my", "server_echo"));
        HookEvent malformed = normalize("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"mcp_my_server_echo\",\"tool_input\":{},"
                + "\"mcp_context\":[\"my_server\"]}");
        assertThat(malformed.mcpNames()).containsExactly(new McpToolName("my", "server_echo"));
    }

    @Test
    void normalize_contextOnAnUnprefixedName_isAnMcpTool_butABuiltInKeepsItsKind() {
        HookEvent bare = normalize("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"echo\",\"tool_input\":{},"
                + "\"mcp_context\":{\"server_name\":\"my_server\",\"tool_name\":\"echo\"}}");
        assertThat(bare.toolKind()).isEqualTo(ToolKind.MCP);
        assertThat(bare.mcpNames()).containsExactly(new McpToolName("my_server", "echo"));
        HookEvent shell = normalize("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"run_shell_command\","
                + "\"tool_input\":{\"command\":\"ls\"},\"mcp_context\":{\"server_name\":\"my_server\",\"tool_name\":\"echo\"}}");
        assertThat(shell.toolKind()).isEqualTo(ToolKind.SHELL);
        assertThat(shell.mcpNames()).containsExactly(new McpToolName("my_server", "echo"));
    }
}
