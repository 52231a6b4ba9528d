package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 27 item 3 on the real Gemini CLI: its own MCP spelling, read from the binary. The real
 * reference server ({@link ReferenceMcpServer}) is a {@code mcpServers} entry of the project's
 * {@code .gemini/settings.json}; the scripted model calls {@code mcp_everything_echo} and
 * {@code mcp_everything_get-sum}; a rule on {@code mcp.server}/{@code mcp.tool} refuses echo.
 *
 * <p>Observed on 0.61.0: BeforeTool carries {@code tool_name: "mcp_<server>_<tool>"} (the name the
 * model calls) and {@code mcp_context{server_name, tool_name, command, args, cwd}}; a deny reads
 * {@code Tool execution blocked: <reason>} as for a built-in tool. A server named {@code my_everything}
 * gives {@code mcp_my_everything_echo}, which splits early by name alone; Warden reads
 * {@code mcp_context}, so a glob {@code mcp__my_everything__*} and a rule on {@code mcp.server} match.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "gemini-cli")
class GeminiMcpRulesE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();

    @TempDir
    static Path suiteDir;

    private static HostSuite suite;
    private static GeminiSession gemini;
    private static ReferenceMcpServer mcp;
    private static String unavailable;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        suite = HostSuite.open(HostInstall.GEMINI_CLI, "Gemini CLI", "gemini", SUMMARY, suiteDir);
        unavailable = suite.unavailable();
        if (suite.available()) {
            gemini = new GeminiSession(suite.binary(), suite.sandbox(), suite.wardenCache());
            mcp = ReferenceMcpServer.find(suiteDir);
            unavailable = mcp == null ? ReferenceMcpServer.unavailable() : null;
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    @Test
    void celRule_onGeminisMcpSpelling_refusesEcho_andGetSumRuns(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(suite.host(), "MCP: rule on mcp.server/mcp.tool (mcp_everything_echo)",
                "BeforeTool tool_name mcp_everything_echo read as mcp__everything__echo; echo refused; get-sum runs");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        project.manifest("schema_version: 1\nconcerns:\n" + """
                capture:
                  script: %s
                  posture: shadow
                no-echo:
                  script: builtin:rule
                  when: 'tool.kind == "mcp" && mcp.server == "everything" && mcp.tool == "echo"'
                  action: deny
                  reason: "MCP-CEL-g27: {mcp.name} refused (server {mcp.server}, tool {mcp.tool}, host name {tool.name})"
                """.formatted(E2eProject.CAPTURE_SCRIPT).indent(2) + "platforms:\n  gemini:\n"
                + "pre_tool_use: [capture, no-echo]\n".indent(4));
        echoRefusedAndGetSumRuns(project, row, ReferenceMcpServer.NAME, "ECHO-MARK-g27",
                "[warden] MCP-CEL-g27: mcp__everything__echo refused (server everything, tool echo,"
                        + " host name mcp_everything_echo)");
    }

    @Test
    void globAndCelRule_onAServerNamedWithAnUnderscore_refuseEcho_andGetSumRuns(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(suite.host(), "MCP: glob mcp__my_everything__* + rule on mcp.tool (server my_everything)",
                "BeforeTool mcp_my_everything_echo read from mcp_context as mcp__my_everything__echo; echo refused; get-sum runs");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        project.manifest("schema_version: 1\nconcerns:\n" + """
                capture:
                  script: %s
                  posture: shadow
                no-my-echo:
                  script: builtin:rule
                  tools: ["mcp__my_everything__*"]
                  when: 'mcp.server == "my_everything" && mcp.tool == "echo"'
                  action: deny
                  reason: "MCP-GLOB-g27: {mcp.name} refused (server {mcp.server}, tool {mcp.tool}, host name {tool.name})"
                """.formatted(E2eProject.CAPTURE_SCRIPT).indent(2) + "platforms:\n  gemini:\n"
                + "pre_tool_use: [capture, no-my-echo]\n".indent(4));
        echoRefusedAndGetSumRuns(project, row, "my_everything", "ECHO-MARK-g27u",
                "[warden] MCP-GLOB-g27: mcp__my_everything__echo refused (server my_everything, tool echo,"
                        + " host name mcp_my_everything_echo)");
    }

    /**
     * Installs Warden and the reference server as {@code serverName} in {@code project}, has the model call echo
     * and then get-sum, and asserts echo was refused with {@code reason} before it reached the server while get-sum ran.
     */
    private void echoRefusedAndGetSumRuns(E2eProject project, E2eSummary.Row row, String serverName, String echoMark,
                                          String reason) throws Exception {
        String echoTool = "mcp_" + serverName + "_echo";
        String sumTool = "mcp_" + serverName + "_get-sum";
        suite.install(project, gemini.baseEnv(), "gemini", ".gemini/settings.json");
        Path calls = project.dir().resolve("mcp-calls.jsonl");
        Path settings = project.root().resolve(".gemini/settings.json");
        Map<String, Object> withServer = new LinkedHashMap<>(Json.parseObject(Files.readString(settings, StandardCharsets.UTF_8)));
        withServer.put("mcpServers", Map.of(serverName, mcp.entry(calls, null)));
        Files.writeString(settings, Json.writePretty(withServer), StandardCharsets.UTF_8);

        Command.Result process;
        ScriptedModelServer server;
        try (ScriptedModelServer s = ScriptedModelServer.start(new GeminiGenerateContentApi(), ModelScript.of(
                Turn.tool("echo", echoTool, Map.of("message", echoMark)),
                Turn.tool("sum", sumTool, Map.of("a", 2, "b", 3)),
                Turn.text("FINAL: done")))) {
            server = s;
            process = gemini.run(project, s, "echo, then add");
        }
        String echo = String.valueOf(GeminiGenerateContentApi.toolResult(server.steps(), "echo", echoTool));
        String sum = String.valueOf(GeminiGenerateContentApi.toolResult(server.steps(), "sum", sumTool));
        List<Map<String, Object>> beforeTool = new ArrayList<>();
        for (Map<String, Object> envelope : project.captured()) {
            Map<String, Object> payload = E2eProject.payloadOf(envelope);
            if ("BeforeTool".equals(payload.get("hook_event_name"))) {
                beforeTool.add(payload);
            }
        }
        row.timing(process.millis(), -1);
        row.observed("BeforeTool " + beforeTool.stream().map(p -> p.get("tool_name") + " mcp_context="
                + Json.write(p.get("mcp_context"))).toList() + "; echo " + echo + "; get-sum " + sum
                + "; server calls " + ReferenceMcpServer.calledTools(calls));
        assertThat(process.exitCode()).as(process.stdout() + process.stderr()).isZero();
        assertThat(beforeTool).extracting(p -> p.get("tool_name"))
                .containsExactly(echoTool, sumTool);
        assertThat(beforeTool.get(0).get("mcp_context")).asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsEntry("server_name", serverName)
                .containsEntry("tool_name", "echo");
        assertThat(echo).contains("Tool execution blocked").contains(reason);
        assertThat(sum).contains("The sum of 2 and 3 is 5.");
        assertThat(ReferenceMcpServer.calledTools(calls)).as("tools/call that reached the server").containsExactly("get-sum");
        assertThat(server.problems()).as("scripted model problems").isEmpty();
        row.pass();
    }
}
