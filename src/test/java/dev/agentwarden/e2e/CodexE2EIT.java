package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
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

/**
 * Real host, real verdicts, for the OpenAI Codex CLI: {@code codex exec} runs complete sessions
 * against a {@link ScriptedModelServer} speaking the Responses API on 127.0.0.1, with Warden
 * installed by {@code warden install --host codex} ({@code .codex/hooks.json}), and each scenario
 * checks what the host did from the next model request and the project's {@code .warden/} state.
 *
 * <p>How Codex 0.171.0 behaves, as observed with this harness:
 * <ul>
 *   <li>The shell tool is {@code exec_command} ({@code {"cmd": …}}); hooks see it as {@code Bash} with
 *       {@code tool_input.command}. Subagents are spawned with {@code spawn_agent} inside the
 *       {@code multi_agent_v1} tool namespace (the call item carries {@code namespace}).</li>
 *   <li>A PreToolUse {@code permissionDecision: "deny"} becomes the call's
 *       {@code function_call_output}: {@code "Command blocked by PreToolUse hook: <reason>. Command: …"};
 *       the command does not run and the session goes on.</li>
 *   <li>A PreToolUse answer carrying {@code continue: false} beside that deny is invalid output to
 *       Codex: the whole answer is ignored and the command runs.</li>
 *   <li>{@code codex exec} ends with the parent's turn, subagents included; the subagent's own
 *       PreToolUse carries its {@code agent_id}, as do SubagentStart and SubagentStop.</li>
 *   <li>{@code codex exec --json} reports neither invalid hook output nor hook failures on stdout or
 *       stderr, so only effects (the next request, files, Warden's state) are asserted.</li>
 * </ul>
 *
 * <p>The host comes from npm into the e2e cache ({@link HostInstall#CODEX}); the suite skips, loudly,
 * only when neither the cache nor npm can provide it. See {@link CodexSession} for the set-up.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "codex")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CodexE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    /**
     * The parent's wait for its subagent: {@code codex exec} ends with the parent's turn, and the
     * subagent's id (which {@code wait_agent} needs) is not known to a scripted model. So the parent
     * runs a shell loop until the ledger holds the stop (30 s cap, so a failed run leaves nothing behind).
     */
    private static final String WAIT_FOR_SUBAGENT_STOP = "for _ in $(seq 600); do grep -qs subagent_stop"
            + " .warden/state/ledger/*.jsonl && { echo stopped; exit 0; }; sleep 0.05; done; echo 'no stop' >&2; exit 1";

    @TempDir
    static Path suiteDir;

    private static HostSuite suite;
    private static CodexSession codex;
    private static String host = "codex";
    private static String unavailable;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        suite = HostSuite.open(HostInstall.CODEX, "Codex", "codex", SUMMARY, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            codex = new CodexSession(suite.binary(), suite.sandbox(), suite.wardenCache());
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    @Test
    @Order(1)
    void blockingConcern_deniesBash_andTheModelReadsWardensReason(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "blocking concern denies Bash",
                "next request: function_call_output with Warden's reason; command not run; session completes");
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
        install(project);

        Session run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("denied", "exec_command", Map.of("cmd", "touch denied-marker")),
                Turn.text("FINAL: done")));

        Optional<String> output = run.toolOutput("denied");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(output).as("function_call_output for the denied call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("[warden] DENY-7f3: denied-marker is off limits"));
        assertThat(project.exists("denied-marker")).as("the denied command ran").isFalse();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        row.pass();
    }

    /**
     * Issue 27 item 2 on the real host: a {@code builtin:rule} rewrites the shell command
     * ({@code updatedInput}, which Codex applies only beside {@code permissionDecision: "allow"}) and
     * Codex runs the rewritten command: the markers show which ran.
     */
    @Test
    @Order(6)
    void ruleRewrite_hostRunsTheRewrittenCommand(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "rule rewrites the shell command",
                "updatedInput + allow: the rewritten command runs (rewritten-marker), the original does not");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                route-marker:
                  script: builtin:rule
                  when: '"original-marker" in words'
                  action: rewrite
                  rewrite:
                    command: '"touch rewritten-marker"'
                  reason: "REWRITE-3d2: the marker is routed"
                """, """
                pre_tool_use: [route-marker]
                """));
        install(project);

        Session run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("rewritten", "exec_command", Map.of("cmd", "touch original-marker")),
                Turn.text("FINAL: done")));

        Optional<String> output = run.toolOutput("rewritten");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; rewritten-marker "
                + (project.exists("rewritten-marker") ? "created" : "ABSENT") + "; original-marker "
                + (project.exists("original-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("rewritten-marker")).as("the rewritten command ran: " + run.describe()).isTrue();
        assertThat(project.exists("original-marker")).as("the original command ran").isFalse();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        row.pass();
    }

    /**
     * Codex rejects {@code continue: false} and {@code stopReason} on PreToolUse ("PreToolUse hook
     * returned unsupported continue:false"), which would make the whole answer invalid and let the
     * command run; Warden's halt there is a deny alone. The halt comes from the integrity gate: a
     * shadow binding on SessionStart records the oversized agent's halt without emitting it, and a
     * blocking binding on the gate's follow-up event, aliased to PreToolUse, enforces it.
     */
    @Test
    @Order(1)
    void haltOnPreToolUse_isADenyCodexAccepts_theCommandDoesNotRun(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "halt on PreToolUse",
                "next request: function_call_output with the halt reason; command not run; session completes");
        E2eProject project = project(dir, row);
        Path agents = Files.createDirectories(project.root().resolve(".github/agents"));
        Files.write(agents.resolve("squad.agent.md"), dev.agentwarden.integrity.fixture.SquadArtifacts.coordinator("0.13.1",
                dev.agentwarden.integrity.fixture.SquadArtifacts.TEMPLATE_TEAM, dev.agentwarden.integrity.fixture.SquadArtifacts.SDK_TEMPLATE_BYTES));
        project.manifest("""
                schema_version: 1
                concerns:
                  gate-at-start:
                    script: builtin:integrity-attach
                    posture: shadow
                    agent: squad
                  gate-enforced:
                    script: builtin:integrity-attach
                    posture: blocking
                    agent: squad
                platforms:
                  codex:
                    session_start: [gate-at-start]
                    user_prompt_submit: [gate-enforced]
                native_event_aliases:
                  codex:
                    SessionStart: session_start
                    PreToolUse: user_prompt_submit
                """);
        install(project);

        Session run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("halted", "exec_command", Map.of("cmd", "touch halted-marker")),
                Turn.text("FINAL: told")));

        Optional<String> output = run.toolOutput("halted");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.map(o -> o.length() > 90 ? o.substring(0, 90) + "…" : o).orElse("(none)")
                + "; marker " + (project.exists("halted-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(output).as("function_call_output for the halted call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("[warden] integrity HALT_CORRUPT for agent 'squad'"));
        assertThat(project.exists("halted-marker")).as("the halted command ran").isFalse();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        row.pass();
    }

    @Test
    @Order(2)
    void subagentSpawn_reachesTheLedgerWithTheHostsAgentId(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "subagent spawn reaches the ledger",
                "ledger: subagent_start and subagent_stop, ref = hash of Codex's agent_id");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                subagent-ledger:
                  script: builtin:subagent-ledger
                  posture: shadow
                spawn-guard:
                  script: builtin:spawn-guard
                  posture: shadow
                  tools: [spawn_agent]
                  candidates:
                    - {label: n2m4, max_depth: 2, max_concurrent: 4}
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture, spawn-guard]
                subagent_start: [capture, subagent-ledger]
                subagent_stop: [capture, subagent-ledger]
                """));
        install(project);

        Session run = session(project, "delegate the marker", ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-e2e: touch sub-marker", "default",
                        Turn.tool("sub_touch", "exec_command", Map.of("cmd", "touch sub-marker")),
                        Turn.text("SUB-FINAL: done")),
                Turn.tool("wait", "exec_command", Map.of("cmd", WAIT_FOR_SUBAGENT_STOP)),
                Turn.text("FINAL: done")));

        List<String> trace = project.captured().stream().map(E2eProject::traceOf).toList();
        String agentId = project.captured().stream().map(E2eProject::payloadOf)
                .filter(p -> "SubagentStart".equals(p.get("hook_event_name"))).map(p -> (String) p.get("agent_id"))
                .findFirst().orElse(null);
        List<Map<String, Object>> ledger = HostSuite.ledgerLines(project).stream()
                .filter(l -> String.valueOf(l.get("event")).startsWith("subagent_")).toList();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("ledger " + ledger.stream().map(l -> l.get("event") + "/" + l.get("ref")).toList()
                + "; hooks " + trace);
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(agentId).as("SubagentStart carried Codex's agent_id: " + trace + "; " + run.describe()).isNotNull();
        assertThat(trace).as("the subagent's own Bash call carries its agent_id")
                .contains("PreToolUse Bash agent_id=" + agentId);
        assertThat(HostSuite.ledgerLines(project)).as("spawn-guard saw Codex's spawn_agent call")
                .anySatisfy(l -> assertThat(l.get("event")).isEqualTo("spawn_guard_shadow"));
        assertThat(ledger).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop");
        assertThat(ledger).extracting(l -> l.get("ref")).containsOnly(AgentRef.of(agentId));
        assertThat(project.exists("sub-marker")).as("the subagent's command ran").isTrue();
        row.pass();
    }

    @Test
    @Order(3)
    void noOpinion_onBashAndStop_leavesTheSessionAlone(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "no opinion on Bash, PostToolUse and Stop",
                "command runs; PostToolUse (string tool_response) and Stop reach Warden; session completes");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture]
                post_tool_use: [capture]
                stop: [capture]
                """));
        install(project);

        Session run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("allowed", "exec_command", Map.of("cmd", "touch allowed-marker")),
                Turn.text("FINAL: done")));

        List<String> trace = project.captured().stream().map(E2eProject::traceOf).toList();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("marker " + (project.exists("allowed-marker") ? "created" : "ABSENT") + "; hooks " + trace);
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("allowed-marker")).as("the allowed command ran").isTrue();
        assertThat(trace).contains("PreToolUse Bash agent_id=-", "PostToolUse Bash agent_id=-", "Stop null agent_id=-");
        assertThat(run.process().stdout()).contains("FINAL: done");
        row.pass();
    }

    // ---- Helpers ------------------------------------------------------------------------------

    /** What one {@code codex exec} did: its process, and the requests it sent to the scripted model. */
    @Test
    @Order(4)
    void residentServer_answersTheHook_noJvmStartsPerEvent(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "resident server answers the hook",
                "bin/warden forwards the hook to the resident (its java may not start); exec_command denied with Warden's reason");
        ResidentRun r = residentSession(dir, row, SandboxResident.Hostile.NONE);
        row.observed("output=" + r.output().orElse("(none)") + "; " + r.stopped() + "; JVM starts by bin/warden: "
                + (r.javaCalls().isEmpty() ? "none" : r.javaCalls().lines().count()));
        assertThat(r.run().process().exitCode()).as(r.run().describe()).isZero();
        assertThat(r.javaCalls()).as("bin/warden started its java (an event was not forwarded)").isEmpty();
        r.assertDeniedByWarden();
        assertThat(r.stopped()).as("the resident's own count: the PreToolUse hook was forwarded to it")
                .matches(SandboxResident.ANSWERED_FORWARDED);
        row.pass();
    }

    @Test
    @Order(5)
    void staleEndpoint_portHeldByAnImpostor_impostorGetsNothing_execCommandDeniedByAJvm(@TempDir Path dir)
            throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "stale resident endpoint, impostor on its port",
                "the impostor (answers allow at once) receives no byte; the hook is answered by a JVM; exec_command denied");
        ResidentRun r = residentSession(dir, row, SandboxResident.Hostile.IMPOSTOR);
        row.observed("output=" + r.output().orElse("(none)") + "; " + r.stopped());
        assertThat(r.run().process().exitCode()).as(r.run().describe()).isZero();
        assertThat(r.stopped()).as("the launcher connected, and sent nothing")
                .matches(SandboxResident.IMPOSTOR_GOT_NOTHING);
        r.assertDeniedByWarden();
        row.pass();
    }

    /**
     * A session whose one exec_command ({@code touch resident-marker}) the sandbox manifest denies, with
     * a {@link SandboxResident} of the given kind on the resident's endpoint; stopped when the session ends.
     */
    private static ResidentRun residentSession(Path dir, E2eSummary.Row row, SandboxResident.Hostile hostile)
            throws Exception {
        E2eProject project = project(dir, row);
        project.manifest(manifest(SandboxResident.CONCERNS, SandboxResident.CHAINS));
        install(project);
        SandboxResident resident = new SandboxResident(Path.of(codex.baseEnv().get("WARDEN_CACHE_DIR")), dir, hostile);

        Session run;
        String stopped;
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), ModelScript.of(
                Turn.tool("denied", "exec_command", Map.of("cmd", "touch resident-marker")),
                Turn.text("FINAL: done")))) {
            run = new Session(codex.run(project, server, "touch the marker", resident.hookEnv(), resident.inside()), server);
        } finally {
            stopped = resident.stop();
        }
        Optional<String> output = run.toolOutput("denied");
        String javaCalls = resident.javaCalls();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        return new ResidentRun(project, run, output, stopped, javaCalls);
    }

    /**
     * What a {@link #residentSession} left: the run, the output of its exec_command, what the sandbox
     * resident said when stopped, and the JVM starts bin/warden made.
     */
    private record ResidentRun(E2eProject project, Session run, Optional<String> output, String stopped,
            String javaCalls) {
        /** The exec_command was denied with the sandbox manifest's reason, and did not run. */
        void assertDeniedByWarden() {
            assertThat(output).as("function_call_output for the denied call: " + run.describe())
                    .hasValueSatisfying(o -> assertThat(o).contains(SandboxResident.REASON));
            assertThat(project.exists("resident-marker")).as("the denied command ran").isFalse();
        }
    }

    record Session(Command.Result process, ScriptedModelServer server) implements HostRun {
        /** The {@code output} of the first {@code function_call_output} the host sent for a scripted call. */
        Optional<String> toolOutput(String scriptedId) {
            String callId = OpenAiResponsesApi.callId(scriptedId);
            for (ScriptedModelServer.Exchange e : server.steps()) {
                for (Object i : AnthropicMessagesApi.list(e.body().get("input"))) {
                    if (i instanceof Map<?, ?> item && "function_call_output".equals(item.get("type"))
                            && callId.equals(item.get("call_id"))) {
                        Object out = item.get("output");
                        return Optional.of(out instanceof String s ? s : Json.write(out));
                    }
                }
            }
            return Optional.empty();
        }
    }

    /**
     * Issue 25 item 2 on Codex CLI, measured: the committed (portable) PreToolUse entry with no
     * {@code warden} on PATH refuses the call in Codex's own protocol, saying what to install.
     */
    @Test
    @Order(30)
    void committedPortableHook_wardenMissing_refusedWithTheInstallLine(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "committed portable hook, no warden on PATH",
                "function_call_output carries the install line; command not run");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Bash]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-c25: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """));
        install(project);
        assertThat(Files.readString(project.root().resolve(".codex/hooks.json"))).contains("command -v warden");

        Session run;
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), ModelScript.of(
                Turn.tool("missing", "exec_command", Map.of("cmd", "touch denied-marker")),
                Turn.text("FINAL: done")))) {
            run = new Session(codex.run(project, server, "touch the marker",
                    Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")), List.of()), server);
        }

        Optional<String> output = run.toolOutput("missing");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(output).as("function_call_output for the refused call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("warden is not installed on this machine")
                        .contains("npm install -g agent-warden"));
        assertThat(project.exists("denied-marker")).as("the refused command ran").isFalse();
        row.pass();
    }

    private static E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException {
        return E2eProject.forScenario(dir, unavailable, rows);
    }

    private static void install(E2eProject project) throws IOException {
        suite.install(project, codex.baseEnv(), "codex", ".codex/hooks.json");
    }

    private static Session session(E2eProject project, String prompt, ModelScript script) throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), script)) {
            return new Session(codex.run(project, server, prompt), server);
        }
    }

    /** A project manifest: the given concerns and Codex chains, with Codex's native event aliases. */
    private static String manifest(String concerns, String codexChains) {
        return E2eProject.manifestText("codex", concerns, codexChains, "SessionStart", "UserPromptSubmit", "PreToolUse",
                "PostToolUse", "Stop", "SubagentStart", "SubagentStop");
    }
}
