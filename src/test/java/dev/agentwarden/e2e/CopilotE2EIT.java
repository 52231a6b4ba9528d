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
 * Real host, real verdicts, for GitHub Copilot CLI: {@code copilot -p} runs complete sessions
 * against a {@link ScriptedModelServer} speaking Chat Completions on 127.0.0.1, with Warden
 * installed by {@code warden install --host copilot} ({@code .github/hooks/warden.json}). One
 * project, one install, three sessions: the first plays a deny, a warning, an allowed call, a
 * crashing fail-open concern and a crashing fail_closed one; the second a subagent that tries to
 * spawn one more level; the third runs the first's denied command without {@code --trust-folder}.
 *
 * <p>How Copilot CLI 1.0.102 behaves, as observed with this harness:
 * <ul>
 *   <li>A preToolUse {@code permissionDecision: "deny"} becomes the call's tool message
 *       ({@code Denied by preToolUse hook: <reason>}); the command does not run and the turn goes on.</li>
 *   <li>preToolUse {@code additionalContext} reaches the model as an extra user message.</li>
 *   <li>Hooks inside a subagent carry the child's {@code sessionId} and its {@code agentId} and
 *       {@code parentAgentId}; subagentStart names the main agent's session as the parent.</li>
 *   <li>In {@code -p} mode, without {@code --trust-folder} (or a trusted folder), the project's hooks
 *       are skipped without a word.</li>
 *   <li>A hook's {@code matcher} is a regular expression: {@code "*"} matches no tool at all (the
 *       hook never runs), {@code ".*"} and {@code "bash|task"} match; so Warden writes no matcher for
 *       "every tool".</li>
 *   <li>Copilot's {@code ~/.copilot/config.json} starts with {@code //} comment lines.</li>
 *   <li>A subagent may call {@code task} itself; its preToolUse carries its own {@code agentId}.</li>
 * </ul>
 *
 * <p>The host comes from npm into the e2e cache ({@link HostInstall#COPILOT}); its native package is
 * unpacked once into {@link HostInstall#copilotCache}. The suite skips, loudly, only when neither
 * the cache nor npm can provide it.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "copilot")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CopilotE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String DENY_REASON = "DENY-7f3: denied-marker is off limits";
    private static final String WARNING = "WARN-2c9: mind the warned marker";
    private static final String NESTED_PROMPT = "NESTED-TASK-e2e: one level deeper";

    @TempDir
    static Path suiteDir;

    private static HostSuite suite;
    private static CopilotSession copilot;
    private static String host = "copilot";
    private static String unavailable;
    private static E2eProject project;
    private static Command.Result install;
    private static long suiteStart;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        suiteStart = System.nanoTime();
        suite = HostSuite.open(HostInstall.COPILOT, "Copilot CLI", "copilot", SUMMARY, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (!suite.available()) {
            return;
        }
        copilot = new CopilotSession(suite.binary(), suite.sandbox(), suite.wardenCache());

        project = E2eProject.create(Files.createDirectories(suiteDir.resolve("scenario")).toRealPath());
        project.concern("crash-open.sh", crashOn("crash-open-marker"));
        project.concern("crash-closed.sh", crashOn("crash-closed-marker"));
        project.manifest("""
                schema_version: 1
                concerns:
                  capture:
                    script: %s
                    posture: shadow
                  no-denied-marker:
                    script: builtin:deny-pattern
                    posture: blocking
                    tools: [bash]
                    patterns:
                      - match: 'touch denied-marker'
                        reason: "%s"
                  warn-marker:
                    script: builtin:deny-pattern
                    severity: advisory
                    tools: [bash]
                    patterns:
                      - match: 'warned-marker'
                        reason: "%s"
                  crash-open:
                    script: .warden/concerns/crash-open.sh
                    posture: blocking
                    fail_closed: false
                    tools: [bash]
                  crash-closed:
                    script: .warden/concerns/crash-closed.sh
                    posture: blocking
                    fail_closed: true
                    tools: [bash]
                  route-marker:
                    script: builtin:rule
                    when: '"original-marker" in words'
                    action: rewrite
                    rewrite:
                      command: '"touch rewritten-marker"'
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    posture: shadow
                  spawn-guard:
                    script: builtin:spawn-guard
                    posture: blocking
                    tools: [task]
                    candidates:
                      - {label: n2m4, max_depth: 2, max_concurrent: 4}
                    enforce: n2m4
                platforms:
                  copilot:
                    pre_tool_use: [capture, no-denied-marker, warn-marker, crash-open, crash-closed, spawn-guard, route-marker]
                    subagent_start: [capture, subagent-ledger]
                    subagent_stop: [capture, subagent-ledger]
                """.formatted(E2eProject.CAPTURE_SCRIPT, DENY_REASON, WARNING));
        install = project.installWarden(suite.wardenLauncher(), copilot.baseEnv(), "copilot");
    }

    /** A process concern that crashes (exit 3) when the envelope names {@code marker}, else has no opinion. */
    private static String crashOn(String marker) {
        return "#!/bin/sh\ncase \"$(cat)\" in *" + marker + "*) echo 'e2e concern crashed' >&2; exit 3 ;; esac\nexit 0\n";
    }

    @AfterAll
    static void printSummary() {
        SUMMARY.note("suite wall time: " + (System.nanoTime() - suiteStart) / 1_000_000 + " ms");
        System.out.println(SUMMARY.render());
    }

    private static Session trusted;

    @Test
    @Order(1)
    void install_writesTheHooksFile_andSaysCopilotSkipsItUntilTheFolderIsTrusted() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "install: hooks file and trust note",
                ".github/hooks/warden.json written; install warns that Copilot skips it in an untrusted folder");
        skipIfUnavailable(row);
        row.observed("exit " + install.exitCode() + "; " + install.stdout().lines().filter(l -> l.contains("Copilot"))
                .findFirst().orElse("(no trust line)"));
        assertThat(install.exitCode()).as(install.stdout() + install.stderr()).isZero();
        assertThat(project.root().resolve(".github/hooks/warden.json")).exists();
        assertThat(install.stdout()).contains("warning: Copilot skips").contains("--trust-folder");
        row.pass();
    }

    /** The first session: five bash calls, each meeting another concern, then the final answer. */
    private static Session trustedSession() throws IOException {
        if (trusted == null) {
            trusted = session("run the five commands", true, ModelScript.of(
                    Turn.tool("denied", "bash", bash("touch denied-marker")),
                    Turn.tool("warned", "bash", bash("touch warned-marker")),
                    Turn.tool("allowed", "bash", bash("touch allowed-marker")),
                    Turn.tool("crash_open", "bash", bash("touch crash-open-marker")),
                    Turn.tool("crash_closed", "bash", bash("touch crash-closed-marker")),
                    Turn.text("FINAL: done")));
        }
        return trusted;
    }

    @Test
    @Order(2)
    void blockingConcern_deniesBash_andTheNextRequestCarriesWardensReason() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "blocking concern denies bash",
                "tool message: Warden's reason; command not run; session completes");
        skipIfUnavailable(row);
        Session run = trustedSession();
        Optional<String> output = run.toolOutput("denied");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(output).as("tool message for the denied call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("[warden] " + DENY_REASON));
        assertThat(project.exists("denied-marker")).as("the denied command ran").isFalse();
        row.pass();
    }

    @Test
    @Order(3)
    void warningContext_reachesTheModel_andTheCommandRuns() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "advisory warning reaches the model",
                "additionalContext in a later request; command runs");
        skipIfUnavailable(row);
        Session run = trustedSession();
        boolean seen = run.laterRequestsContain("warned", WARNING);
        row.observed("warning in a later request: " + seen + "; marker " + (project.exists("warned-marker") ? "created" : "ABSENT"));
        assertThat(project.exists("warned-marker")).as("the warned command ran: " + run.describe()).isTrue();
        assertThat(seen).as("the warning reached the model: " + run.describe()).isTrue();
        row.pass();
    }

    @Test
    @Order(4)
    void noOpinion_allowedCallRuns_andCopilotsFlowIsLeftAlone() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "no opinion: allowed call runs",
                "command runs; hook saw it; nothing of Warden's in its tool message; FINAL reached");
        skipIfUnavailable(row);
        Session run = trustedSession();
        Optional<String> output = run.toolOutput("allowed");
        List<String> trace = project.captured().stream().map(CopilotE2EIT::traceOf).toList();
        row.observed("marker " + (project.exists("allowed-marker") ? "created" : "ABSENT") + "; output="
                + output.orElse("(none)") + "; hooks " + trace.size());
        assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
        assertThat(output).hasValueSatisfying(o -> assertThat(o).doesNotContain("[warden]"));
        assertThat(trace).contains("preToolUse bash touch allowed-marker");
        assertThat(run.process().stdout()).contains("FINAL: done");
        row.pass();
    }

    @Test
    @Order(5)
    void crashingConcern_failsOpen_andAFailClosedOneRefuses() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "crashing concern: fail-open runs, fail_closed refuses",
                "crash-open command runs; crash-closed command denied with Warden's reason");
        skipIfUnavailable(row);
        Session run = trustedSession();
        Optional<String> closed = run.toolOutput("crash_closed");
        row.observed("open marker " + (project.exists("crash-open-marker") ? "created" : "ABSENT") + "; closed marker "
                + (project.exists("crash-closed-marker") ? "CREATED" : "absent") + "; output=" + closed.orElse("(none)"));
        assertThat(project.exists("crash-open-marker")).as("fail-open: " + run.describe()).isTrue();
        assertThat(project.exists("crash-closed-marker")).as("fail_closed: " + run.describe()).isFalse();
        assertThat(closed).hasValueSatisfying(o -> assertThat(o).contains("[warden]"));
        row.pass();
    }

    @Test
    @Order(6)
    void subagentSpawn_reachesTheLedgerWithCopilotsLineage_andASpawnBeyondTheDepthIsDenied() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "subagent lineage; spawn beyond depth denied",
                "ledger: subagent_start depth 1 (parent = session), stop; nested task from the child denied (depth 2)");
        skipIfUnavailable(row);
        int before = ledgerLines().size();
        Session run = session("delegate", true, ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-e2e: spawn one more", "task",
                        Turn.spawn("deeper", NESTED_PROMPT, "task", Turn.text("NESTED-FINAL: never")),
                        Turn.text("SUB-FINAL: done")),
                Turn.text("FINAL: delegated")));
        List<Map<String, Object>> lines = ledgerLines().subList(before, ledgerLines().size());
        Map<String, Object> start = E2eProject.payloadOf(project.captured().stream()
                .filter(e -> "subagentStart".equals(e.get("native_event"))).findFirst().orElse(Map.of()));
        String agentId = (String) start.get("agentId");
        String parent = (String) start.get("parentAgentId");
        Optional<String> nested = run.toolOutput("deeper");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("ledger " + lines.stream().map(l -> l.get("event") + "/" + l.get("depth") + "/" + l.get("acted")).toList()
                + "; nested output=" + nested.orElse("(none)"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(agentId).as("subagentStart carried Copilot's agentId: " + run.describe()).isNotNull();
        assertThat(lines).filteredOn(l -> "subagent_start".equals(l.get("event"))).singleElement().satisfies(l -> {
            assertThat(l.get("ref")).isEqualTo(AgentRef.of(agentId));
            assertThat(l.get("parent_ref")).isEqualTo(AgentRef.of(parent));
            assertThat(l.get("depth")).isEqualTo(1L);
            assertThat(l.get("depth_basis")).isEqualTo("asserted-parent");
        });
        assertThat(lines).filteredOn(l -> "subagent_stop".equals(l.get("event"))).singleElement()
                .satisfies(l -> assertThat(l.get("ref")).isEqualTo(AgentRef.of(agentId)));
        assertThat(lines).as("the child's task call, decided on the depth arm")
                .anySatisfy(l -> {
                    assertThat(l.get("event")).isEqualTo("spawn_guard");
                    assertThat(l.get("caller_ref")).isEqualTo(AgentRef.of(agentId));
                    assertThat(l.get("spawn_depth")).isEqualTo(2L);
                    assertThat(l.get("acted")).isEqualTo(true);
                });
        assertThat(nested).hasValueSatisfying(o -> assertThat(o).contains("[warden]").contains("depth 2"));
        assertThat(run.server().exchanges()).as("no grandchild conversation started")
                .noneMatch(e -> "deeper".equals(e.route()));
        row.pass();
    }

    @Test
    @Order(7)
    void untrustedFolder_hooksDoNotRun_andDoctorSaysSo() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "untrusted folder: hooks skipped, doctor reports it",
                "without --trust-folder the denied command runs, no hook fires; doctor names the trust problem");
        skipIfUnavailable(row);
        int hooksBefore = project.captured().size();
        // A home of its own: a folder --trust-folder trusted in the earlier sessions may be remembered there.
        Path home = Files.createDirectories(suiteDir.resolve("untrusted-home"));
        Session run = session("run it", false, Map.of("HOME", home.toString()), ModelScript.of(
                Turn.tool("untrusted", "bash", bash("touch denied-marker")), Turn.text("FINAL: done")));
        Map<String, String> doctorEnv = new java.util.LinkedHashMap<>(copilot.baseEnv());
        doctorEnv.put("HOME", home.toString());
        Command.Result doctor = Command.run(List.of(suite.wardenLauncher().toString(), "doctor", "--host", "copilot", "--scope", "project"),
                project.root(), doctorEnv, Duration.ofSeconds(90));
        String trustLine = doctor.stdout().lines().filter(l -> l.contains("skips")).findFirst().orElse("(none)");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("marker " + (project.exists("denied-marker") ? "created" : "ABSENT") + "; hooks fired "
                + (project.captured().size() - hooksBefore) + "; doctor: " + trustLine.strip());
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("denied-marker")).as("Copilot skipped Warden's hooks: " + run.describe()).isTrue();
        assertThat(project.captured()).as("no hook reached Warden").hasSize(hooksBefore);
        assertThat(doctor.stdout()).contains("Copilot skips").contains("--trust-folder");
        row.pass();
    }

    // ---- Observed-prompt gate (`warden launch --observe-prompt`, branch s4-gate) -----------------
    // Its rows (intact agent forwarded; mutated and clipped agents refused, model never called) go
    // here, on this suite's project and session helpers: session(...) with the gate's base URL in
    // extraEnv (COPILOT_PROVIDER_BASE_URL) instead of the scripted server's.

    // ---- Helpers ------------------------------------------------------------------------------

    private static void skipIfUnavailable(E2eSummary.Row row) {
        if (unavailable != null) {
            row.skip(unavailable);
            org.junit.jupiter.api.Assumptions.abort(unavailable);
        }
    }

    private static Map<String, Object> bash(String command) {
        return Map.of("command", command, "description", "scripted");
    }

    /**
     * Issue 27 item 2: Copilot CLI ignores a rewritten tool input, so a rule's rewrite is a refusal whose
     * reason says what would have run; neither the original command nor the rewritten one runs.
     */
    @Test
    @Order(8)
    void ruleRewrite_onAHostThatCannotRewrite_isRefused_theOriginalDoesNotRun() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "rule rewrite refused (host cannot rewrite)",
                "tool message: rewrite not supported ... would have run: touch rewritten-marker; neither marker created");
        skipIfUnavailable(row);
        Session run = session("touch the marker", true, ModelScript.of(
                Turn.tool("rewritten", "bash", bash("touch original-marker")),
                Turn.text("FINAL: done")));
        Optional<String> output = run.toolOutput("rewritten");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; original-marker "
                + (project.exists("original-marker") ? "CREATED" : "absent") + "; rewritten-marker "
                + (project.exists("rewritten-marker") ? "CREATED" : "absent"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(output).as("tool message for the refused call: " + run.describe()).hasValueSatisfying(o -> assertThat(o)
                .contains("rewrite not supported on Copilot CLI").contains("would have run: touch rewritten-marker"));
        assertThat(project.exists("original-marker")).as("the original command ran").isFalse();
        assertThat(project.exists("rewritten-marker")).as("the rewritten command ran").isFalse();
        row.pass();
    }

    /**
     * The committed {@code .github/hooks/warden.json} on a machine without Warden (PATH without it):
     * its portable {@code bash} command denies the tool call in Copilot's JSON, with the install line.
     */
    @Test
    @Order(9)
    void committedPortableHook_wardenMissing_deniedWithTheInstallLine() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "committed portable hook, no warden on PATH",
                "tool message carries the install line; command not run");
        skipIfUnavailable(row);
        assertThat(Files.readString(project.root().resolve(".github/hooks/warden.json"))).contains("command -v warden")
                .doesNotContain(suite.wardenLauncher().toString());

        Session run = session("touch the marker", true, Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")),
                ModelScript.of(Turn.tool("missing", "bash", bash("touch missing-marker")), Turn.text("FINAL: done")));

        Optional<String> output = run.toolOutput("missing");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; marker "
                + (project.exists("missing-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(output).as("tool message for the refused call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("warden is not installed on this machine")
                        .contains("npm install -g agent-warden"));
        assertThat(project.exists("missing-marker")).as("the refused command ran").isFalse();
        row.pass();
    }

    /**
     * Today's per-machine form committed and pulled where its launcher path is missing: Copilot fails
     * a preToolUse hook that exits non-zero closed, so the call is refused, but nothing says why or
     * what to install.
     */
    @Test
    @Order(10)
    void committedOldPathHook_wardenMissing_refusedWithoutAWordOfWhy() throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "committed old path-form hook, its launcher missing",
                "refused (Copilot fails a preToolUse hook closed), but nothing says what to install");
        skipIfUnavailable(row);
        Path file = project.root().resolve(".github/hooks/warden.json");
        String portable = Files.readString(file);
        Map<String, Object> hooks = Json.parseObject(portable);
        int replaced = 0;
        for (Map.Entry<String, Object> event : map(hooks.get("hooks")).entrySet()) {
            for (Object entry : (List<?>) event.getValue()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> e = (Map<String, Object>) entry;
                if (String.valueOf(e.get("bash")).startsWith("command -v warden ")) {
                    e.put("bash", "/home/alice/src/warden/bin/warden dispatch --host copilot --native-event " + event.getKey());
                    replaced++;
                }
            }
        }
        assertThat(replaced).as(portable).isPositive();
        Files.writeString(file, Json.write(hooks));
        Session run;
        try {
            run = session("touch the marker", true, Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")),
                    ModelScript.of(Turn.tool("old", "bash", bash("touch old-path-marker")), Turn.text("FINAL: done")));
        } finally {
            Files.writeString(file, portable);
        }

        Optional<String> output = run.toolOutput("old");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("output=" + output.orElse("(none)") + "; marker "
                + (project.exists("old-path-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(output).as(run.describe()).isPresent();
        assertThat(output.get()).doesNotContain("npm install");
        assertThat(project.exists("old-path-marker")).as("Copilot fails a preToolUse hook that exits 127 closed: "
                + run.describe()).isFalse();
        row.pass();
    }

    private static Session session(String prompt, boolean trustFolder, ModelScript script) throws IOException {
        return session(prompt, trustFolder, Map.of(), script);
    }

    private static Session session(String prompt, boolean trustFolder, Map<String, String> extraEnv, ModelScript script)
            throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiChatCompletionsApi(), script)) {
            return new Session(copilot.run(project, server, prompt, trustFolder, extraEnv), server);
        }
    }

    /** A captured envelope as one line: native event, tool, and its command (or the agent id). */
    static String traceOf(Map<String, Object> envelope) {
        Map<String, Object> p = E2eProject.payloadOf(envelope);
        Object args = p.get("toolArgs");
        Object command = args instanceof Map<?, ?> m ? m.get("command") : p.get("agentId");
        return envelope.get("native_event") + " " + p.get("toolName") + " " + command;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static List<Map<String, Object>> ledgerLines() throws IOException {
        return HostSuite.ledgerLines(project);
    }

    /** What one {@code copilot -p} did: its process, and the requests it sent to the scripted model. */
    record Session(Command.Result process, ScriptedModelServer server) implements HostRun {
        /** The content of the first tool message the host sent for a scripted call. */
        Optional<String> toolOutput(String scriptedId) {
            String callId = OpenAiChatCompletionsApi.callId(scriptedId);
            for (ScriptedModelServer.Exchange e : server.exchanges()) {
                for (Object m : AnthropicMessagesApi.list(e.body().get("messages"))) {
                    if (m instanceof Map<?, ?> msg && "tool".equals(msg.get("role")) && callId.equals(msg.get("tool_call_id"))) {
                        return Optional.of(OpenAiChatCompletionsApi.text(msg.get("content")));
                    }
                }
            }
            return Optional.empty();
        }

        /** Whether a request that answers {@code scriptedId}'s call carries {@code text} anywhere. */
        boolean laterRequestsContain(String scriptedId, String text) {
            String callId = OpenAiChatCompletionsApi.callId(scriptedId);
            for (ScriptedModelServer.Exchange e : server.exchanges()) {
                String body = Json.write(e.body());
                if (body.contains("\"" + callId + "\"") && body.contains(text)) {
                    return true;
                }
            }
            return false;
        }
    }
}
