package dev.agentwarden.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every host's MCP spelling normalizes to one server, tool and canonical name. */
class McpToolNameTest {

    @Test
    void claudeCodexSpelling_splitsAtTheFirstDoubleUnderscore() {
        McpToolName n = McpToolName.of("mcp__github__create_issue", ToolKind.MCP);
        assertThat(n).isEqualTo(new McpToolName("github", "create_issue"));
        assertThat(n.canonical()).isEqualTo("mcp__github__create_issue");
    }

    @Test
    void geminiSpelling_singleUnderscores_becomesCanonical() {
        McpToolName n = McpToolName.of("mcp_everything_get_sum", ToolKind.MCP);
        assertThat(n).isEqualTo(new McpToolName("everything", "get_sum"));
        assertThat(n.canonical()).isEqualTo("mcp__everything__get_sum");
    }

    @Test
    void namesTheRealBinariesSent_forTheReferenceServersGetSum() {
        // Claude Code 2.1.197/2.1.332 (ClaudeMcpRulesE2EIT) and Gemini CLI 0.61.0 (GeminiMcpRulesE2EIT)
        assertThat(McpToolName.of("mcp__everything__get-sum", ToolKind.MCP)).isEqualTo(new McpToolName("everything", "get-sum"));
        assertThat(McpToolName.of("mcp_everything_get-sum", ToolKind.MCP)).isEqualTo(new McpToolName("everything", "get-sum"));
    }

    @Test
    void cursorSpelling_colons_withOrWithoutServer() {
        assertThat(McpToolName.of("MCP:github:delete_repo", ToolKind.MCP)).isEqualTo(new McpToolName("github", "delete_repo"));
        assertThat(McpToolName.of("MCP:delete_repo", ToolKind.MCP).canonical()).isEqualTo("mcp____delete_repo");
    }

    @Test
    void notAnMcpTool_hasNoMcpName() {
        assertThat(McpToolName.of("mcp__github__x", ToolKind.OTHER)).isNull();
        assertThat(McpToolName.of(null, ToolKind.MCP)).isNull();
        assertThat(McpToolName.of("Bash", ToolKind.MCP)).isNull();
        assertThat(McpToolName.of("mcp__github", ToolKind.MCP)).isEqualTo(new McpToolName("github", ""));
    }
}
