package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.gemini.GeminiAdapter;
import dev.agentwarden.inventory.InventorySnapshot;
import dev.agentwarden.inventory.ServerSnapshot;
import dev.agentwarden.inventory.ServerStatus;
import dev.agentwarden.inventory.SnapshotStore;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MCP tool governance through the dispatcher: rules and tool-filter globs on normalized MCP names, on two hosts' spellings. */
class McpRuleDispatchTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path root;

    private static final Manifest MCP = TestManifests.compile("""
            schema_version: 1
            concerns:
              no-everything:
                script: builtin:rule
                when: 'mcp.server == "everything"'
                action: deny
                reason: "MCP server {mcp.server} is not allowed ({mcp.name})"
              no-deletes:
                script: builtin:rule
                tools: ["mcp__*__delete_*"]
                when: 'true'
                action: deny
                reason: "deleting through MCP is refused: {tool.name}"
            platforms:
              claude:
                pre_tool_use: [no-everything, no-deletes]
              gemini:
                pre_tool_use: [no-everything, no-deletes]
            """);

    private Verdict claude(String tool) {
        HookEvent e = TestManifests.claudeEvent("PreToolUse", EventName.PRE_TOOL_USE, "{\"hook_event_name\":\"PreToolUse\","
                + "\"session_id\":\"s1\",\"tool_name\":" + Json.write(tool) + ",\"tool_input\":{\"message\":\"hi\"}}", root.toString());
        return new Dispatcher(MCP, CLOCK, Map.of()).dispatch(e, Manifest.DEFAULT_ROLE).verdict();
    }

    private Verdict gemini(String tool) {
        String payload = "{\"hook_event_name\":\"BeforeTool\",\"session_id\":\"s1\",\"cwd\":" + Json.write(root.toString())
                + ",\"tool_name\":" + Json.write(tool) + ",\"tool_input\":{\"message\":\"hi\"}}";
        HookEvent e = new GeminiAdapter().normalize("BeforeTool", EventName.PRE_TOOL_USE, Json.parseObject(payload),
                payload.getBytes(StandardCharsets.UTF_8), root.toString());
        return new Dispatcher(MCP, CLOCK, Map.of()).dispatch(e, Manifest.DEFAULT_ROLE).verdict();
    }

    @Test
    void ruleOnTheServer_refusesTheReferenceServersTool_onClaude() {
        Verdict v = claude("mcp__everything__echo");
        assertThat(v.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(v.reason()).isEqualTo("MCP server everything is not allowed (mcp__everything__echo)");
        assertThat(claude("mcp__github__create_issue")).isEqualTo(Verdict.NO_OPINION);
    }

    @Test
    void ruleOnTheServer_readsGeminisSpelling() {
        Verdict v = gemini("mcp_everything_echo");
        assertThat(v.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(v.reason()).isEqualTo("MCP server everything is not allowed (mcp__everything__echo)");
    }

    @Test
    void toolsFilterGlob_runsTheConcernOnlyOnMatchingTools_onBothHosts() {
        assertThat(claude("mcp__github__delete_repo").reason()).isEqualTo("deleting through MCP is refused: mcp__github__delete_repo");
        assertThat(gemini("mcp_github_delete_repo").reason()).isEqualTo("deleting through MCP is refused: mcp_github_delete_repo");
        assertThat(claude("mcp__github__list_repos")).isEqualTo(Verdict.NO_OPINION);
        assertThat(claude("Bash")).isEqualTo(Verdict.NO_OPINION);
    }

    private static final Manifest DRIFT = TestManifests.compile("""
            schema_version: 1
            concerns:
              mcp-drift:
                script: builtin:rule
                prereg: prereg.yaml
                fail_closed: true
                when: 'tool.kind == "mcp" && (!mcp.drift.known_server || mcp.drift.changed)'
                action: deny
                reason: "{mcp.name}: not the preregistered tool (known server {mcp.drift.known_server}, changed {mcp.drift.changed})"
            platforms:
              claude:
                pre_tool_use: [mcp-drift]
            """);

    private static Map<String, Object> tool(String name, String description, String argType) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("name", name);
        t.put("description", description);
        t.put("inputSchema", Map.of("type", "object", "properties", Map.of("message", Map.of("type", argType))));
        return t;
    }

    private static InventorySnapshot snapshot(String takenAt, List<Map<String, Object>> tools) {
        ServerSnapshot everything = new ServerSnapshot("claude/everything", "claude", "everything", "/p/.mcp.json", true,
                "stdio", "npx", ServerStatus.OK, null, Map.of(), "2025-06-18", null, new ArrayList<>(tools), 0, true, 1);
        return new InventorySnapshot(takenAt, 0, "claude", List.of(everything));
    }

    private Verdict claudeDrift(String tool) {
        HookEvent e = TestManifests.claudeEvent("PreToolUse", EventName.PRE_TOOL_USE, "{\"hook_event_name\":\"PreToolUse\","
                + "\"session_id\":\"s1\",\"tool_name\":" + Json.write(tool) + ",\"tool_input\":{\"message\":\"hi\"}}", root.toString());
        return new Dispatcher(DRIFT, CLOCK, Map.of()).dispatch(e, Manifest.DEFAULT_ROLE).verdict();
    }

    @Test
    void drift_aToolWhoseSchemaChangedAfterTheBaseline_isRefused_theUnchangedOneRuns() throws Exception {
        SnapshotStore store = new SnapshotStore(root.resolve(".warden"));
        InventorySnapshot baseline = snapshot("2026-12-01T10:00:00Z",
                List.of(tool("echo", "Echoes back the input", "string"), tool("add", "Adds two numbers", "number")));
        store.write(baseline);
        Files.writeString(root.resolve("prereg.yaml"), "baseline: " + baseline.sha256() + "\n");
        assertThat(claudeDrift("mcp__everything__echo")).isEqualTo(Verdict.NO_OPINION);

        store.write(snapshot("2026-12-01T11:00:00Z",
                List.of(tool("echo", "Echoes back the input", "object"), tool("add", "Adds two numbers", "number"))));
        Verdict changed = claudeDrift("mcp__everything__echo");
        assertThat(changed.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(changed.reason()).isEqualTo("mcp__everything__echo: not the preregistered tool (known server true, changed true)");
        assertThat(claudeDrift("mcp__everything__add")).isEqualTo(Verdict.NO_OPINION);
        assertThat(claudeDrift("mcp__stranger__add").reason()).contains("known server false");
    }

    @Test
    void drift_withoutAStoredBaseline_refusesLoudly_underFailClosed() throws Exception {
        Files.writeString(root.resolve("prereg.yaml"), "baseline: " + "ab".repeat(32) + "\n");
        Verdict v = claudeDrift("mcp__everything__echo");
        assertThat(v.kind()).isEqualTo(Verdict.Kind.BLOCK);
        assertThat(v.reason()).contains("preregistered baseline");
    }

    @Test
    void drift_fieldsWithoutPrereg_areALintError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TestManifests.compile("""
                schema_version: 1
                concerns:
                  d:
                    script: builtin:rule
                    when: 'mcp.drift.changed'
                    action: deny
                platforms:
                  claude:
                    pre_tool_use: [d]
                """)).hasMessageContaining("prereg: required");
    }
}
