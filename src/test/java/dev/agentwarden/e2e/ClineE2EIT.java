package dev.agentwarden.e2e;

import dev.agentwarden.install.HookLauncher;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
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
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Real host, real verdicts, for the Cline CLI: {@code cline --json} runs complete tasks against a
 * {@link ScriptedModelServer} speaking OpenAI Chat Completions on 127.0.0.1, with Warden installed
 * by {@code warden install --host cline} ({@code .clinerules/hooks/PreToolUse}, an executable file),
 * and each scenario checks what the host did from the model requests, the files the commands make,
 * Cline's own log and output, and the project's {@code .warden/} state.
 *
 * <p>How Cline 3.0.65 behaves, as observed with this harness:
 * <ul>
 *   <li>The shell tool is {@code run_commands} ({@code {"commands": [...]}}).</li>
 *   <li>A PreToolUse {@code {"cancel": true, "errorMessage": …}} ends the whole task: the command does
 *       not run, the model gets no further request, {@code cline --json} reports
 *       {@code "finishReason":"aborted"} and still exits 0; the reason is in Cline's log
 *       ({@code ControlledStopError}), never in front of the model.</li>
 *   <li>{@code contextModification} reaches the model's next request as a user message
 *       {@code <hook_context source="PreToolUse" tool_name="run_commands" …>}.</li>
 *   <li>Cline ignores a hook's exit code, and a hook that prints nothing lets the tool run.</li>
 *   <li>{@code spawn_agent} runs the child with the parent's hook files: its TaskStart and
 *       TaskComplete carry its {@code agent_id} and the parent's as {@code parent_agent_id}.</li>
 *   <li>Each Cline start costs 18 s or more on a loaded 2-core box, so the suite runs few tasks, side by side.</li>
 * </ul>
 *
 * <p>The host comes from npm into the e2e cache ({@link HostInstall#CLINE}); the suite skips, loudly,
 * only when neither the cache nor npm can provide it. See {@link ClineSession} for the set-up.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
// each task has its own project, HOME, data directory, model and sandbox launch; the install is only read
@ResourceLock(value = HostSuite.LOCK_PREFIX + "cline", mode = ResourceAccessMode.READ)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(5) // a long host suite: it starts first, see junit-platform.properties
class ClineE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String CRASH_WHEN = """
            #!/bin/sh
            # e2e concern: crashes (exit 3) when the envelope names $1, else has no opinion.
            IFS= read -r envelope
            case "$envelope" in *"$1"*) echo "crashed on $1" >&2; exit 3 ;; esac
            exit 0
            """;

    @TempDir
    static Path suiteDir;

    private static Path launcher;
    private static ClineSession cline;
    private static String host = "cline";
    private static String unavailable;
    private static long suiteStart;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        suiteStart = System.nanoTime();
        HostSuite suite = HostSuite.open(HostInstall.CLINE, "Cline", "cline", SUMMARY, suiteDir);
        launcher = suite.wardenLauncher();
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            cline = ClineSession.configure(suite.binary(), suite.sandbox(), suite.wardenCache(),
                    Files.createDirectories(suiteDir.resolve("auth")));
        }
    }

    @AfterAll
    static void printSummary() {
        SUMMARY.note("suite wall time: " + (System.nanoTime() - suiteStart) / 1_000_000_000 + " s");
        System.out.println(SUMMARY.render());
    }

    @Test
    @Order(1)
    void blockingConcern_cancelsTheTask_theCommandDoesNotRun(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "blocking concern denies run_commands",
                "cancel:true: task aborted, command not run, model asked once; reason in Cline's log");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_commands]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-c1: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """));
        install(project);

        Session run = session(project, "touch the marker", Map.of(), ModelScript.of(
                Turn.tool("denied", "run_commands", Map.of("commands", List.of("touch denied-marker"))),
                Turn.text("FINAL: done")));

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("finish " + run.finishReason() + "; marker " + (project.exists("denied-marker") ? "CREATED" : "absent")
                + "; model requests " + run.server().steps().size() + "; exit " + run.process().exitCode());
        assertThat(project.exists("denied-marker")).as("the denied command ran: " + run.describe()).isFalse();
        assertThat(run.finishReason()).as(run.describe()).isEqualTo("aborted");
        assertThat(run.server().steps()).as("the model is not asked again after a cancel").hasSize(1);
        assertThat(run.clineLog(project)).as("Cline's log holds Warden's reason")
                .contains("[warden] DENY-c1: denied-marker is off limits");
        row.pass();
    }

    /**
     * One task, three calls: an allowed command under a blocking concern it does not match (and a
     * capture concern with no opinion), a command a fail-open concern crashes on, and a command an
     * advisory concern warns about, whose warning the model reads as hook context next turn.
     */
    @Test
    @Order(2)
    void allowNoOpinionFailOpenAndContext_inOneTask(@TempDir Path dir) throws Exception {
        E2eSummary.Row allow = SUMMARY.row(host, "allow", "command under a blocking concern it does not match runs");
        E2eSummary.Row none = SUMMARY.row(host, "no opinion", "capture concern sees PreToolUse run_commands; no output");
        E2eSummary.Row open = SUMMARY.row(host, "Warden broken: concern crashes",
                "fail-open: the command runs");
        E2eSummary.Row context = SUMMARY.row(host, "advisory concern warns",
                "next request: <hook_context source=\"PreToolUse\"> with Warden's warning; command runs");
        E2eProject project = project(dir, allow, none, open, context);
        project.concern("crash-when.sh", CRASH_WHEN);
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_commands]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "not matched here"
                crashes-open:
                  script: .warden/concerns/crash-when.sh
                  args: [open-marker]
                  fail_closed: false
                  tools: [run_commands]
                warn-context:
                  script: builtin:deny-pattern
                  severity: advisory
                  tools: [run_commands]
                  patterns:
                    - match: 'context-marker'
                      reason: "WARN-c2: context-marker noted"
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture, no-denied-marker, crashes-open, warn-context]
                """));
        install(project);

        Session run = session(project, "make three markers", Map.of(), ModelScript.of(
                Turn.tool("allowed", "run_commands", Map.of("commands", List.of("touch allowed-marker"))),
                Turn.tool("open", "run_commands", Map.of("commands", List.of("touch open-marker"))),
                Turn.tool("context", "run_commands", Map.of("commands", List.of("touch context-marker"))),
                Turn.text("FINAL: done")));

        List<String> trace = new ArrayList<>();
        for (Map<String, Object> envelope : project.captured()) {
            Map<String, Object> p = E2eProject.payloadOf(envelope);
            trace.add(envelope.get("native_event") + " " + (p.get("preToolUse") instanceof Map<?, ?> m ? m.get("toolName") : "-"));
        }
        String hookContext = run.userTextAfter(3);
        for (E2eSummary.Row r : List.of(allow, none, open, context)) {
            r.timing(run.process().millis(), run.firstModelCallMillis());
        }
        allow.observed("allowed-marker " + (project.exists("allowed-marker") ? "created" : "ABSENT") + "; finish " + run.finishReason());
        none.observed("hooks " + trace);
        open.observed("open-marker " + (project.exists("open-marker") ? "created" : "ABSENT"));
        context.observed("context-marker " + (project.exists("context-marker") ? "created" : "ABSENT") + "; 4th request: "
                + (hookContext.length() > 90 ? hookContext.substring(0, 90) + "…" : hookContext));

        assertThat(run.finishReason()).as(run.describe()).isEqualTo("completed");
        assertThat(project.exists("allowed-marker")).as("the allowed command ran").isTrue();
        allow.pass();
        assertThat(trace).as("the capture concern saw each run_commands call").contains("PreToolUse run_commands");
        none.pass();
        assertThat(project.exists("open-marker")).as("the command ran (fail-open)").isTrue();
        open.pass();
        assertThat(project.exists("context-marker")).as("the warned command ran").isTrue();
        assertThat(hookContext).as("hook context in the request after the warned call: " + run.describe())
                .contains("<hook_context source=\"PreToolUse\"").contains("WARN-c2: context-marker noted");
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        context.pass();
    }

    @Test
    @Order(3)
    void failClosedConcernCrashes_cancelsTheTask(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "Warden broken: fail_closed concern crashes",
                "crash refuses: cancel naming fail_closed; task aborted; command not run");
        E2eProject project = project(dir, row);
        project.concern("crash-when.sh", CRASH_WHEN);
        project.manifest(manifest("""
                crashes-closed:
                  script: .warden/concerns/crash-when.sh
                  args: [closed-marker]
                  fail_closed: true
                  severity: blocking
                  tools: [run_commands]
                """, """
                pre_tool_use: [crashes-closed]
                """));
        install(project);

        Session run = session(project, "touch the marker", Map.of(), ModelScript.of(
                Turn.tool("closed", "run_commands", Map.of("commands", List.of("touch closed-marker"))),
                Turn.text("FINAL: done")));

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("finish " + run.finishReason() + "; marker " + (project.exists("closed-marker") ? "CREATED" : "absent"));
        assertThat(project.exists("closed-marker")).as("the command ran despite fail_closed: " + run.describe()).isFalse();
        assertThat(run.finishReason()).as(run.describe()).isEqualTo("aborted");
        assertThat(run.clineLog(project)).contains("fail_closed refuses");
        row.pass();
    }

    /**
     * A {@code spawn_agent} subagent under the default manifest: Cline runs the child with the
     * parent's hook files, and the child's own TaskStart and TaskComplete (detached, so the ledger is
     * polled with a deadline) are its ledger start and stop, a child of the main agent.
     */
    @Test
    @Order(4)
    void subagent_spawnAgent_isInTheLedgerFromItsOwnTaskStartAndComplete(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "spawn_agent subagent in the ledger",
                "default manifest; ledger: subagent_start and subagent_stop, same ref, depth 1 asserted-parent; child ran");
        E2eProject project = project(dir, row);
        install(project);
        for (String file : List.of("TaskStart", "TaskComplete", "TaskError", "SessionShutdown")) {
            assertThat(project.root().resolve(".clinerules/hooks/" + file)).isExecutable();
        }

        Session run = session(project, "delegate the marker", Map.of(), ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-c4: touch sub-marker", null,
                        Turn.tool("sub_touch", "run_commands", Map.of("commands", List.of("touch sub-marker"))),
                        Turn.text("SUB-FINAL: done")),
                Turn.text("FINAL: done")));

        List<Map<String, Object>> ledger = awaitLedger(project, "subagent_stop", Duration.ofSeconds(60));
        List<Map<String, Object>> subagent = ledger.stream()
                .filter(l -> String.valueOf(l.get("event")).startsWith("subagent_")).toList();
        List<Map<String, Object>> guard = ledger.stream()
                .filter(l -> String.valueOf(l.get("event")).startsWith("spawn_guard")).toList();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("ledger " + subagent.stream().map(l -> l.get("event") + "/d" + l.get("depth") + "/"
                + l.get("depth_basis") + "/" + l.get("ref")).toList() + "; guard lines " + guard.size()
                + "; sub-marker " + (project.exists("sub-marker") ? "created" : "absent") + "; finish " + run.finishReason());
        assertThat(run.finishReason()).as(run.describe()).isEqualTo("completed");
        assertThat(project.exists("sub-marker")).as("the subagent's command ran: " + run.describe()).isTrue();
        assertThat(subagent).extracting(l -> l.get("event")).as("ledger: " + ledger)
                .containsExactly("subagent_start", "subagent_stop");
        assertThat(subagent).extracting(l -> l.get("ref")).containsOnly(subagent.get(0).get("ref"));
        assertThat(subagent).allSatisfy(l -> assertThat(l).doesNotContainKey("basis")
                .containsEntry("depth", 1L).containsEntry("depth_basis", "asserted-parent"));
        assertThat(subagent.get(0).get("parent_ref")).isNotNull().isNotEqualTo(subagent.get(0).get("ref"));
        assertThat(subagent.get(1)).containsEntry("start_seen", true).containsEntry("envelope_parse", "no_envelope");
        assertThat(guard).extracting(l -> l.get("tool")).containsExactly("spawn_agent");
        assertThat(guard.get(0)).containsEntry("depth_basis", "no-caller-agent-id");
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        row.pass();
    }

    /**
     * The committed hook files on a machine without Warden (PATH without it): today's per-machine
     * form, whose launcher path is missing there, and the portable form a project install writes.
     */
    @Test
    @Order(5)
    void committedHooks_wardenMissing_oldPathLetsTheToolRun_portableCancelsWithTheInstallLine(@TempDir Path dir)
            throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "committed hook files, no warden on PATH (old path form vs portable)",
                "old: tool runs; portable: cancel, errorMessage carries the install line, command not run");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_commands]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-c5: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """));
        install(project);
        Path hook = project.root().resolve(".clinerules/hooks/PreToolUse");
        String portable = Files.readString(hook);
        assertThat(portable).contains("command -v warden").doesNotContain(launcher.toString());
        Map<String, String> noWarden = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

        // today's form, as a teammate's clone had it: another machine's launcher path
        Files.write(hook, new dev.agentwarden.install.cline.ClineHookFiles(false)
                .content(HookLauncher.plain("/home/alice/src/warden/bin/warden"), "PreToolUse"));
        Session old = session(project, "touch the marker", noWarden, ModelScript.of(
                Turn.tool("old", "run_commands", Map.of("commands", List.of("touch denied-marker"))),
                Turn.text("FINAL: done")));
        boolean oldRan = project.exists("denied-marker");
        Files.deleteIfExists(project.root().resolve("denied-marker"));

        Files.writeString(hook, portable);
        Session run = session(project, "touch the marker", noWarden, ModelScript.of(
                Turn.tool("missing", "run_commands", Map.of("commands", List.of("touch denied-marker"))),
                Turn.text("FINAL: done")));

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("old: finish " + old.finishReason() + ", marker " + (oldRan ? "CREATED" : "absent")
                + "; portable: finish " + run.finishReason() + ", marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent"));
        assertThat(oldRan).as("today's form on a machine without that path lets the tool run: " + old.describe()).isTrue();
        assertThat(old.finishReason()).isEqualTo("completed");
        assertThat(project.exists("denied-marker")).as("the refused command ran: " + run.describe()).isFalse();
        assertThat(run.finishReason()).as(run.describe()).isEqualTo("aborted");
        assertThat(run.clineLog(project)).as("Cline's log holds the refusal")
                .contains("warden is not installed on this machine").contains("npm install -g agent-warden");
        row.pass();
    }

    // ---- Helpers ------------------------------------------------------------------------------

    /** The project's ledger lines once one is an {@code event} line (Cline runs TaskComplete detached), or at the deadline. */
    private static List<Map<String, Object>> awaitLedger(E2eProject project, String event, Duration limit)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            List<Map<String, Object>> lines = new ArrayList<>();
            Path dir = project.root().resolve(".warden/state/ledger");
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                            if (!line.isBlank()) {
                                lines.add(Json.parseObject(line));
                            }
                        }
                    }
                }
            }
            if (lines.stream().anyMatch(l -> event.equals(l.get("event"))) || System.nanoTime() > deadline) {
                return lines;
            }
            Thread.sleep(200);
        }
    }

    /** What one {@code cline --json} task did: its process, and the requests it sent to the scripted model. */
    record Session(Command.Result process, ScriptedModelServer server) implements HostRun {
        /** {@code finishReason} of Cline's {@code run_result} line, or {@code (none)}. */
        String finishReason() {
            for (String line : process.stdout().split("\n")) {
                if (line.startsWith("{") && line.contains("\"run_result\"")) {
                    return String.valueOf(Json.parseObject(line).get("finishReason"));
                }
            }
            return "(none)";
        }

        /** The user-message text of the model request number {@code n} (0-based), after its last assistant turn. */
        String userTextAfter(int n) {
            List<ScriptedModelServer.Exchange> steps = server.steps();
            if (steps.size() <= n) {
                return "(no request " + (n + 1) + ")";
            }
            StringBuilder text = new StringBuilder();
            for (Object m : AnthropicMessagesApi.list(steps.get(n).body().get("messages"))) {
                if (m instanceof Map<?, ?> message) {
                    if ("assistant".equals(message.get("role"))) {
                        text.setLength(0);
                    } else if ("user".equals(message.get("role"))) {
                        text.append(OpenAiResponsesApi.userText(message.get("content")));
                    }
                }
            }
            return text.toString();
        }

        /** Cline's own log of the task. */
        String clineLog(E2eProject project) throws IOException {
            Path log = project.dir().resolve("cline-data/logs/cline.log");
            return Files.isRegularFile(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        }
    }

    private static E2eProject project(Path dir, E2eSummary.Row... rows) throws IOException {
        return E2eProject.forScenario(dir, unavailable, rows);
    }

    private static void install(E2eProject project) throws IOException {
        Command.Result r = project.installWarden(launcher, cline.baseEnv(), "cline");
        assertThat(r.exitCode()).as("warden install --host cline: " + r.stdout() + r.stderr()).isZero();
        assertThat(project.root().resolve(".clinerules/hooks/PreToolUse")).isExecutable();
    }

    private static Session session(E2eProject project, String prompt, Map<String, String> env, ModelScript script)
            throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(OpenAiChatCompletionsApi.cline(), script)) {
            return new Session(cline.run(project, server, prompt, env), server);
        }
    }

    /** A project manifest: the given concerns and Cline chains, with Cline's native event aliases. */
    private static String manifest(String concerns, String clineChains) {
        return E2eProject.manifestText("cline", concerns, clineChains, "PreToolUse", "PostToolUse")
                + "    TaskStart: session_start\n    TaskComplete: session_end\n";
    }
}
