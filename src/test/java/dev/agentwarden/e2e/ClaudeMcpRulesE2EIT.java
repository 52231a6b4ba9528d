package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27 item 3 on the real host: MCP tool governance on the real Claude Code CLI with the real
 * reference MCP server ({@link ReferenceMcpServer}, a project {@code .mcp.json} server named
 * {@code everything}) against a {@link ScriptedModelServer}, Warden installed by
 * {@code warden install --host claude}. The project's own settings allow the MCP tools (in {@code -p}
 * mode an unlisted MCP tool is refused by the host itself), so every refusal seen is Warden's.
 * Non-execution is read from the server's side: the proxy's call log lists every {@code tools/call}
 * that reached the server.
 *
 * <p>Runs on the pinned Claude Code and on 2.1.332 ({@link ClaudeCodeFacts} for the deny's wording).
 * Observed on both: MCP tools reach PreToolUse as {@code mcp__everything__<tool>} (the server's
 * {@code get-sum} keeps its hyphen), and a PreToolUse deny of an MCP tool reads as for Bash.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "claude-code")
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"claude-code", "claude-code-current"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClaudeMcpRulesE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String ECHO = "mcp__everything__echo";
    private static final String SUM = "mcp__everything__get-sum";
    /**
     * In {@code -p} mode Claude Code connects MCP servers without waiting for them: on a loaded box the
     * model's first call can come first and gets {@code "No such tool available: … The MCP server
     * 'everything' is still connecting. Call WaitForMcpServers …"} (seen on 2.1.197). The host's own
     * switch makes the session wait for the connection before the first model call.
     */
    private static final Map<String, String> WAIT_FOR_MCP = Map.of("MCP_CONNECTION_NONBLOCKING", "false");

    @TempDir
    static Path suiteDir;

    /** The {@code hosts.properties} id of the Claude Code version this invocation runs. */
    @Parameter
    String hostId;

    private static final Map<String, Version> VERSIONS = new LinkedHashMap<>();

    /** One Claude Code version's suite: the host, its session runner, and the facts that differ by version. */
    private record Version(HostSuite suite, ClaudeCodeSession claude, ClaudeCodeFacts facts, ReferenceMcpServer mcp) {
        String unavailable() {
            if (suite.unavailable() != null) {
                return suite.unavailable();
            }
            return mcp == null ? ReferenceMcpServer.unavailable() : null;
        }
    }

    private Version version;

    @BeforeEach
    void openThisVersion() throws IOException {
        version = VERSIONS.get(hostId);
        if (version == null) {
            HostInstall.Host host = hostId.equals(HostInstall.CLAUDE_CODE.id()) ? HostInstall.CLAUDE_CODE
                    : HostInstall.CLAUDE_CODE_CURRENT;
            Path dir = Files.createDirectories(suiteDir.resolve(hostId));
            HostSuite suite = HostSuite.open(host, "Claude Code", "claude-code", SUMMARY, dir);
            ClaudeCodeSession claude = null;
            ClaudeCodeFacts facts = null;
            if (suite.available()) {
                claude = new ClaudeCodeSession(suite.binary(), suite.sandbox(), suiteDir.resolve("warden-cache"));
                facts = ClaudeCodeFacts.of(suite.version());
            }
            version = new Version(suite, claude, facts, ReferenceMcpServer.find(dir));
            VERSIONS.put(hostId, version);
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    /** (a) A tool glob in {@code tools:}: every tool of the server is refused, a tool outside the glob runs. */
    @Test
    @Order(1)
    void toolGlob_deniesEveryToolOfTheServer_andNothingReachesTheServer(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(version.suite().host(), "MCP: tools glob mcp__everything__* denies",
                "get-sum refused with Warden's reason; no tools/call reaches the server; Bash outside the glob runs");
        E2eProject project = project(dir, row);
        Path calls = mcpProject(project, null, "Bash(touch outside-glob)");
        project.manifest(manifest("""
                no-everything:
                  script: builtin:rule
                  tools: ["mcp__everything__*"]
                  when: 'true'
                  action: deny
                  reason: "MCP-GLOB-4a1: {tool.name} is refused"
                """, """
                pre_tool_use: [no-everything]
                """));
        install(project);

        ClaudeRun run = session(project, "add two numbers, then touch a marker", ModelScript.of(
                Turn.tool("globbed", SUM, Map.of("a", 2, "b", 3)),
                Turn.tool("outside", "Bash", Map.of("command", "touch outside-glob", "description", "touch marker")),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> refused = run.toolResult("globbed");
        row.observed(refused.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; server calls " + ReferenceMcpServer.calledTools(calls)
                + "; outside-glob " + (project.exists("outside-glob") ? "created" : "ABSENT"));
        assertCompleted(run);
        assertOffered(run, SUM);
        assertRefused(refused, SUM, "[warden] MCP-GLOB-4a1: " + SUM + " is refused");
        assertThat(ReferenceMcpServer.calledTools(calls)).as("tools/call that reached the server").isEmpty();
        assertThat(project.exists("outside-glob")).as("Bash, outside the glob, ran").isTrue();
        assertThat(run.permissionDenials()).containsExactly("toolu_globbed");
        row.pass();
    }

    /** (b) A CEL rule on {@code mcp.server} and {@code mcp.tool}: echo refused, get-sum of the same server runs. */
    @Test
    @Order(2)
    void celRule_onServerAndTool_refusesThatTool_andTheServersOtherToolRuns(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(version.suite().host(), "MCP: CEL rule on mcp.server/mcp.tool",
                "echo refused (reason names mcp.name, server, tool); get-sum runs; the server saw only get-sum");
        E2eProject project = project(dir, row);
        Path calls = mcpProject(project, null);
        project.manifest(manifest("""
                no-echo:
                  script: builtin:rule
                  when: 'tool.kind == "mcp" && mcp.server == "everything" && mcp.tool == "echo"'
                  action: deny
                  reason: "MCP-CEL-7c2: {mcp.name} refused (server {mcp.server}, tool {mcp.tool})"
                """, """
                pre_tool_use: [no-echo]
                """));
        install(project);

        ClaudeRun run = session(project, "echo, then add", ModelScript.of(
                Turn.tool("echo", ECHO, Map.of("message", "ECHO-MARK-91d")),
                Turn.tool("sum", SUM, Map.of("a", 2, "b", 3)),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> refused = run.toolResult("echo");
        Optional<ClaudeRun.ToolResultSeen> ran = run.toolResult("sum");
        row.observed("echo " + refused.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; get-sum " + ran.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; server calls " + ReferenceMcpServer.calledTools(calls));
        assertCompleted(run);
        assertRefused(refused, ECHO, "[warden] MCP-CEL-7c2: mcp__everything__echo refused (server everything, tool echo)");
        assertRan(ran, "The sum of 2 and 3 is 5.");
        assertThat(ReferenceMcpServer.calledTools(calls)).as("tools/call that reached the server").containsExactly("get-sum");
        assertThat(run.permissionDenials()).containsExactly("toolu_echo");
        row.pass();
    }

    /**
     * (c) Drift: the baseline is preregistered from the real server's tool list ({@code warden
     * inventory snapshot}, then {@code baseline:} in the preregistration), as a user would; a session
     * on it runs echo. Then the server changes under the same name (echo's description poisoned) and
     * {@code builtin:inventory-turns} snapshots it before the session's turn: the rule on
     * {@code mcp.drift.changed} refuses echo while the unchanged get-sum runs.
     */
    @Test
    @Order(3)
    void drift_toolChangedSinceTheBaseline_isRefused_unchangedToolRuns(@TempDir Path dir) throws Exception {
        E2eSummary.Row before = SUMMARY.row(version.suite().host(), "MCP drift: baseline session",
                "inventory = preregistered baseline; echo runs under the drift rule");
        E2eSummary.Row after = SUMMARY.row(version.suite().host(), "MCP drift: echo's description changed",
                "the host offers the poisoned echo; drift rule refuses echo; unchanged get-sum runs");
        E2eProject project = project(dir, before, after);
        Path calls = mcpProject(project, null);
        Map<String, String> env = new LinkedHashMap<>(version.claude().baseEnv());
        env.put("HOME", project.home().toString());
        Command.Result snap = Command.run(List.of(version.suite().wardenLauncher().toString(), "inventory", "snapshot",
                "--host", "claude", "--allow-project-servers", "--json", "--project-dir", project.root().toString(),
                "--user-home", project.home().toString()), project.root(), env, Duration.ofMinutes(2));
        assertThat(snap.exitCode()).as("baseline snapshot: " + snap.stdout() + snap.stderr()).isZero();
        Map<String, Object> baseline = Json.parseObject(snap.stdout());
        Files.writeString(project.root().resolve(".warden/prereg.yaml"), "baseline: " + baseline.get("inventory_sha256")
                + "\nrequired_tools: [claude/everything/echo, claude/everything/get-sum]\n", StandardCharsets.UTF_8);
        project.manifest(manifest("""
                inventory:
                  script: builtin:inventory-turns
                  prereg: .warden/prereg.yaml
                  allow_project_servers: true
                  wait_ms: 20s
                  timeout_ms: 30000
                mcp-drift:
                  script: builtin:rule
                  prereg: .warden/prereg.yaml
                  fail_closed: true
                  when: 'tool.kind == "mcp" && (!mcp.drift.known_server || mcp.drift.changed)'
                  action: deny
                  reason: "MCP-DRIFT-5e1: {mcp.name} changed since the preregistered baseline"
                """, """
                session_start: [inventory]
                user_prompt_submit: [inventory]
                pre_tool_use: [mcp-drift]
                """));
        install(project);

        ClaudeRun unchanged = session(project, "echo", ModelScript.of(
                Turn.tool("echo0", ECHO, Map.of("message", "BASELINE-ECHO-3f0")),
                Turn.text("FINAL: done")));
        before.timing(unchanged);
        Optional<ClaudeRun.ToolResultSeen> echoed = unchanged.toolResult("echo0");
        before.observed("echo " + echoed.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; server calls " + ReferenceMcpServer.calledTools(calls));
        assertCompleted(unchanged);
        assertRan(echoed, "Echo: BASELINE-ECHO-3f0");
        assertThat(ReferenceMcpServer.calledTools(calls)).containsExactly("echo");
        before.pass();

        version.mcp().configure(project.root(), calls, "echo");
        List<Turn> turns = new ArrayList<>();
        if (version.facts().deferredMcpTools()) {
            turns.add(Turn.tool("load1", "ToolSearch", Map.of("query", "select:" + ECHO)));
        }
        turns.addAll(List.of(Turn.tool("echo1", ECHO, Map.of("message", "DRIFTED-ECHO-3f1")),
                Turn.tool("sum1", SUM, Map.of("a", 2, "b", 3)),
                Turn.text("FINAL: done")));
        ClaudeRun drifted = session(project, "echo, then add", ModelScript.of(turns.toArray(Turn[]::new)));
        after.timing(drifted);
        Optional<ClaudeRun.ToolResultSeen> refused = drifted.toolResult("echo1");
        Optional<ClaudeRun.ToolResultSeen> ran = drifted.toolResult("sum1");
        after.observed("echo " + refused.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; get-sum " + ran.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; server calls " + ReferenceMcpServer.calledTools(calls));
        assertCompleted(drifted);
        assertThat(offeredDescription(drifted, ECHO)).as("the host offers the changed echo").contains("~/.ssh/id_rsa");
        assertRefused(refused, ECHO, "[warden] MCP-DRIFT-5e1: mcp__everything__echo changed since the preregistered baseline");
        assertRan(ran, "The sum of 2 and 3 is 5.");
        assertThat(ReferenceMcpServer.calledTools(calls)).as("tools/call that reached the server, both sessions")
                .containsExactly("echo", "get-sum");
        assertThat(drifted.permissionDenials()).containsExactly("toolu_echo1");
        assertThat(driftVerdicts(project, unchanged)).as("inventory-turns records, baseline session").containsOnly("NONE");
        assertThat(driftVerdicts(project, drifted)).as("inventory-turns records, drifted session").isNotEmpty()
                .doesNotContain("NONE");
        after.pass();
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** The {@code inventory_drift} of each {@code builtin:inventory-turns} record of the run's session. */
    private static List<Object> driftVerdicts(E2eProject project, ClaudeRun run) throws IOException {
        List<Object> verdicts = new ArrayList<>();
        for (Map<String, Object> r : new dev.agentwarden.inventory.TurnRecords(project.root(), project.root().resolve(".warden"))
                .read((String) run.output().get("session_id"))) {
            verdicts.add(r.get("inventory_drift"));
        }
        return verdicts;
    }

    private E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException {
        return E2eProject.forScenario(dir, version.unavailable(), rows);
    }

    /**
     * The reference server in the project's {@code .mcp.json} (echo poisoned when {@code driftTool} is
     * set), approved, with its tools and {@code extraAllow} allowed by the project's own settings;
     * returns the server's call log.
     */
    private Path mcpProject(E2eProject project, String driftTool, String... extraAllow) throws IOException {
        Path calls = project.dir().resolve("mcp-calls.jsonl");
        version.mcp().configure(project.root(), calls, driftTool);
        List<String> allow = new ArrayList<>(List.of("mcp__" + ReferenceMcpServer.NAME));
        allow.addAll(List.of(extraAllow));
        project.claudeLocalSettings(allow, true);
        return calls;
    }

    private void install(E2eProject project) throws IOException {
        version.suite().install(project, version.claude().baseEnv(), "claude", ".claude/settings.json");
    }

    private ClaudeRun session(E2eProject project, String prompt, ModelScript script) throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), script)) {
            return version.claude().run(project, server, prompt, WAIT_FOR_MCP, List.of());
        }
    }

    private static String manifest(String concerns, String claudeChains) {
        return E2eProject.manifestText("claude", concerns, claudeChains, "SessionStart", "UserPromptSubmit", "PreToolUse");
    }

    private static void assertCompleted(ClaudeRun run) {
        assertThat(run.completed()).as("the host session completed: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /** The host refused the call with exactly Warden's reason, in this version's wording. */
    private void assertRefused(Optional<ClaudeRun.ToolResultSeen> result, String tool, String reason) {
        assertThat(result).as("tool_result for the refused " + tool).hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).isEqualTo(version.facts().deniedToolResult(tool, reason));
        });
    }

    /** The server ran the call and the model read its output. */
    private static void assertRan(Optional<ClaudeRun.ToolResultSeen> result, String output) {
        assertThat(result).as("tool_result of the call that runs").hasValueSatisfying(r -> {
            assertThat(r.isError()).as(r.describe()).isFalse();
            assertThat(r.content()).contains(output);
        });
    }

    /**
     * The host told the model about {@code tool}: offered it whole in a request's {@code tools}, or,
     * where MCP tools are deferred, named it on a line of its own in the list of tools to load.
     */
    private void assertOffered(ClaudeRun run, String tool) {
        boolean named = offeredDescription(run, tool) != null;
        if (!named && version.facts().deferredMcpTools() && !run.server().steps().isEmpty()) {
            named = strings(run.server().steps().get(0).body()).stream().anyMatch(t -> t.lines().anyMatch(tool::equals));
        }
        assertThat(named).as(tool + " offered or listed to load by the host").isTrue();
    }

    /** The description of {@code tool} in the first model request offering it whole, or null when none did. */
    private static String offeredDescription(ClaudeRun run, String tool) {
        for (ScriptedModelServer.Exchange e : run.server().steps()) {
            for (Object t : AnthropicMessagesApi.list(e.body().get("tools"))) {
                if (t instanceof Map<?, ?> offered && tool.equals(offered.get("name"))) {
                    return String.valueOf(offered.get("description"));
                }
            }
        }
        return null;
    }

    /** Every string inside a parsed JSON value. */
    private static List<String> strings(Object json) {
        List<String> out = new ArrayList<>();
        if (json instanceof String s) {
            out.add(s);
        } else if (json instanceof Map<?, ?> m) {
            for (Object v : m.values()) {
                out.addAll(strings(v));
            }
        } else if (json instanceof List<?> l) {
            for (Object v : l) {
                out.addAll(strings(v));
            }
        }
        return out;
    }
}
