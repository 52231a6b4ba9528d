package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each host's own MCP config file, and which file each server came from. */
class HostMcpConfigsTest {
    @TempDir
    Path project;
    @TempDir
    Path home;

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void read_everyHostsConfigFormat_withItsSource() throws IOException {
        write(project.resolve(".mcp.json"), "{\"mcpServers\":{\"squad\":{\"command\":\"npx\",\"args\":[\"-y\",\"x\"],"
                + "\"env\":{\"TOKEN\":\"t\"}}}}");
        write(home.resolve(".claude.json"), "{\"mcpServers\":{\"u\":{\"type\":\"http\",\"url\":\"https://h/mcp\","
                + "\"headers\":{\"Authorization\":\"Bearer z\"}}},\"projects\":{\"" + project + "\":{\"mcpServers\":"
                + "{\"local\":{\"command\":\"l\"}}}}}");
        write(home.resolve(".codex/config.toml"), "model = \"o3\"\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n"
                + "args = [\"--port\", \"1\"] # comment\nenv = { KEY = \"v\" }\n\n[mcp_servers.remote]\nurl = 'https://r/mcp'\n"
                + "[mcp_servers.remote.http_headers]\nX-Key = \"k\"\n");
        write(project.resolve(".gemini/settings.json"), "{\"mcpServers\":{\"g\":{\"httpUrl\":\"http://127.0.0.1:1/mcp\"},"
                + "\"old\":{\"url\":\"http://127.0.0.1:1/sse\"}}}");
        write(home.resolve(".copilot/mcp-config.json"), "{\"mcpServers\":{\"c\":{\"type\":\"local\",\"command\":\"c\"}}}");
        write(project.resolve(".cursor/mcp.json"), "{\"mcpServers\":{\"k\":{\"url\":\"http://127.0.0.1:2/mcp\"}}}");
        HostMcpConfigs c = HostMcpConfigs.read(project, home, Map.of(), null);
        assertThat(c.problems()).isEmpty();
        assertThat(c.servers()).extracting(McpServerConfig::key).containsExactly("claude/squad", "claude/u",
                "claude/local", "codex/docs", "codex/remote", "gemini/g", "gemini/old", "copilot/c", "cursor/k");
        McpServerConfig squad = c.servers().get(0);
        assertThat(squad.projectScoped()).isTrue();
        assertThat(squad.source()).isEqualTo(project.resolve(".mcp.json").toString());
        assertThat(squad.args()).containsExactly("-y", "x");
        assertThat(c.servers().get(2).source()).endsWith(".claude.json#projects[" + project + "]");
        McpServerConfig docs = c.servers().get(3);
        assertThat(docs.args()).containsExactly("--port", "1");
        assertThat(docs.env()).containsEntry("KEY", "v");
        assertThat(c.servers().get(4).headers()).containsEntry("X-Key", "k");
        assertThat(c.servers().get(4).transport()).isEqualTo(McpServerConfig.HTTP);
        assertThat(c.servers().get(6).transport()).isEqualTo("sse");
    }

    @Test
    void read_oneHost_ignoresTheOthers_andReportsBrokenFiles() throws IOException {
        write(project.resolve(".mcp.json"), "{not json");
        write(project.resolve(".cursor/mcp.json"), "{\"mcpServers\":{\"k\":{\"url\":\"http://127.0.0.1:2/mcp\"}}}");
        HostMcpConfigs c = HostMcpConfigs.read(project, home, Map.of(), "claude");
        assertThat(c.servers()).isEmpty();
        assertThat(c.problems()).singleElement().asString().contains(".mcp.json").contains("not JSON");
    }

    /** The hosts read are those whose records name MCP files, in the order inventory has always listed them. */
    @Test
    void hosts_areThoseWhoseRecordsNameMcpFiles_inTheirListedOrder() {
        assertThat(HostMcpConfigs.HOSTS).containsExactly("claude", "codex", "gemini", "copilot", "cursor");
        for (dev.agentwarden.host.Host h : dev.agentwarden.host.Hosts.ALL) {
            boolean names = h.inventoryFiles() != null && !h.inventoryFiles().mcpConfigs().isEmpty();
            assertThat(HostMcpConfigs.HOSTS.contains(h.id())).as(h.id()).isEqualTo(names);
        }
    }

    /** {@code ~/.claude.json} holds two server tables, but is one file to watch for a change. */
    @Test
    void files_ofClaude_nameTheUserFileOnce_andFollowHomeVariables() {
        assertThat(HostMcpConfigs.files(project, home, Map.of(), "claude"))
                .containsExactly(project.resolve(".mcp.json"), home.resolve(".claude.json"));
        assertThat(HostMcpConfigs.files(project, home, Map.of("CODEX_HOME", "/ch"), "codex"))
                .containsExactly(project.resolve(".codex/config.toml"), Path.of("/ch/config.toml"));
    }

    /** Cowork's sessions run Claude Code, so {@code inventory-turns} reads Claude Code's configuration for them. */
    @Test
    void defaultHosts_ofCowork_isClaudeCode_andOfAHostWithoutMcpFiles_none() {
        assertThat(TurnInventory.defaultHosts("cowork")).containsExactly("claude");
        assertThat(TurnInventory.defaultHosts("gemini")).containsExactly("gemini");
        assertThat(TurnInventory.defaultHosts("cline")).isEmpty();
        assertThat(TurnInventory.defaultHosts("no-such-host")).isEmpty();
    }

    @Test
    void snapshot_ofHttpServer_recordsNoHeaderOrQuery() {
        McpServerConfig http = new McpServerConfig("claude", "u", "f", false, McpServerConfig.HTTP, null, List.of(),
                Map.of(), null, "https://user:pw@h.example:8443/mcp?token=abc", Map.of("Authorization", "Bearer z"));
        assertThat(McpSnapshotter.endpoint(http)).isEqualTo("https://h.example:8443/mcp");
    }
}
