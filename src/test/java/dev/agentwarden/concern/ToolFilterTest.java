package dev.agentwarden.concern;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.gemini.GeminiAdapter;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code tools:} filter: exact names, {@code *} globs, and MCP tools by their canonical name on every host. */
class ToolFilterTest {

    private static ConcernSpec filtered(String... tools) {
        return new ConcernSpec("c", "builtin:rule", List.of(), false, Posture.BLOCKING, Set.of(tools), 1000, false, 0, Map.of());
    }

    @Test
    void glob_starMatchesAnyRun_andTheWholeNameMustMatch() {
        assertThat(ToolGlob.matches("mcp__github__*", "mcp__github__create_issue")).isTrue();
        assertThat(ToolGlob.matches("mcp__github__*", "mcp__github__")).isTrue();
        assertThat(ToolGlob.matches("mcp__github__*", "mcp__gitlab__create_issue")).isFalse();
        assertThat(ToolGlob.matches("mcp__*__delete_*", "mcp__github__delete_repo")).isTrue();
        assertThat(ToolGlob.matches("mcp__*__delete_*", "mcp__github__create_repo")).isFalse();
        assertThat(ToolGlob.matches("mcp__*__delete_*", "mcp__a__b__delete_x")).isTrue();
        assertThat(ToolGlob.matches("*_file", "write_file")).isTrue();
        assertThat(ToolGlob.matches("*_file", "write_files")).isFalse();
        assertThat(ToolGlob.matches("Bash", "Bash")).isTrue();
        assertThat(ToolGlob.matches("a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")).isFalse();
    }

    @Test
    void mcpGlob_matchesEveryHostsSpelling() {
        ConcernSpec c = filtered("mcp__everything__*");
        assertThat(c.appliesToTool("mcp__everything__echo", ToolKind.MCP)).isTrue();
        assertThat(c.appliesToTool("mcp_everything_echo", ToolKind.MCP)).isTrue();
        assertThat(c.appliesToTool("MCP:everything:echo", ToolKind.MCP)).isTrue();
        assertThat(c.appliesToTool("mcp__github__echo", ToolKind.MCP)).isFalse();
        assertThat(c.appliesToTool("Bash", ToolKind.SHELL)).isFalse();
        assertThat(c.appliesToTool(null, null)).isTrue();
    }

    @Test
    void exactCanonicalName_matchesAnotherHostsSpelling_butOnlyForMcpTools() {
        ConcernSpec c = filtered("mcp__github__delete_repo", "Bash");
        assertThat(c.appliesToTool("mcp_github_delete_repo", ToolKind.MCP)).isTrue();
        assertThat(c.appliesToTool("mcp_github_delete_repo", ToolKind.OTHER)).isFalse();
        assertThat(c.appliesToTool("Bash", ToolKind.SHELL)).isTrue();
        assertThat(c.appliesToTool("Read", ToolKind.FILE_READ)).isFalse();
    }

    @Test
    void globOnAPlainName_andNoFilter() {
        assertThat(filtered("*_file").appliesToTool("write_file", ToolKind.FILE_EDIT)).isTrue();
        assertThat(filtered().appliesToTool("anything", ToolKind.OTHER)).isTrue();
        assertThat(filtered("*").appliesToTool("anything", ToolKind.OTHER)).isTrue();
    }

    private static HookEvent gemini(String toolName, String server, String tool) {
        String payload = "{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"" + toolName + "\",\"tool_input\":{}"
                + (server == null ? "" : ",\"mcp_context\":{\"server_name\":\"" + server + "\",\"tool_name\":\"" + tool + "\"}")
                + "}";
        return new GeminiAdapter().normalize("BeforeTool", EventName.PRE_TOOL_USE, Json.parseObject(payload),
                payload.getBytes(StandardCharsets.UTF_8), "/home/dev/proj");
    }

    @Test
    void mcpGlob_onGeminisUnderscoreServer_matchesByItsMcpContext() {
        ConcernSpec c = filtered("mcp__my_server__*");
        assertThat(c.appliesTo(gemini("mcp_my_server_echo", "my_server", "echo"))).isTrue();
        assertThat(c.appliesTo(gemini("mcp_my_server_echo", null, null))).as("by name alone the server is my").isFalse();
        assertThat(filtered("mcp__my_server__echo").appliesTo(gemini("mcp_my_server_echo", "my_server", "echo"))).isTrue();
        assertThat(filtered("mcp__my__*").appliesTo(gemini("mcp_my_server_echo", "my_server", "echo")))
                .as("an agreeing context is the one reading").isFalse();
    }

    @Test
    void mcpGlob_onADisagreeingContext_matchesEitherReading() {
        assertThat(filtered("mcp__github__delete_*").appliesTo(gemini("mcp_github_delete_repo", "safe", "echo"))).isTrue();
        assertThat(filtered("mcp__safe__*").appliesTo(gemini("mcp_github_delete_repo", "safe", "echo"))).isTrue();
        assertThat(filtered("mcp__other__*").appliesTo(gemini("mcp_github_delete_repo", "safe", "echo"))).isFalse();
    }
}
