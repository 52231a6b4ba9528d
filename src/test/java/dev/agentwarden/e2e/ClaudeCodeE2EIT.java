package dev.agentwarden.e2e;

import dev.agentwarden.server.Resident;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.integrity.EvidenceReplay;
import dev.agentwarden.integrity.Outcome;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real host, real verdicts: the real Claude Code CLI runs complete headless sessions against a
 * {@link ScriptedModelServer} on 127.0.0.1, with Warden installed by {@code warden install --host
 * claude}, and each scenario checks that the host did what Warden's verdict says, from the next
 * model request, the host's JSON output and transcript, and the files in the project.
 *
 * <p>The host is installed from npm into a cache outside the repository ({@link HostInstall}); the
 * suite skips, loudly, only when neither the cache nor npm can provide it. Hosts run in a
 * loopback-only network namespace where the machine allows it ({@link LoopbackSandbox}).
 *
 * <p>The class runs twice: on the pinned Claude Code ({@code claude-code} in {@code hosts.properties})
 * and on the version that ships today ({@code claude-code-current}), sharing the suite's Warden
 * cache and sandbox. Where 2.1.332 behaves differently, the assertions follow {@link ClaudeCodeFacts}.
 *
 * <p>How Claude Code 2.1.197 behaves, as observed with this harness (the assertions rely on it):
 * <ul>
 *   <li>Start-up sends {@code HEAD /} (answered 404), then every model call is
 *       {@code POST /v1/messages?beta=true} with {@code stream: true} and the tool list; in
 *       {@code -p} mode with non-essential traffic off there are no side queries.</li>
 *   <li>Messages do not alternate strictly: a {@code role: "system"} message follows the first user
 *       message and carries SessionStart and UserPromptSubmit hook context
 *       ({@code "SessionStart hook additional context: …"}) and the agent listing.</li>
 *   <li>SessionStart {@code additionalContext} arrives verbatim (CRLF and non-ASCII text kept) at the
 *       start of that system message, after {@code "SessionStart hook additional context: "} and
 *       before a blank line and the agent listing. The agent listing also names the project's
 *       {@code .claude/agents/} agents (name and description only).</li>
 *   <li>{@code continue: false} with a {@code stopReason} from a SessionStart hook is ignored in
 *       {@code -p} mode: the model is asked, the result is an ordinary success, and the reason shows
 *       on neither stdout nor stderr (only in the transcript's hook record). The same answer from a
 *       UserPromptSubmit hook is honoured: no model call, {@code num_turns: 0}, and the result text
 *       {@code "Operation stopped by hook: <stopReason>"} (with {@code is_error: false}, exit 0).
 *       The oversized attach-mode scenario relies on it.</li>
 *   <li>A PreToolUse {@code continue: false} is acted on only after the tool ran: the call goes
 *       ahead and the session ends afterwards. Beside a {@code permissionDecision: "deny"} it is
 *       dropped (the host's deny path returns before it records the stop): the call is refused and
 *       the session goes on.</li>
 *   <li>A PreToolUse {@code permissionDecision: "deny"} becomes, in the next request, a
 *       {@code tool_result} with {@code is_error: true} whose content is exactly the
 *       {@code permissionDecisionReason}; the tool does not run, the session goes on, and the call is
 *       listed in the output's {@code permission_denials}. A deny beats the project's own allow rule.</li>
 *   <li>PreToolUse and PostToolUse {@code additionalContext} ride in the next request as text blocks
 *       of the same user message as the {@code tool_result}:
 *       {@code <system-reminder>\nPreToolUse:Bash hook additional context: …\n</system-reminder>}.</li>
 *   <li>In {@code -p} mode Bash needs an allow rule: a command no rule allows is refused by the host
 *       itself (an error tool_result naming the allowed working directories, and a
 *       {@code permission_denials} entry); no PermissionRequest hook fires. So a hook that emitted an
 *       explicit allow would be visible: the unlisted command would run.</li>
 *   <li>Subagents: the parent's PreToolUse has {@code tool_name: "Agent"} and no {@code agent_id};
 *       then SubagentStart ({@code agent_id}, {@code agent_type}); the subagent's own PreToolUse and
 *       PostToolUse carry the same {@code agent_id}; SubagentStop carries it with
 *       {@code agent_transcript_path}; the parent's Agent tool_result ends with
 *       {@code agentId: <agent_id>}. The subagent's requests offer no Agent tool (no nesting), and its
 *       first user message is the spawn prompt. Two Agent calls in one turn fire both PreToolUse hooks
 *       before either SubagentStart. A background spawn ({@code run_in_background}) returns
 *       "Async agent launched" at once, and its SubagentStart hooks run alongside the parent's next
 *       turn: under load the parent's next PreToolUse can reach Warden first, so a concurrency guard
 *       that counts open ledger records can miss a subagent that is starting. The subagent's first
 *       model request always follows its SubagentStart hooks (their context is injected into it).
 *       When a background subagent ends after the parent's last turn, the host sends one more request
 *       carrying a {@code <task-notification>} user message.</li>
 *   <li>The transcript ({@code ~/.claude/projects/<project>/<session>.jsonl}) records a
 *       {@code hook_success} attachment, with stdout, stderr and exit code, for each hook that printed
 *       anything; a silent hook leaves no record.</li>
 *   <li>A hook that exits 0 with only a stderr note (the launcher when the jar is missing) does not
 *       disturb the session.</li>
 * </ul>
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "claude-code")
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"claude-code", "claude-code-current"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(1) // a long host suite (its sessions run in order): it starts first, see junit-platform.properties
class ClaudeCodeE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    /** How the host prefixes SessionStart hook context in the next model request. */
    private static final String SESSION_START_CONTEXT = "SessionStart hook additional context: ";
    private static final String ATTACH_HEAD = "<!-- reviewer:head 41c9 -->";
    private static final String ATTACH_EOF = "<!-- reviewer:eof 41c9 -->";
    /** A small custom agent with its own boundary markers, non-ASCII text and a CRLF line. */
    private static final String ATTACH_AGENT = "---\nname: reviewer\ndescription: Reviews diffs\n---\n" + ATTACH_HEAD
            + "\nREVIEWER-PAYLOAD-41c9: review every diff. Ünïcödé ✓ 🚀\r\nline two\n" + ATTACH_EOF + "\n";

    @TempDir
    static Path suiteDir;

    private static Path wardenHome;
    private static Path launcher;
    private static ClaudeCodeSession claude;
    private static String host = "claude-code";
    private static String unavailable;
    private static String claudeVersion;
    private static ClaudeCodeFacts facts;
    private static boolean pinned;

    private static ClaudeRun subagentRun;
    private static E2eProject subagentProject;
    private static ClaudeRun backgroundRun;
    private static E2eProject backgroundProject;

    @BeforeAll
    static void findWarden() throws IOException {
        setUpFor = null;
        wardenHome = HostSuite.wardenHome();
        launcher = HostSuite.launcher();
    }

    /**
     * One version's run ({@code hosts.properties}' {@code claude-code}, the pinned version, then
     * {@code claude-code-current}, the version that ships today): the host from the cache, and this version's state reset. Both versions share
     * the suite folder's Warden cache (compiled manifests, the resident's directory) and the sandbox.
     */
    /** The {@code hosts.properties} id of the version this invocation of the class runs. */
    @Parameter
    String hostId;

    /** The id whose setup the static state holds, or null. */
    private static String setUpFor;

    @BeforeEach
    void setUpThisVersion() throws IOException {
        if (!hostId.equals(setUpFor)) {
            setUpFor = hostId;
            installHostAndWarden(hostId);
        }
    }

    static void installHostAndWarden(String hostId) throws IOException {
        pinned = hostId.equals(HostInstall.CLAUDE_CODE.id());
        HostInstall.Host hostUnderTest = pinned ? HostInstall.CLAUDE_CODE : HostInstall.CLAUDE_CODE_CURRENT;
        host = hostUnderTest.id();
        claude = null;
        claudeVersion = null;
        facts = null;
        unavailable = null;
        subagentRun = null;
        subagentProject = null;
        backgroundRun = null;
        backgroundProject = null;
        HostInstall.Outcome outcome = HostInstall.ensureOrAnnounce(hostUnderTest, "Claude Code", SUMMARY);
        if (!outcome.available()) {
            unavailable = outcome.unavailable();
            return;
        }
        host = "claude-code " + outcome.version();
        claudeVersion = outcome.version();
        facts = ClaudeCodeFacts.of(claudeVersion);
        LoopbackSandbox sandbox = LoopbackSandbox.probe(Files.createDirectories(suiteDir.resolve("sandbox")));
        claude = new ClaudeCodeSession(outcome.binary(), sandbox, suiteDir.resolve("warden-cache"));
        if (pinned) {
            Map<String, String> trainEnv = new LinkedHashMap<>(claude.baseEnv());
            trainEnv.put("HOME", System.getProperty("user.home"));
            Command.Result train = Command.run(List.of(launcher.toString(), "train-archive"), wardenHome, trainEnv,
                    Duration.ofMinutes(3));
            SUMMARY.note("network: " + sandbox.description());
            SUMMARY.note("warden: " + launcher + "; start-up archive " + (train.ok() ? "trained" : "NOT trained: " + train.tail()));
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    // ---- Scenarios ---------------------------------------------------------------------------

    @Test
    @Order(1)
    void blockingConcern_deniesBash_andTheModelReadsWardensReason(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "blocking concern denies Bash",
                "next request: error tool_result with Warden's reason; command not run; session completes");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-7f3: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """));
        project.allowBash("touch denied-marker");
        install(project);

        ClaudeRun run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("denied", "Bash", Map.of("command", "touch denied-marker", "description", "touch marker")),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("denied");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; marker " + (project.exists("denied-marker") ? "CREATED" : "absent")
                + "; result=" + run.resultText());
        assertCompleted(run);
        assertThat(result).as("tool_result for the denied call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).isEqualTo(facts.deniedToolResult("Bash", "[warden] DENY-7f3: denied-marker is off limits"));
        });
        assertThat(project.exists("denied-marker")).as("the denied command ran").isFalse();
        assertThat(run.permissionDenials()).containsExactly("toolu_denied");
        assertThat(run.resultText()).isEqualTo("FINAL: done");
        row.pass();
    }

    /**
     * Issue 27 item 2 on the real host: a {@code builtin:rule} rewrites the Bash command
     * ({@code hookSpecificOutput.updatedInput} with {@code permissionDecision: "allow"}) and Claude Code
     * runs the rewritten command, not the one the model asked for: the markers show which ran.
     */
    @Test
    @Order(19)
    void ruleRewrite_hostRunsTheRewrittenCommand(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "rule rewrites Bash",
                "updatedInput + allow: the rewritten command runs (rewritten-marker), the original does not");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                route-marker:
                  script: builtin:rule
                  when: 'commands == ["touch"] && "original-marker" in words'
                  action: rewrite
                  rewrite:
                    command: '"touch rewritten-marker"'
                  reason: "REWRITE-3d2: the marker is routed"
                """, """
                pre_tool_use: [route-marker]
                """));
        install(project);

        ClaudeRun run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("rewritten", "Bash", Map.of("command", "touch original-marker", "description", "touch marker")),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("rewritten");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; rewritten-marker " + (project.exists("rewritten-marker") ? "created" : "ABSENT")
                + "; original-marker " + (project.exists("original-marker") ? "CREATED" : "absent"));
        assertCompleted(run);
        assertThat(result).as("tool_result for the rewritten call").hasValueSatisfying(r -> assertThat(r.isError()).isFalse());
        assertThat(project.exists("rewritten-marker")).as("the rewritten command ran").isTrue();
        assertThat(project.exists("original-marker")).as("the original command ran").isFalse();
        assertThat(run.resultText()).isEqualTo("FINAL: done");
        row.pass();
    }

    /**
     * Issue 17 item 2 on the real host: install writes the compiled hook behind a shell test
     * (Claude Code runs hook commands with {@code sh -c}); with the compiled hook deleted, the next
     * event still gets Warden's deny, from {@code bin/warden}.
     */
    @Test
    @Order(18)
    void compiledHookDeleted_bashStillDeniedThroughTheLauncher(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "compiled hook deleted: deny still denies",
                "install wrote the compiled hook behind [ -x ]; it is deleted; Bash denied by bin/warden");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-9c1: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """));
        project.allowBash("touch denied-marker");
        // the compiled hook is the user and local scopes' fast path (project settings are committed: portable)
        Command.Result installed = project.installWarden(launcher, claude.baseEnv(), List.of("--scope", "local"));
        assertThat(installed.exitCode()).as(installed.stdout() + installed.stderr()).isZero();
        String command = null;
        for (dev.agentwarden.install.Installer.Entry e : dev.agentwarden.install.claude.ClaudeSettings.wardenEntries(
                Files.readAllBytes(project.root().resolve(".claude/settings.local.json")), "claude")) {
            if (e.nativeEvent().equals("PreToolUse")) {
                command = e.target();
            }
        }
        dev.agentwarden.install.HookCommand.Fast fast = command == null ? null
                : dev.agentwarden.install.claude.ClaudeSettings.fastParts(command);
        if (fast == null) {
            pending(row, "install wrote no compiled hook here (no cc?): " + command);
        }
        Files.delete(Path.of(fast.hook()));

        ClaudeRun run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("denied", "Bash", Map.of("command", "touch denied-marker", "description", "touch marker")),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("denied");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; marker " + (project.exists("denied-marker") ? "CREATED" : "absent"));
        assertCompleted(run);
        assertThat(result).as("tool_result for the denied call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).isEqualTo(facts.deniedToolResult("Bash", "[warden] DENY-9c1: denied-marker is off limits"));
        });
        assertThat(project.exists("denied-marker")).as("the denied command ran").isFalse();
        row.pass();
    }

    @Test
    @Order(2)
    void advisoryConcern_warns_toolRunsAndTheWarningReachesTheModel(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "advisory concern warns",
                "Bash runs; Warden's warning is in the next request beside the tool_result");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                watch-warned-marker:
                  script: builtin:deny-pattern
                  posture: advisory
                  tools: [Bash]
                  patterns:
                    - match: 'touch warned-marker'
                      reason: "WARN-5c1: warned-marker is watched"
                """, """
                pre_tool_use: [watch-warned-marker]
                """));
        project.allowBash("touch warned-marker");
        install(project);

        ClaudeRun run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("warned", "Bash", Map.of("command", "touch warned-marker", "description", "touch marker")),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("warned");
        List<String> warning = result.map(r -> r.context().stream().filter(t -> t.contains("WARN-5c1")).toList())
                .orElse(List.of());
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; marker " + (project.exists("warned-marker") ? "created" : "ABSENT")
                + "; context=" + (warning.isEmpty() ? "NONE" : warning.get(0).strip()));
        assertCompleted(run);
        assertThat(result).as("tool_result for the warned call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isFalse();
            assertThat(r.content()).doesNotContain("WARN-5c1");
        });
        assertThat(warning).as("Warden's warning beside the tool_result").singleElement().asString()
                .contains("PreToolUse:Bash hook additional context:")
                .contains("WARN-5c1: warned-marker is watched");
        List<String> inSystemMessage = result.map(r -> r.systemMessages().stream().filter(t -> t.contains("WARN-5c1"))
                .toList()).orElse(List.of());
        assertThat(inSystemMessage).as(facts.toolContextAsSystemMessage()
                ? "the warning as a separate system message after the tool_result"
                : "the warning as a text block of the tool_result's own message").hasSize(facts.toolContextAsSystemMessage() ? 1 : 0);
        assertThat(project.exists("warned-marker")).as("the warned command ran").isTrue();
        assertThat(run.permissionDenials()).isEmpty();
        row.pass();
    }

    @Test
    @Order(3)
    void noOpinion_leavesTheHostsPermissionFlowAlone(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "no opinion",
                "Warden consulted on both calls and silent: allowed Bash runs; unlisted Bash still refused by the host");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                no-rm-root:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'rm\\s+-rf\\s+/'
                      reason: "never delete the root"
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture, no-rm-root]
                """));
        project.allowBash("touch allowed-marker");
        install(project);

        ClaudeRun run = session(project, "touch two markers", ModelScript.of(
                Turn.tool("allowed", "Bash", Map.of("command", "touch allowed-marker", "description", "allowed")),
                Turn.tool("unlisted", "Bash", Map.of("command", "touch unlisted-marker", "description", "unlisted")),
                Turn.text("FINAL: done")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> allowed = run.toolResult("allowed");
        Optional<ClaudeRun.ToolResultSeen> unlisted = run.toolResult("unlisted");
        List<Object> consulted = project.captured().stream().filter(e -> "PreToolUse".equals(e.get("native_event")))
                .map(e -> E2eProject.payloadOf(e).get("tool_use_id")).toList();
        List<Map<?, ?>> hookOutput = run.hookRecords("PreToolUse").stream()
                .filter(h -> !String.valueOf(h.get("stdout")).isBlank()).toList();
        row.observed("warden consulted on " + consulted + ", printed " + hookOutput.size() + " answers; allowed: "
                + (project.exists("allowed-marker") ? "ran" : "DID NOT RUN") + "; unlisted: "
                + (project.exists("unlisted-marker") ? "RAN" : "refused") + " ("
                + unlisted.map(ClaudeRun.ToolResultSeen::content).orElse("no tool_result") + ")");
        assertCompleted(run);
        assertThat(consulted).as("PreToolUse calls that reached Warden's chain")
                .containsExactly("toolu_allowed", "toolu_unlisted");
        assertThat(hookOutput).as("hook answers on stdout recorded by the host (Warden must print none)").isEmpty();
        assertThat(allowed).hasValueSatisfying(r -> assertThat(r.isError()).isFalse());
        assertThat(project.exists("allowed-marker")).as("the allowed command ran").isTrue();
        assertThat(unlisted).hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).doesNotContain("[warden]").contains("unlisted-marker");
        });
        assertThat(project.exists("unlisted-marker")).as("the unlisted command ran: an explicit allow leaked").isFalse();
        assertThat(run.permissionDenials()).containsExactly("toolu_unlisted");
        row.pass();
    }

    @Test
    @Order(4)
    void subagentSpawn_hooksReachWardenWithTheHostsAgentId() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "subagent spawn: lineage",
                "SubagentStart, the subagent's PreToolUse and SubagentStop reach Warden with the agent_id the host reports");
        ClaudeRun run = subagentRun(row);
        E2eProject project = subagentProject;

        row.timing(run);
        List<Map<String, Object>> events = project.captured();
        List<String> trace = events.stream().map(E2eProject::traceOf).toList();
        Optional<String> agentId = events.stream().filter(e -> "SubagentStart".equals(e.get("native_event")))
                .map(e -> (String) E2eProject.payloadOf(e).get("agent_id")).findFirst();
        Optional<ClaudeRun.ToolResultSeen> agentResult = run.toolResult("helper");
        row.observed("chain saw " + trace + "; Agent tool_result names "
                + agentResult.map(r -> r.content().replaceAll("(?s).*(agentId: \\w+).*", "$1")).orElse("nothing"));
        assertCompleted(run);
        assertThat(agentId).as("agent_id on SubagentStart").hasValueSatisfying(id -> assertThat(id).isNotBlank());
        String id = agentId.get();
        assertThat(trace).as("events in Warden's chain, in order").containsExactly(
                "PreToolUse Agent agent_id=-",
                "SubagentStart general-purpose agent_id=" + id,
                "PreToolUse Bash agent_id=" + id,
                "SubagentStop general-purpose agent_id=" + id);
        assertThat(E2eProject.payloadOf(events.get(2)).get("tool_use_id")).isEqualTo("toolu_sub_touch");
        assertThat(agentResult).as("the host's own record of the spawn")
                .hasValueSatisfying(r -> assertThat(r.content()).contains(id));
        assertThat(project.exists("sub-marker")).as("the subagent's command ran").isTrue();
        List<String> notifications = taskNotifications(run);
        if (facts.asyncSubagents()) {
            assertThat(notifications).as("the host's <task-notification> prompt after the background subagent ended")
                    .isNotEmpty().allSatisfy(t -> assertThat(t).contains(id));
        } else {
            assertThat(notifications).as("a foreground subagent needs no task notification").isEmpty();
        }
        row.pass();
    }

    @Test
    @Order(5)
    void subagentSpawn_reachesTheLedgerWithRealLineage() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "subagent spawn: ledger",
                "ledger has start and stop lines for ref=sha256(agent_id)[:12]; raw agent_id never written");
        if (!Builtins.exists("subagent-ledger")) {
            pending(row, "builtin:subagent-ledger is not on this branch yet (issue 3)");
        }
        ClaudeRun run = subagentRun(row);
        String agentId = subagentProject.captured().stream().filter(e -> "SubagentStart".equals(e.get("native_event")))
                .map(e -> (String) E2eProject.payloadOf(e).get("agent_id")).findFirst().orElseThrow();
        String ref = sha256(agentId).substring(0, 12);
        Path state = subagentProject.root().resolve(".warden/state");
        List<String> ledger = new ArrayList<>();
        if (Files.isDirectory(state.resolve("ledger"))) {
            try (Stream<Path> files = Files.list(state.resolve("ledger"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                    ledger.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
                }
            }
        }
        row.timing(run);
        row.observed(ledger.size() + " ledger lines; ref " + ref);
        assertThat(ledger).anySatisfy(l -> assertThat(l).contains("\"subagent_start\"").contains("\"" + ref + "\"")
                .contains("\"depth\":1,\"depth_basis\":\"assumed-root\"").contains("\"concurrent_open\":1"));
        assertThat(ledger).anySatisfy(l -> assertThat(l).contains("\"subagent_stop\"").contains("\"" + ref + "\"")
                .contains("\"start_seen\":true").containsPattern("\"duration_ms\":\\d+,")
                .contains("\"envelope_parse\":\"no_envelope\"").contains("\"concurrent_open\":0"));
        try (Stream<Path> files = Files.walk(state)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f, StandardCharsets.ISO_8859_1)).as("raw agent_id in " + f).doesNotContain(agentId);
            }
        }
        assertThat(state.resolve("open/" + ref + ".json")).as("open record after the stop").doesNotExist();
        row.pass();
    }

    @Test
    @Order(6)
    void backgroundSubagentIsOpen_whenTheParentSpawnsAgain() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "spawn while a subagent is open",
                "background subagent's SubagentStart reaches Warden before the second spawn's PreToolUse");
        ClaudeRun run = backgroundRun(row);
        List<String> trace = backgroundProject.captured().stream().map(E2eProject::traceOf)
                .filter(t -> t.startsWith("Subagent") || t.startsWith("PreToolUse Agent")).toList();
        row.timing(run);
        row.observed("chain saw " + trace);
        assertCompleted(run);
        assertThat(trace).as("spawn events in Warden's chain").hasSizeGreaterThanOrEqualTo(3);
        assertThat(trace.subList(0, 3)).satisfiesExactly(
                t -> assertThat(t).isEqualTo("PreToolUse Agent agent_id=-"),
                t -> assertThat(t).startsWith("SubagentStart general-purpose agent_id="),
                t -> assertThat(t).isEqualTo("PreToolUse Agent agent_id=-"));
        assertThat(backgroundProject.exists("release")).as("the parent ran its last command").isTrue();
        List<Map<String, Object>> stops = backgroundProject.captured().stream()
                .filter(e -> "Stop".equals(e.get("native_event")) || "SubagentStop".equals(e.get("native_event")))
                .map(E2eProject::payloadOf).toList();
        // Both versions list the session's background tasks on Stop and SubagentStop.
        assertThat(stops).as("Stop and SubagentStop payloads").isNotEmpty().allSatisfy(p -> assertThat(p.get("background_tasks"))
                .as("background_tasks on " + p.get("hook_event_name")).isInstanceOf(List.class));
        row.pass();
    }

    @Test
    @Order(7)
    void spawnBeyondTheThreshold_isDeniedInBlockingPosture() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "spawn beyond threshold (blocking guard)",
                "second spawn refused with the guard's reason while the first subagent is open");
        if (!Builtins.exists("spawn-guard") || !Builtins.exists("subagent-ledger")) {
            pending(row, "builtin:spawn-guard / builtin:subagent-ledger are not on this branch yet (issue 3)");
        }
        ClaudeRun run = backgroundRun(row);
        Optional<ClaudeRun.ToolResultSeen> second = run.toolResult("second");
        row.timing(run);
        row.observed(second.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result"));
        assertCompleted(run);
        assertThat(second).hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).startsWith(facts.deniedToolResult("Agent", "[warden] spawn refused: 1 subagent is "
                    + "already open in this session, threshold max_concurrent=1 (spawn-guard candidate m1)"));
        });
        List<String> ledger = new ArrayList<>();
        try (Stream<Path> files = Files.list(backgroundProject.root().resolve(".warden/state/ledger"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                ledger.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        }
        assertThat(ledger).as("the guard's line for the refused spawn").anySatisfy(l -> assertThat(l)
                .contains("\"event\":\"spawn_guard\"").contains("\"concurrent_open\":1").contains("\"acted\":true"));
        assertThat(backgroundProject.exists("second-marker")).as("the refused subagent ran").isFalse();
        row.pass();
    }

    @Test
    @Order(8)
    void attachMode_smallAgent_reachesTheModelWhole(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "integrity attach: agent payload",
                "first request carries the payload whole (both markers); evidence LOADED_WITH_REPORT, attached_sha = its SHA-256");
        E2eProject project = project(dir, row);
        Path agents = Files.createDirectories(project.root().resolve(".claude/agents"));
        Files.writeString(agents.resolve("reviewer.md"), ATTACH_AGENT, StandardCharsets.UTF_8);
        project.manifest(manifest("""
                agent-integrity:
                  script: builtin:integrity-attach
                  posture: blocking
                  agent: reviewer
                  profile: markers
                  head_marker: "%s"
                  eof_marker: "%s"
                """.formatted(ATTACH_HEAD, ATTACH_EOF), """
                session_start: [agent-integrity]
                """));
        install(project);

        ClaudeRun run = session(project, "review the diff", ModelScript.of(Turn.text("FINAL: reviewed")));

        row.timing(run);
        List<String> carrying = run.server().steps().isEmpty() ? List.of()
                : requestTexts(run.server().steps().get(0)).stream().filter(t -> t.contains(SESSION_START_CONTEXT)).toList();
        String seen = carrying.isEmpty() ? "" : carrying.get(0);
        int at = seen.indexOf(SESSION_START_CONTEXT) + SESSION_START_CONTEXT.length();
        String attached = seen.isEmpty() ? "" : seen.substring(at, Math.min(seen.length(), at + ATTACH_AGENT.length()));
        List<Map<String, Object>> evidence = evidence(project);
        Map<String, Object> attach = evidenceEvent(evidence, "prompt_attach_status");
        Map<String, Object> decision = evidenceEvent(evidence, "decision");
        row.observed(carrying.size() + " message(s) with SessionStart context; payload " + (attached.equals(ATTACH_AGENT)
                ? "whole (" + ATTACH_AGENT.getBytes(StandardCharsets.UTF_8).length + " bytes)" : "DIFFERENT") + "; evidence "
                + attach.get("prompt_attach_status") + " -> " + decision.get("outcome") + ", attached_sha "
                + (sha256(ATTACH_AGENT).equals(attach.get("attached_sha")) ? "matches" : "DIFFERS"));
        assertCompleted(run);
        assertThat(carrying).as("texts of the first model request carrying SessionStart hook context").singleElement()
                .asString().startsWith(SESSION_START_CONTEXT + ATTACH_AGENT);
        assertThat(attached).as("the payload as the model read it").isEqualTo(ATTACH_AGENT)
                .startsWith("---\nname: reviewer").contains(ATTACH_HEAD).endsWith(ATTACH_EOF + "\n");
        assertThat(run.resultText()).isEqualTo("FINAL: reviewed");

        assertThat(evidence.stream().map(e -> e.get("event")).toList()).as("evidence events, in order").containsExactly(
                "selected_agent_id", "payload_read_status", "prompt_attach_status", "transport_integrity",
                "release_integrity", "decision");
        assertThat(evidenceEvent(evidence, "selected_agent_id"))
                .containsEntry("host_session_id", run.output().get("session_id"))
                .containsEntry("resolution", "project .claude/agents");
        assertThat(attach).containsEntry("prompt_attach_status", "ATTACHED_FULL")
                .containsEntry("attached_sha", sha256(ATTACH_AGENT))
                .containsEntry("attached_bytes", (long) ATTACH_AGENT.getBytes(StandardCharsets.UTF_8).length)
                .containsEntry("channel", "claude.additionalContext")
                .containsEntry("emitted", true);
        assertThat(evidenceEvent(evidence, "payload_read_status")).containsEntry("payload_read_status", "LOADED")
                .containsEntry("source_sha_after_read", sha256(ATTACH_AGENT));
        // No release manifest is configured, so the release axis is UNREGISTERED: loaded, with a report.
        assertThat(decision).containsEntry("outcome", "LOADED_WITH_REPORT");
        assertThat(replayedOutcome(project)).as("outcome recomputed from the evidence").isEqualTo(Outcome.LOADED_WITH_REPORT);
        row.pass();
    }

    /**
     * Claude Code 2.1.197 in {@code -p} mode ignores {@code continue: false} from a SessionStart hook
     * but honours it from UserPromptSubmit (see the class comment). With the gate bound to both, the
     * SessionStart answer withholds the payload and records HALT_CORRUPT, and the first prompt is
     * stopped with the same reason: the model is never called and the user reads Warden's reason.
     */
    @Test
    @Order(9)
    void attachMode_oversizedAgent_isWithheldAndTheSessionStopsWithTheReason(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "integrity attach: oversized payload",
                "payload never reaches the model; evidence HALT_CORRUPT; session stopped at the prompt with Warden's reason");
        E2eProject project = project(dir, row);
        Path agents = Files.createDirectories(project.root().resolve(".github/agents"));
        byte[] squad = SquadArtifacts.coordinator("0.13.1", SquadArtifacts.TEMPLATE_TEAM, SquadArtifacts.SDK_TEMPLATE_BYTES);
        Files.write(agents.resolve("squad.agent.md"), squad);
        // Bound to user_prompt_submit too: 2.1.197 in -p mode ignores continue:false from SessionStart,
        // so the gate repeats its start-time halt on the prompt, where the host honours it.
        project.manifest(manifest("""
                agent-integrity:
                  script: builtin:integrity-attach
                  posture: blocking
                  agent: squad
                """, """
                session_start: [agent-integrity]
                user_prompt_submit: [agent-integrity]
                """));
        install(project);

        ClaudeRun run = session(project, "coordinate the team", ModelScript.of(Turn.text("FINAL: coordinated")));

        row.timing(run);
        List<Map<?, ?>> starts = run.hookRecords("SessionStart");
        Map<String, Object> startAnswer = starts.isEmpty() ? Map.of() : Json.parseObject(String.valueOf(starts.get(0).get("stdout")));
        String stopReason = String.valueOf(startAnswer.get("stopReason"));
        List<Map<String, Object>> evidence = evidence(project);
        Map<String, Object> attach = evidenceEvent(evidence, "prompt_attach_status");
        Map<String, Object> decision = evidenceEvent(evidence, "decision");
        row.observed("model calls " + run.server().steps().size() + "; evidence " + attach.get("prompt_attach_status") + " -> "
                + decision.get("outcome") + "; result=\"" + String.valueOf(run.resultText()).replaceAll(" \\(session .*", "") + "\"");

        assertThat(starts).as("the host's record of Warden's SessionStart answer").singleElement()
                .satisfies(h -> assertThat(h.get("exitCode")).isEqualTo(0L));
        assertThat(startAnswer).containsEntry("continue", false).doesNotContainKey("hookSpecificOutput");
        assertThat(stopReason).startsWith("[warden] integrity HALT_CORRUPT for agent 'squad': attach_clipped: "
                        + "host_output_cap: the payload is " + squad.length + " characters; the host keeps 10000")
                .contains(project.root().resolve(".warden/state/integrity/evidence.jsonl").toString());
        assertThat(run.server().steps()).as("model calls: the session stops before the prompt reaches the model: "
                + run.describe()).isEmpty();
        // The transcript keeps no hook record for the stopping prompt; the result text is the host's
        // own report of Warden's UserPromptSubmit answer.
        assertThat(run.resultText()).as("what the user sees")
                .isEqualTo("Operation stopped by hook: " + stopReason + " [halted at session start; no prompt may run in this session]");

        assertThat(evidenceEvent(evidence, "payload_read_status")).containsEntry("payload_read_status", "LOADED")
                .containsEntry("bytes_read", (long) squad.length);
        assertThat(attach).containsEntry("prompt_attach_status", "ATTACHED_PARTIAL").containsEntry("emitted", false)
                .containsEntry("attached_bytes", 10_000L);
        assertThat(decision).containsEntry("outcome", "HALT_CORRUPT");
        assertThat(replayedOutcome(project)).as("outcome recomputed from the evidence").isEqualTo(Outcome.HALT_CORRUPT);
        row.pass();
    }

    /**
     * Claude Code runs the tool when a PreToolUse hook answers only {@code continue: false} (and ends
     * the session afterwards), so Warden's halt there is also a deny. The halt comes from the
     * integrity gate's start-time halt (an oversized agent), which Claude Code ignores on
     * SessionStart in {@code -p} mode; with the manifest aliasing PreToolUse to the gate's
     * follow-up event and UserPromptSubmit unbound, the prompt reaches the model and the halt lands
     * on its first tool call. The command is allowed by the project's own rule, so only Warden's
     * deny keeps it from running. The host drops {@code continue: false} on a call it denies (see
     * the class comment): the model reads the halt reason as the tool's error and answers once more.
     */
    @Test
    @Order(9)
    void haltOnPreToolUse_theCommandDoesNotRun(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "halt on PreToolUse",
                "the halted Bash call does not run; the model reads the halt reason as its error tool_result");
        E2eProject project = project(dir, row);
        Path agents = Files.createDirectories(project.root().resolve(".github/agents"));
        Files.write(agents.resolve("squad.agent.md"),
                SquadArtifacts.coordinator("0.13.1", SquadArtifacts.TEMPLATE_TEAM, SquadArtifacts.SDK_TEMPLATE_BYTES));
        project.manifest("""
                schema_version: 1
                concerns:
                  agent-integrity:
                    script: builtin:integrity-attach
                    posture: blocking
                    agent: squad
                platforms:
                  claude:
                    session_start: [agent-integrity]
                    user_prompt_submit: [agent-integrity]
                native_event_aliases:
                  claude:
                    SessionStart: session_start
                    PreToolUse: user_prompt_submit
                """);
        project.allowBash("touch halted-marker");
        install(project);

        ClaudeRun run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("halted", "Bash", Map.of("command", "touch halted-marker", "description", "touch marker")),
                Turn.text("FINAL: told")));

        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("halted");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; marker " + (project.exists("halted-marker") ? "CREATED" : "absent") + "; model calls "
                + run.server().steps().size() + "; result=" + run.resultText());

        assertThat(project.exists("halted-marker")).as("the halted command ran: " + run.describe()).isFalse();
        if (facts.haltBesideDenyEndsTheSession()) {
            row.observed("marker " + (project.exists("halted-marker") ? "CREATED" : "absent") + "; model calls "
                    + run.server().steps().size() + "; output " + Json.write(run.output()));
            assertThat(run.server().steps()).as("the session ends at the halt: no model call after it").hasSize(1);
            assertThat(run.permissionDenials()).containsExactly("toolu_halted");
            assertThat(run.server().problems()).as("scripted model problems").isEmpty();
            row.pass();
            return;
        }
        assertThat(result).as("tool_result for the halted call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).startsWith("[warden] integrity HALT_CORRUPT for agent 'squad'")
                    .endsWith("[halted at session start; no prompt may run in this session]");
        });
        assertThat(run.permissionDenials()).containsExactly("toolu_halted");
        assertCompleted(run);
        row.pass();
    }

    @Test
    @Order(10)
    void wardenJarMissing_hostKeepsWorkingAndFailsOpen(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "Warden broken: jar missing",
                "hook notes the missing jar and allows; Bash runs; session completes");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-guarded-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'touch guarded-marker'
                      reason: "would deny if Warden could run"
                """, """
                pre_tool_use: [no-guarded-marker]
                """));
        project.allowBash("touch guarded-marker");
        Path copy = brokenLauncherHome(dir.resolve("warden-copy"), project);

        ClaudeRun run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("guarded", "Bash", Map.of("command", "touch guarded-marker", "description", "touch marker")),
                Turn.text("FINAL: done")));

        row.timing(run);
        List<Map<?, ?>> hooks = run.hookRecords("PreToolUse");
        String stderr = hooks.isEmpty() ? "" : String.valueOf(hooks.get(0).get("stderr")).strip();
        row.observed("hook exit " + (hooks.isEmpty() ? "?" : hooks.get(0).get("exitCode")) + " stderr=\"" + stderr
                + "\"; marker " + (project.exists("guarded-marker") ? "created" : "ABSENT"));
        assertCompleted(run);
        assertThat(hooks).as("the host's record of Warden's PreToolUse hook").singleElement().satisfies(h -> {
            assertThat(String.valueOf(h.get("command"))).contains(copy.resolve("bin/warden").toString());
            assertThat(h.get("exitCode")).isEqualTo(0L);
            assertThat(String.valueOf(h.get("stderr"))).contains("warden.jar is missing").contains("allowing");
            assertThat(String.valueOf(h.get("stdout"))).isEmpty();
        });
        assertThat(run.toolResult("guarded")).hasValueSatisfying(r -> assertThat(r.isError()).isFalse());
        assertThat(project.exists("guarded-marker")).as("the command ran (fail-open)").isTrue();
        row.pass();
    }

    @Test
    @Order(11)
    void crashingConcern_failsOpen_exceptWhereFailClosedRefuses(@TempDir Path dir) throws Exception {
        E2eSummary.Row open = SUMMARY.row(host, "Warden broken: concern crashes",
                "crash fails open: Bash runs; hook notes the crash");
        E2eSummary.Row closed = SUMMARY.row(host, "Warden broken: fail_closed concern crashes",
                "crash refuses: error tool_result naming fail_closed; command not run");
        E2eProject project = project(dir, open, closed);
        project.concern("crash.sh", """
                #!/usr/bin/env bash
                # Crashes (SIGKILL) when the event names $1; otherwise has no opinion.
                if grep -q -- "$1"; then kill -KILL $$; fi
                exit 0
                """);
        project.manifest(manifest("""
                crashes-open:
                  script: .warden/concerns/crash.sh
                  args: [open-marker]
                  posture: blocking
                  tools: [Bash]
                crashes-closed:
                  script: .warden/concerns/crash.sh
                  args: [closed-marker]
                  posture: blocking
                  fail_closed: true
                  tools: [Bash]
                """, """
                pre_tool_use: [crashes-open, crashes-closed]
                """));
        project.allowBash("touch open-marker", "touch closed-marker");
        install(project);

        ClaudeRun run = session(project, "touch two markers", ModelScript.of(
                Turn.tool("open", "Bash", Map.of("command", "touch open-marker", "description", "open")),
                Turn.tool("closed", "Bash", Map.of("command", "touch closed-marker", "description", "closed")),
                Turn.text("FINAL: done")));

        open.timing(run);
        closed.timing(run);
        List<Map<?, ?>> hooks = run.hookRecords("PreToolUse");
        Optional<ClaudeRun.ToolResultSeen> openResult = run.toolResult("open");
        Optional<ClaudeRun.ToolResultSeen> closedResult = run.toolResult("closed");
        String firstStderr = hooks.isEmpty() ? "(no hook record)" : String.valueOf(hooks.get(0).get("stderr")).strip();
        open.observed("marker " + (project.exists("open-marker") ? "created" : "ABSENT") + "; hook stderr=\""
                + firstStderr + "\"");
        closed.observed(closedResult.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result") + "; marker "
                + (project.exists("closed-marker") ? "CREATED" : "absent"));
        assertCompleted(run);

        assertThat(openResult).hasValueSatisfying(r -> assertThat(r.isError()).isFalse());
        assertThat(project.exists("open-marker")).as("the command ran (fail-open)").isTrue();
        assertThat(firstStderr).contains("crashes-open").contains("exit code 137").contains("fail-open");
        open.pass();

        assertThat(closedResult).hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).startsWith(facts.deniedToolResult("Bash", "[warden] crashes-closed could not run (exit code 137"))
                    .contains("fail_closed refuses");
        });
        assertThat(project.exists("closed-marker")).as("the command ran despite fail_closed").isFalse();
        assertThat(run.permissionDenials()).containsExactly("toolu_closed");
        closed.pass();
    }

    // ---- Shared sessions ---------------------------------------------------------------------

    /**
     * One session in which the model spawns a subagent that runs Bash; the lineage and ledger
     * scenarios both read it (it lives in the suite's folder, so it outlives the first of them).
     */
    private static synchronized ClaudeRun subagentRun(E2eSummary.Row row) throws Exception {
        if (subagentRun != null) {
            return subagentRun;
        }
        E2eProject project = project(Files.createDirectories(suiteDir.resolve(claudeVersion + "/subagent")), row);
        boolean ledger = Builtins.exists("subagent-ledger");
        String lifecycle = ledger ? "[capture, subagent-ledger]" : "[capture]";
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                %s""".formatted(E2eProject.CAPTURE_SCRIPT, ledger ? """
                subagent-ledger:
                  script: builtin:subagent-ledger
                  posture: shadow
                """ : ""), """
                pre_tool_use: [capture]
                subagent_start: %s
                subagent_stop: %s
                """.formatted(lifecycle, lifecycle)));
        project.allowBash("touch sub-marker");
        install(project);
        subagentRun = session(project, "delegate the marker", ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-e2e: touch sub-marker", "general-purpose",
                        Turn.tool("sub_touch", "Bash", Map.of("command", "touch sub-marker", "description", "sub touch")),
                        Turn.text("SUB-FINAL: done")),
                Turn.text("FINAL: done"),
                // Where subagents run in the background, the host's <task-notification> prompt takes one more turn.
                Turn.text("ACK: background helper finished")));
        subagentProject = project;
        return subagentRun;
    }

    /**
     * One session in which a background subagent stays open (its Bash waits for a file) while the
     * parent spawns a second subagent, then releases the first. The second spawn is held until the
     * first subagent's first model request, i.e. until its SubagentStart hooks have finished (see the
     * class comment). With the guard on the branch, the guard runs in blocking posture with a
     * concurrency threshold of 1.
     */
    private static synchronized ClaudeRun backgroundRun(E2eSummary.Row row) throws Exception {
        if (backgroundRun != null) {
            return backgroundRun;
        }
        E2eProject project = project(Files.createDirectories(suiteDir.resolve(claudeVersion + "/background")), row);
        Files.writeString(project.root().resolve("wait-release.sh"),
                "#!/usr/bin/env bash\n# Holds the background subagent open until the parent creates ./release"
                        + " (gives up after 60 s, so a failed run leaves no process behind).\n"
                        + "for _ in $(seq 1200); do [ -e release ] && { echo released; exit 0; }; sleep 0.05; done\n"
                        + "echo 'never released' >&2; exit 1\n");
        project.root().resolve("wait-release.sh").toFile().setExecutable(true);
        boolean guard = Builtins.exists("spawn-guard") && Builtins.exists("subagent-ledger");
        // The guard's settings follow issue 3 (candidates with max_depth / max_concurrent); align the keys
        // with the built-in's documentation when it merges.
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                %s""".formatted(E2eProject.CAPTURE_SCRIPT, guard ? """
                subagent-ledger:
                  script: builtin:subagent-ledger
                  posture: shadow
                spawn-guard:
                  script: builtin:spawn-guard
                  posture: blocking
                  tools: [Agent, Task]
                  candidates:
                    - {label: m1, max_depth: 4, max_concurrent: 1}
                """ : ""), guard ? """
                pre_tool_use: [capture, spawn-guard]
                subagent_start: [capture, subagent-ledger]
                subagent_stop: [capture, subagent-ledger]
                stop: [capture]
                """ : """
                pre_tool_use: [capture]
                subagent_start: [capture]
                subagent_stop: [capture]
                stop: [capture]
                """));
        project.allowBash("./wait-release.sh", "touch release", "touch second-marker");
        install(project);
        backgroundRun = session(project, "run two helpers", ModelScript.of(
                Turn.spawn("first", "SUBAGENT-TASK-bg: wait for the release file", "general-purpose",
                        Turn.tool("wait", "Bash", Map.of("command", "./wait-release.sh", "description", "wait")),
                        Turn.text("SUB-FINAL: released")).inBackground(),
                Turn.afterStartOf("first", Turn.spawn("second", "SUBAGENT-TASK-fg: touch second-marker",
                        "general-purpose",
                        Turn.tool("second_touch", "Bash", Map.of("command", "touch second-marker", "description", "touch")),
                        Turn.text("SUB-FINAL: touched"))),
                Turn.tool("release", "Bash", Map.of("command", "touch release", "description", "release")),
                Turn.text("FINAL: done"),
                Turn.text("ACK: background helper finished")));
        backgroundProject = project;
        return backgroundRun;
    }

    @Test
    @Order(12)
    void residentServer_answersEveryHook_noJvmStartsPerEvent(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "resident server answers the hook",
                "bin/warden forwards the hook to the resident (its java may not start); Bash denied with Warden's reason");
        ResidentRun r = residentSession(dir, row, SandboxResident.Hostile.NONE);
        r.observe(row);
        assertCompleted(r.run());
        assertThat(r.javaCalls()).as("bin/warden started its java (an event was not forwarded)").isEmpty();
        r.assertDeniedByWarden();
        assertThat(r.stopped()).as("the resident's own count: the PreToolUse hook was forwarded to it")
                .matches(SandboxResident.ANSWERED_FORWARDED);
        row.pass();
    }

    /**
     * Issue 10 item 9 on the real host: a cloned repository ships its ledger head and this month's
     * segment as links to files outside the project. A session with a subagent must leave those files
     * untouched, and the refusal must not be silent: the hook notes it on stderr (which Claude Code
     * does not keep for these events) and {@code ledger verify} fails naming it.
     */
    @Test
    @Order(13)
    void subagentSpawn_ledgerFilesPlantedAsSymlinks_leaveTheOutsideFilesAloneAndSaySo(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "planted ledger symlinks",
                "head.json and the segment link out of the project: outside files unchanged; ledger verify names the refusal");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                subagent-ledger:
                  script: builtin:subagent-ledger
                  posture: shadow
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture]
                subagent_start: [capture, subagent-ledger]
                subagent_stop: [capture, subagent-ledger]
                """));
        Path outside = Files.createDirectories(dir.resolve("outside-the-project"));
        Path headVictim = Files.writeString(outside.resolve("victim-head.txt"), "the user's own file\n".repeat(30));
        Path segmentVictim = Files.writeString(outside.resolve("victim-segment.txt"), "another file of the user's\n");
        String headBefore = Files.readString(headVictim);
        String segmentBefore = Files.readString(segmentVictim);
        Path ledgerDir = Files.createDirectories(project.root().resolve(".warden/state/ledger"));
        Files.createSymbolicLink(ledgerDir.resolve("head.json"), headVictim);
        String month = java.time.YearMonth.now(java.time.ZoneOffset.UTC).toString();
        Files.createSymbolicLink(ledgerDir.resolve(month + ".jsonl"), segmentVictim);
        project.allowBash("touch sub-marker");
        install(project);

        ClaudeRun run = session(project, "delegate the marker", ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-e2e: touch sub-marker", "general-purpose",
                        Turn.tool("sub_touch", "Bash", Map.of("command", "touch sub-marker", "description", "sub touch")),
                        Turn.text("SUB-FINAL: done")),
                Turn.text("FINAL: done"),
                // Where subagents run in the background, the host's <task-notification> prompt takes one more turn.
                Turn.text("ACK: background helper finished")));

        row.timing(run);
        // Claude Code keeps no transcript record of SubagentStart/SubagentStop hook output, so the
        // refusal is read where the user reads it: `warden ledger verify` on the project.
        Command.Result verify = Command.run(List.of(launcher.toString(), "ledger", "verify", "--project-dir",
                project.root().toString()), wardenHome, claude.baseEnv(), Duration.ofMinutes(2));
        boolean headKept = Files.readString(headVictim).equals(headBefore);
        boolean segmentKept = Files.readString(segmentVictim).equals(segmentBefore);
        row.observed("head victim " + (headKept ? "unchanged" : "CHANGED") + ", segment victim "
                + (segmentKept ? "unchanged" : "CHANGED") + "; ledger verify exit " + verify.exitCode() + ": "
                + verify.stdout().strip().replace('\n', ' '));
        assertCompleted(run);
        assertThat(project.exists("sub-marker")).as("the subagent's command ran").isTrue();
        assertThat(headKept).as("the file head.json linked to").isTrue();
        assertThat(segmentKept).as("the file the segment linked to").isTrue();
        assertThat(verify.exitCode()).as("ledger verify: " + verify.stdout() + verify.stderr()).isEqualTo(1);
        assertThat(verify.stdout()).contains("state_symlink_refused").contains("NOT intact");
        row.pass();
    }

    @Test
    @Order(14)
    void residentServer_portStalledByOtherConnections_bashStillDeniedByTheResident(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "resident port stalled by other connections",
                "20 half-sent requests held on the resident's port all session; the hook is still forwarded; Bash denied");
        pinnedOnly(row);
        ResidentRun r = residentSession(dir, row, SandboxResident.Hostile.STALLED);
        r.observe(row);
        assertCompleted(r.run());
        assertThat(r.javaCalls()).as("bin/warden started its java (an event was not forwarded)").isEmpty();
        r.assertDeniedByWarden();
        assertThat(r.stopped()).matches(SandboxResident.ANSWERED_FORWARDED);
        row.pass();
    }

    @Test
    @Order(15)
    void staleEndpoint_portHeldByAnImpostor_impostorGetsNothing_bashDeniedByAJvm(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "stale resident endpoint, impostor on its port",
                "the impostor (answers allow at once) receives no byte; the hook is answered by a JVM; Bash denied");
        pinnedOnly(row);
        ResidentRun r = residentSession(dir, row, SandboxResident.Hostile.IMPOSTOR);
        row.observed(r.result().map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result") + "; " + r.stopped());
        assertCompleted(r.run());
        assertThat(r.stopped()).as("the launcher connected, and sent nothing")
                .matches(SandboxResident.IMPOSTOR_GOT_NOTHING);
        r.assertDeniedByWarden();
        row.pass();
    }

    @Test
    @Order(16)
    void inventoryTurns_freshThenResumedSessions_telemetryJoinKeepsEachPinAndNamesEveryExclusion(@TempDir Path dir)
            throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "inventory per turn + telemetry join (fresh, then resumed x3)",
                "turn records t0 fresh NONE, t1..t3 continued, t3 INVALIDATING; joins keep only the pinned condition and model");
        E2eProject project = project(dir, row);
        String cache = System.getenv().getOrDefault("WARDEN_E2E_CACHE", System.getProperty("user.home") + "/.cache/agent-warden-e2e");
        Path everything = Path.of(cache, "mcp-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        Path node = Command.onPath("node").orElse(null);
        if (node == null || !Files.isRegularFile(everything)) {
            pending(row, "server-everything is not installed at " + everything + " (.ci/run installs it)");
        }
        Path mcp = project.root().resolve(".mcp.json");
        Files.writeString(mcp, Json.writePretty(Map.of("mcpServers", Map.of("everything",
                Map.of("command", node.toString(), "args", List.of(everything.toString(), "stdio"))))));
        Map<String, String> env = new LinkedHashMap<>(claude.baseEnv());
        env.put("HOME", project.home().toString());
        Command.Result snap = Command.run(List.of(launcher.toString(), "inventory", "snapshot", "--host", "claude",
                "--allow-project-servers", "--no-store", "--json", "--project-dir", project.root().toString(),
                "--user-home", project.home().toString()), project.root(), env, Duration.ofMinutes(2));
        assertThat(snap.exitCode()).as("baseline snapshot: " + snap.stdout() + snap.stderr()).isZero();
        String baseline = (String) Json.parseObject(snap.stdout()).get("inventory_sha256");
        Files.writeString(project.root().resolve(".warden/prereg.yaml"), "baseline: " + baseline
                + "\nrequired_tools: [claude/everything/echo]\n");
        project.manifest(manifest("""
                inventory:
                  script: builtin:inventory-turns
                  prereg: .warden/prereg.yaml
                  allow_project_servers: true
                  wait_ms: 20s
                  timeout_ms: 30000
                """, """
                session_start: [inventory]
                user_prompt_submit: [inventory]
                """));
        install(project);
        Path artifact = Files.writeString(project.root().resolve("CLAUDE.md"), "Answer briefly.\n");

        String model = "claude-sonnet-4-5";
        // A resumed request carries the whole conversation, so each script repeats the turns before it.
        Turn[] turns = {Turn.tool("t0", "Bash", Map.of("command", "true", "description", "nothing")),
                Turn.text("FINAL: one"), Turn.text("FINAL: two"), Turn.text("FINAL: three"), Turn.text("FINAL: four")};
        ClaudeRun fresh = session(project, "first", List.of("--model", model),
                ModelScript.of(java.util.Arrays.copyOf(turns, 2)));
        assertCompleted(fresh);
        String sessionId = (String) fresh.output().get("session_id");
        ClaudeRun resumed = session(project, "second", List.of("--resume", sessionId, "--model", model),
                ModelScript.of(java.util.Arrays.copyOf(turns, 3)));
        ClaudeRun otherModel = session(project, "third", List.of("--resume", sessionId, "--model", "claude-haiku-4-5"),
                ModelScript.of(java.util.Arrays.copyOf(turns, 4)));
        Files.writeString(mcp, Json.writePretty(Map.of("mcpServers", Map.of("everything",
                Map.of("command", project.root().resolve("no-such-server").toString())))));
        ClaudeRun voided = session(project, "fourth", List.of("--resume", sessionId, "--model", model),
                ModelScript.of(turns));
        row.timing(fresh);
        for (ClaudeRun r : List.of(resumed, otherModel, voided)) {
            assertCompleted(r);
            assertThat(r.output().get("session_id")).as("--resume keeps the session id").isEqualTo(sessionId);
        }

        List<Map<String, Object>> records = new dev.agentwarden.inventory.TurnRecords(project.root(),
                project.root().resolve(".warden")).read(sessionId);
        List<String> trace = records.stream().map(r -> r.get("phase") + "#" + r.get("turn_index") + ":" + r.get("condition")
                + ":" + r.get("inventory_drift")).toList();
        Map<String, Object> joinedFresh = join(project, env, artifact, model, "fresh");
        Map<String, Object> joinedContinued = join(project, env, artifact, model, "continued");
        row.observed("turns " + trace + "; fresh join kept " + reasons(joinedFresh, "joined") + " excluded "
                + reasons(joinedFresh, "excluded") + "; continued join kept " + reasons(joinedContinued, "joined")
                + " excluded " + reasons(joinedContinued, "excluded"));

        assertThat(trace).containsExactly("session_start#0:fresh:NONE", "turn#0:fresh:NONE",
                "session_start#1:continued:NONE", "turn#1:continued:NONE",
                "session_start#2:continued:NONE", "turn#2:continued:NONE",
                "session_start#3:continued:INVALIDATING", "turn#3:continued:INVALIDATING");
        assertThat(records).allSatisfy(r -> assertThat(r.get("transcript_path")).asString().endsWith(sessionId + ".jsonl"));
        assertThat(joinedFresh.get("sources")).asList().hasSize(1);
        assertThat(reasons(joinedFresh, "joined")).containsOnly("t0");
        assertThat(reasons(joinedFresh, "excluded")).containsExactly("t1 condition_mismatch", "t2 model_mismatch",
                "t3 condition_mismatch");
        assertThat(reasons(joinedContinued, "joined")).containsExactly("t1");
        assertThat(reasons(joinedContinued, "excluded")).containsSubsequence("t0 condition_mismatch", "t2 model_mismatch",
                "t3 turn_voided").allMatch(r -> r.startsWith("t0 condition_mismatch") || !r.startsWith("t0"));
        assertThat((List<?>) joinedFresh.get("joined")).allSatisfy(j -> {
            Map<?, ?> usage = (Map<?, ?>) ((Map<?, ?>) j).get("usage");
            assertThat(usage.containsKey("input_tokens") && usage.containsKey("output_tokens")).as("raw usage " + usage).isTrue();
        });

        // The one exclusion a scripted session cannot produce itself: the same message's usage twice.
        // The real transcript, with its first usage line written again right after itself.
        Path transcript = Path.of((String) records.get(0).get("transcript_path"));
        List<String> lines = new ArrayList<>(Files.readAllLines(transcript, StandardCharsets.UTF_8));
        int usageLine = -1;
        for (int i = 0; i < lines.size() && usageLine < 0; i++) {
            if (lines.get(i).contains("\"usage\"") && lines.get(i).contains("\"assistant\"")) {
                usageLine = i;
            }
        }
        assertThat(usageLine).as("a usage line in " + transcript).isNotNegative();
        lines.add(usageLine + 1, lines.get(usageLine));
        Path repeated = Files.write(project.dir().resolve("transcript-with-a-repeat.jsonl"), lines, StandardCharsets.UTF_8);
        Command.Result withRepeat = Command.run(List.of(launcher.toString(), "telemetry", "join", "--pin",
                project.dir().resolve("pin-fresh.json").toString(), "--turn-records", "--project-dir", project.root().toString(),
                repeated.toString()), project.root(), env, Duration.ofMinutes(1));
        assertThat(withRepeat.exitCode()).as("telemetry join: " + withRepeat.stderr()).isIn(0, 1);
        Map<String, Object> joinedRepeat = Json.parseObject(withRepeat.stdout());
        assertThat(reasons(joinedRepeat, "joined")).containsOnly("t0");
        assertThat(reasons(joinedRepeat, "excluded")).contains("t0 duplicate_usage");
        row.pass();
    }

    /**
     * Issue 17 item 6: {@code install --transport http} makes PreToolUse a {@code type: "http"} hook to
     * the resident's hook port (SessionStart stays a command hook). With the resident running inside
     * the host's namespace and the launcher's {@code java} refused, the deny can only come over HTTP:
     * the command does not run and the model reads Warden's reason. With no resident on the port, the
     * host's refused connection is a non-blocking hook error: the command runs (Claude Code's HTTP
     * hooks fail open, which is why fail_closed chains stay on the command transport).
     */
    @Test
    @Order(17)
    void httpHooks_denyArrivesOverHttp_andWithTheResidentStoppedTheHostRunsTheCommand(@TempDir Path dir) throws Exception {
        E2eSummary.Row up = SUMMARY.row(host, "HTTP hooks: deny over HTTP",
                "PreToolUse is a type:http hook to the resident in the host's namespace; Bash denied; no JVM started");
        E2eSummary.Row down = SUMMARY.row(host, "HTTP hooks: resident stopped",
                "the host's HTTP hook gets connection refused: non-blocking error, the command runs (fail-open)");
        E2eProject running = project(Files.createDirectories(dir.resolve("running")), up, down);
        E2eProject stopped = project(Files.createDirectories(dir.resolve("stopped")), up, down);
        for (E2eProject p : List.of(running, stopped)) {
            p.manifest(manifest(SandboxResident.CONCERNS, SandboxResident.CHAINS));
            p.allowBash("touch resident-marker");
            Command.Result r = p.installWarden(launcher, claude.baseEnv(), List.of("--transport", "http"));
            assertThat(r.exitCode()).as("warden install --transport http: " + r.stdout() + r.stderr()).isZero();
        }
        Map<?, ?> hooks = (Map<?, ?>) running.claudeSettings().get("hooks");
        Map<?, ?> preToolUse = (Map<?, ?>) ((Map<?, ?>) ((List<?>) hooks.get("PreToolUse")).get(0));
        Map<?, ?> handler = (Map<?, ?>) ((List<?>) preToolUse.get("hooks")).get(0);
        assertThat(handler.get("type")).as("PreToolUse handler " + handler).isEqualTo("http");
        assertThat(String.valueOf(handler.get("url"))).startsWith("http://127.0.0.1:").endsWith("/dispatch/claude/PreToolUse");
        Path cache = Path.of(claude.baseEnv().get("WARDEN_CACHE_DIR"));
        String[] portAndToken = Files.readString(cache.resolve("resident/http-hooks")).strip().split(" ");
        Map<String, String> token = Map.of("WARDEN_HOOK_TOKEN", portAndToken[1]);

        SandboxResident resident = new SandboxResident(cache, dir);
        Map<String, String> env = new LinkedHashMap<>(resident.hookEnv());
        env.putAll(token);
        ClaudeRun denied;
        String residentSaid;
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), ModelScript.of(
                Turn.tool("denied", "Bash", Map.of("command", "touch resident-marker", "description", "touch marker")),
                Turn.text("FINAL: done")))) {
            denied = claude.run(running, server, "touch the marker", env, resident.inside());
        } finally {
            residentSaid = resident.stop();
        }
        up.timing(denied);
        Optional<ClaudeRun.ToolResultSeen> deniedResult = denied.toolResult("denied");
        String javaCalls = resident.javaCalls();
        up.observed(deniedResult.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result") + "; marker "
                + (running.exists("resident-marker") ? "CREATED" : "absent") + "; " + residentSaid
                + "; JVM starts by bin/warden: " + (javaCalls.isEmpty() ? "none" : javaCalls.lines().count()));
        assertCompleted(denied);
        assertThat(deniedResult).as("tool_result for the denied call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).isEqualTo(facts.deniedToolResult("Bash", SandboxResident.REASON));
        });
        assertThat(running.exists("resident-marker")).as("the command denied over HTTP ran").isFalse();
        assertThat(denied.permissionDenials()).containsExactly("toolu_denied");
        assertThat(javaCalls).as("bin/warden started its java: the deny did not come from the resident").isEmpty();
        up.pass();

        ClaudeRun failedOpen = session(stopped, "touch the marker", ModelScript.of(
                Turn.tool("unserved", "Bash", Map.of("command", "touch resident-marker", "description", "touch marker")),
                Turn.text("FINAL: done")), token);
        down.timing(failedOpen);
        Optional<ClaudeRun.ToolResultSeen> unserved = failedOpen.toolResult("unserved");
        List<Map<?, ?>> records = failedOpen.hookRecords("PreToolUse");
        down.observed(unserved.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result") + "; marker "
                + (stopped.exists("resident-marker") ? "created" : "ABSENT") + "; host's PreToolUse hook records "
                + records.stream().map(h -> h.get("type") + " exit " + h.get("exitCode") + " " + h.get("stderr")).toList());
        assertCompleted(failedOpen);
        assertThat(stopped.exists("resident-marker")).as("the host ran the command with its HTTP hook unserved").isTrue();
        assertThat(unserved).hasValueSatisfying(r -> {
            assertThat(r.isError()).isFalse();
            assertThat(r.content()).doesNotContain("[warden]");
        });
        assertThat(failedOpen.permissionDenials()).isEmpty();
        down.pass();
    }

    /** {@code warden telemetry join --turn-records} under a pin of this condition; the parsed result. */
    private static Map<String, Object> join(E2eProject project, Map<String, String> env, Path artifact, String model,
                                            String condition) throws IOException {
        Path pin = project.dir().resolve("pin-" + condition + ".json");
        Command.Result pinned = Command.run(List.of(launcher.toString(), "telemetry", "pin", "--artifact", artifact.toString(),
                "--client", "claude-code", "--client-version", claudeVersion, "--model", model,
                "--tokenizer", "claude", "--condition", condition, "--out", pin.toString()), project.root(), env,
                Duration.ofMinutes(1));
        assertThat(pinned.exitCode()).as("telemetry pin: " + pinned.stderr()).isZero();
        Command.Result joined = Command.run(List.of(launcher.toString(), "telemetry", "join", "--pin", pin.toString(),
                "--turn-records", "--project-dir", project.root().toString()), project.root(), env, Duration.ofMinutes(1));
        assertThat(joined.exitCode()).as("telemetry join: " + joined.stderr()).isIn(0, 1);
        return Json.parseObject(joined.stdout());
    }

    /** {@code t<turn>} of each joined record, or {@code t<turn> <reason>} of each excluded one. */
    private static List<String> reasons(Map<String, Object> join, String list) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) join.get(list)) {
            Map<?, ?> r = (Map<?, ?>) o;
            out.add("t" + r.get("turn") + (r.get("reason") instanceof String reason ? " " + reason.split(":")[0] : ""));
        }
        return out;
    }

    // ---- Helpers ------------------------------------------------------------------------------

    /**
     * Issue 25 item 2, measured: what a committed hook naming another machine's path does today. The
     * entry runs {@code /home/alice/src/warden/bin/warden}, which is not there: {@code sh} exits 127,
     * which Claude Code treats as a non-blocking error, and the command runs.
     */
    @Test
    @Order(19)
    void committedAbsolutePath_missingOnThisMachine_hostProceeds(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "committed hook names a path missing here (before issue 25)",
                "measured: exit 127 is a non-blocking error; the command runs");
        E2eProject project = project(dir, row);
        project.allowBash("rm -rf build");
        Files.createDirectories(project.root().resolve("build"));
        Files.writeString(project.root().resolve(".claude/settings.json"), "{\"hooks\": {\"PreToolUse\": [{\"matcher\":"
                + " \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/home/alice/src/warden/bin/warden"
                + " dispatch --host claude --native-event PreToolUse\", \"timeout\": 60}]}]}}\n");

        ClaudeRun run = session(project, "clean the build", ModelScript.of(
                Turn.tool("rm", "Bash", Map.of("command", "rm -rf build", "description", "clean")),
                Turn.text("FINAL: done")));

        row.timing(run);
        List<Map<?, ?>> hooks = run.hookRecords("PreToolUse");
        row.observed("hook exit " + (hooks.isEmpty() ? "?" : hooks.get(0).get("exitCode")) + "; build/ "
                + (project.exists("build") ? "kept" : "REMOVED"));
        assertCompleted(run);
        assertThat(hooks).singleElement().satisfies(h -> assertThat(h.get("exitCode")).isEqualTo(127L));
        assertThat(project.exists("build")).as("the host ran the command despite the failed hook").isFalse();
        row.pass();
    }

    /**
     * Issue 25 item 2, the two users: user 1 installs (project scope) and commits the settings and the
     * manifest; user 2 (own HOME, clone of the committed files, no {@code warden} on PATH) runs the real
     * Claude Code: the committed entry refuses the Bash call saying what to install, and the command does
     * not run. With Warden on PATH and the policy trusted, the same project is governed: the manifest's
     * deny of {@code rm -rf} arrives.
     */
    @Test
    @Order(20)
    void twoUsers_committedHooks_refuseWhereWardenIsMissing_governOnceInstalled(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "committed hooks on a machine without Warden",
                "refusal naming npm install -g agent-warden; command not run; after install: Warden's deny");
        String reason = "DENY-25a: no rm -rf in this repository";
        E2eProject first = project(Files.createDirectories(dir.resolve("user1")), row);
        first.manifest(manifest("""
                no-rm-rf:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'rm -rf'
                      reason: "%s"
                """.formatted(reason), """
                pre_tool_use: [no-rm-rf]
                """));
        install(first);
        String committed = Files.readString(first.root().resolve(".claude/settings.json"));
        assertThat(committed).doesNotContain(first.home().toString(), launcher.toString(), "/.cache/");

        // user 2's clone: the committed files only, a HOME of their own, their own permission rules
        E2eProject second = E2eProject.create(Files.createDirectories(dir.resolve("user2")).toRealPath());
        Files.copy(first.root().resolve(".warden/manifest.yaml"), second.root().resolve(".warden/manifest.yaml"));
        Files.writeString(second.root().resolve(".claude/settings.json"), committed);
        second.allowBash("rm -rf build");
        Files.createDirectories(second.root().resolve("build"));
        Map<String, String> noWarden = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

        ClaudeRun refused = session(second, "clean the build", ModelScript.of(
                Turn.tool("rm", "Bash", Map.of("command", "rm -rf build", "description", "clean")),
                Turn.text("FINAL: done")), noWarden);

        Optional<ClaudeRun.ToolResultSeen> missing = refused.toolResult("rm");
        assertCompleted(refused);
        assertThat(missing).as("tool_result of the refused call").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).contains("warden is not installed on this machine")
                    .contains("npm install -g agent-warden");
        });
        assertThat(second.exists("build")).as("the refused command ran").isTrue();

        // user 2 installs Warden (this checkout's bin/ on PATH: the session's default) and trusts the policy
        Map<String, String> trustEnv = new LinkedHashMap<>(claude.baseEnv());
        trustEnv.put("HOME", second.home().toString());
        Command.Result trust = Command.run(List.of(launcher.toString(), "trust", "--yes"), second.root(), trustEnv,
                Duration.ofMinutes(2));
        assertThat(trust.exitCode()).as(trust.stdout() + trust.stderr()).isZero();
        ClaudeRun governed = session(second, "clean the build", ModelScript.of(
                Turn.tool("rm2", "Bash", Map.of("command", "rm -rf build", "description", "clean")),
                Turn.text("FINAL: done")));

        row.timing(governed);
        Optional<ClaudeRun.ToolResultSeen> denied = governed.toolResult("rm2");
        row.observed("without warden: " + missing.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; with warden: " + denied.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; build/ " + (second.exists("build") ? "kept" : "REMOVED"));
        assertCompleted(governed);
        assertThat(denied).as("tool_result of Warden's deny").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).isEqualTo(facts.deniedToolResult("Bash", "[warden] " + reason));
        });
        assertThat(second.exists("build")).as("the denied command ran").isTrue();
        row.pass();
    }


    private static E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException {
        return E2eProject.forScenario(dir, unavailable, rows);
    }

    /**
     * Skips a scenario that tests the launcher and the resident with the host only driving the hook,
     * on every version but the pinned one, to keep CI short.
     */
    private static void pinnedOnly(E2eSummary.Row row) {
        if (!pinned && unavailable == null) {
            row.skip("runs on the pinned version only: it tests bin/warden and the resident, not the host");
            Assumptions.abort("pinned version only");
        }
    }

    /** The {@code <task-notification>} user texts the host sent to the model, in any request. */
    private static List<String> taskNotifications(ClaudeRun run) {
        List<String> out = new ArrayList<>();
        for (ScriptedModelServer.Exchange e : run.server().steps()) {
            for (String t : requestTexts(e)) {
                if (t.contains("<task-notification>") && !out.contains(t)) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    private static void pending(E2eSummary.Row row, String why) {
        row.skip("PENDING: " + why);
        Assumptions.abort(why);
    }

    private static void install(E2eProject project) throws IOException {
        Command.Result r = project.installWarden(launcher, claude.baseEnv());
        assertThat(r.exitCode()).as("warden install --host claude: " + r.stdout() + r.stderr()).isZero();
        assertThat(project.claudeSettings()).containsKey("hooks");
    }

    /**
     * A session whose one Bash call ({@code touch resident-marker}) the sandbox manifest denies, with a
     * {@link SandboxResident} of the given kind on the resident's endpoint; stopped when the session ends.
     */
    private static ResidentRun residentSession(Path dir, E2eSummary.Row row, SandboxResident.Hostile hostile)
            throws Exception {
        E2eProject project = project(dir, row);
        project.manifest(manifest(SandboxResident.CONCERNS, SandboxResident.CHAINS));
        project.allowBash("touch resident-marker");
        install(project);
        SandboxResident resident = new SandboxResident(Path.of(claude.baseEnv().get("WARDEN_CACHE_DIR")), dir, hostile);

        ClaudeRun run;
        String stopped;
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), ModelScript.of(
                Turn.tool("denied", "Bash", Map.of("command", "touch resident-marker", "description", "touch marker")),
                Turn.text("FINAL: done")))) {
            run = claude.run(project, server, "touch the marker", resident.hookEnv(), resident.inside());
        } finally {
            stopped = resident.stop();
        }
        row.timing(run);
        return new ResidentRun(project, run, run.toolResult("denied"), stopped, resident.javaCalls());
    }

    /**
     * What a {@link #residentSession} left: the run, the tool_result of its Bash call, what the sandbox
     * resident said when stopped, and the JVM starts bin/warden made.
     */
    private record ResidentRun(E2eProject project, ClaudeRun run, Optional<ClaudeRun.ToolResultSeen> result,
            String stopped, String javaCalls) {
        void observe(E2eSummary.Row row) {
            row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result") + "; " + stopped
                    + "; JVM starts by bin/warden: " + (javaCalls.isEmpty() ? "none" : javaCalls.lines().count()));
        }

        /** The Bash call was denied with the sandbox manifest's reason, and did not run. */
        void assertDeniedByWarden() {
            assertThat(result).as("tool_result for the denied call").hasValueSatisfying(r -> {
                assertThat(r.isError()).isTrue();
                assertThat(r.content()).isEqualTo(facts.deniedToolResult("Bash", SandboxResident.REASON));
            });
            assertThat(project.exists("resident-marker")).as("the denied command ran").isFalse();
        }
    }

    private static ClaudeRun session(E2eProject project, String prompt, ModelScript script) throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), script)) {
            return claude.run(project, server, prompt);
        }
    }

    private static ClaudeRun session(E2eProject project, String prompt, ModelScript script, Map<String, String> extraEnv)
            throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), script)) {
            return claude.run(project, server, prompt, extraEnv, List.of());
        }
    }

    private static ClaudeRun session(E2eProject project, String prompt, List<String> hostArgs, ModelScript script)
            throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), script)) {
            return claude.run(project, server, prompt, Map.of(), List.of(), hostArgs);
        }
    }

    /**
     * A copy of Warden's launcher home ({@code bin/warden}, the jar, {@code examples/}) used to install
     * the project's hooks, after which its jar is deleted: the state a user is in when the jar goes
     * missing after {@code warden install}.
     */
    private static Path brokenLauncherHome(Path copy, E2eProject project) throws IOException {
        Files.createDirectories(copy.resolve("bin"));
        Files.createDirectories(copy.resolve("target"));
        Files.createDirectories(copy.resolve("examples"));
        Files.copy(launcher, copy.resolve("bin/warden"));
        Files.copy(wardenHome.resolve("target/warden.jar"), copy.resolve("target/warden.jar"));
        Map<String, String> env = new LinkedHashMap<>(claude.baseEnv());
        env.put("WARDEN_NO_ARCHIVE", "1");
        // local scope: the entries name the copy's bin/warden (project scope would run `warden` from PATH)
        Command.Result r = project.installWarden(copy.resolve("bin/warden"), env, List.of("--scope", "local"));
        assertThat(r.exitCode()).as("warden install from the copy: " + r.stdout() + r.stderr()).isZero();
        Files.delete(copy.resolve("target/warden.jar"));
        return copy;
    }

    private static void assertCompleted(ClaudeRun run) {
        assertThat(run.completed()).as("the host session completed: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
    }

    /** A project manifest: the given concerns and Claude chains, with Claude's native event aliases. */
    private static String manifest(String concerns, String claudeChains) {
        return E2eProject.manifestText("claude", concerns, claudeChains, "SessionStart", "SessionEnd", "UserPromptSubmit",
                "PreToolUse", "PostToolUse", "Stop", "SubagentStart", "SubagentStop");
    }



    /** Every text the host sent in one model request: system prompt blocks, system messages, user text blocks. */
    private static List<String> requestTexts(ScriptedModelServer.Exchange request) {
        List<String> texts = new ArrayList<>();
        for (Object b : AnthropicMessagesApi.list(request.body().get("system"))) {
            if (b instanceof Map<?, ?> block && block.get("text") instanceof String t) {
                texts.add(t);
            }
        }
        for (Object m : AnthropicMessagesApi.list(request.body().get("messages"))) {
            if (!(m instanceof Map<?, ?> message)) {
                continue;
            }
            if (message.get("content") instanceof String t) {
                texts.add(t);
            }
            for (Object b : AnthropicMessagesApi.list(message.get("content"))) {
                if (b instanceof Map<?, ?> block && block.get("text") instanceof String t) {
                    texts.add(t);
                }
            }
        }
        return texts;
    }

    /** What the host printed for its user: stdout and stderr. */
    private static String userVisible(ClaudeRun run) {
        return run.process().stdout() + run.process().stderr();
    }

    /** The project's integrity evidence log, one parsed line each, as written. */
    private static List<Map<String, Object>> evidence(E2eProject project) throws IOException {
        Path log = project.root().resolve(".warden/state/integrity/evidence.jsonl");
        assertThat(log).as("integrity evidence log").exists();
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            lines.add(Json.parseObject(line));
        }
        return lines;
    }

    /** The evidence line of one event, or an empty map. */
    private static Map<String, Object> evidenceEvent(List<Map<String, Object>> evidence, String event) {
        return evidence.stream().filter(e -> event.equals(e.get("event"))).findFirst().orElse(Map.of());
    }

    /** The one session's outcome recomputed from the evidence log, after checking it agrees with the recorded one. */
    private static Outcome replayedOutcome(E2eProject project) {
        EvidenceReplay.Report report = EvidenceReplay.replay(
                project.root().resolve(".warden/state/integrity/evidence.jsonl"), null);
        assertThat(report.sessions()).hasSize(1);
        EvidenceReplay.SessionResult session = report.sessions().get(0);
        assertThat(session.problems()).as("evidence problems").isEmpty();
        assertThat(session.disagreements()).as("recorded vs recomputed verdicts").isEmpty();
        return session.recomputed().outcome();
    }

    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
