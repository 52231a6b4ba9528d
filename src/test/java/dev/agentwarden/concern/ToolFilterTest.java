package dev.agentwarden.concern;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.ToolKind;
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
}
