package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
 * Real host, real verdicts, for Gemini CLI: {@code gemini -p} runs complete sessions against a
 * {@link ScriptedModelServer} speaking {@code streamGenerateContent} on 127.0.0.1, with Warden
 * installed by {@code warden install --host gemini} ({@code .gemini/settings.json}). Two sessions:
 * one walks the model through a denied, a fail-closed, a fail-open and an allowed shell call, with
 * context on each tool result and a refused final answer; the other delegates to a subagent
 * ({@code invoke_agent}) under the default manifest, whose ledger brackets it.
 *
 * <p>How Gemini CLI 0.61.0 behaves, as observed with this harness: a BeforeTool deny comes back to
 * the model as the call's {@code functionResponse} ({@code Tool execution blocked: <reason>}) and the
 * command does not run; AfterTool {@code additionalContext} is appended to the result inside
 * {@code <hook_context>}; an AfterAgent deny sends the reason as the next user message, and the
 * retry's {@code prompt_response} still holds the refused text (it is every model text of the
 * prompt), so a concern on {@code stop} needs {@code skip_on_refusal_retry}, else it refuses forever.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(HostSuite.LOCK_PREFIX + "gemini-cli")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GeminiE2EIT {
    private static final E2eSummary SUMMARY = new E2eSummary();
    private static final String SHELL = "run_shell_command";

    @TempDir
    static Path suiteDir;

    private static HostSuite suite;
    private static GeminiSession gemini;
    private static String host = "gemini";
    private static String unavailable;

    @BeforeAll
    static void installHostAndWarden() throws IOException {
        suite = HostSuite.open(HostInstall.GEMINI_CLI, "Gemini CLI", "gemini", SUMMARY, suiteDir);
        host = suite.host();
        unavailable = suite.unavailable();
        if (suite.available()) {
            gemini = new GeminiSession(suite.binary(), suite.sandbox(), suite.wardenCache());
        }
    }

    @AfterAll
    static void printSummary() {
        System.out.println(SUMMARY.render());
    }

    @Test
    @Order(1)
    void policySession_denyFailClosedFailOpenAllowContextAndARefusedAnswer(@TempDir Path dir) throws Exception {
        E2eSummary.Row deny = SUMMARY.row(host, "blocking concern denies run_shell_command",
                "functionResponse: Tool execution blocked with Warden's reason; command not run");
        E2eSummary.Row closed = SUMMARY.row(host, "fail-closed concern crashes",
                "refused with a deny (exit 0, never a code Gemini reads as its own deny); command not run");
        E2eSummary.Row open = SUMMARY.row(host, "fail-open concern crashes", "command runs; session goes on");
        E2eSummary.Row allow = SUMMARY.row(host, "no opinion on run_shell_command", "command runs; no output from Warden");
        E2eSummary.Row context = SUMMARY.row(host, "context on AfterTool",
                "the tool result the model reads carries Warden's additionalContext");
        E2eSummary.Row stop = SUMMARY.row(host, "AfterAgent deny forces another turn",
                "the reason comes back as the next user message; the second answer ends the session");
        E2eProject project = E2eProject.forScenario(dir, unavailable, deny, closed, open, allow, context, stop);
        project.concern("crash-on.sh", "#!/usr/bin/env bash\ninput=$(cat)\ncase \"$input\" in *\"$1\"*) echo \"crashed on $1\" >&2;"
                + " exit 3 ;; esac\nexit 0\n");
        project.manifest(manifest("""
                capture:
                  script: %s
                  posture: shadow
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_shell_command]
                  patterns:
                    - match: 'touch .*denied-marker'
                      reason: "DENY-g61: denied-marker is off limits"
                closed-gate:
                  script: .warden/concerns/crash-on.sh
                  args: [closed-marker]
                  posture: blocking
                  fail_closed: true
                open-gate:
                  script: .warden/concerns/crash-on.sh
                  args: [open-marker]
                  posture: blocking
                  fail_closed: false
                note:
                  script: builtin:context-note
                  message: "CTX-g61: Warden saw this result"
                  as: context
                unfinished:
                  script: builtin:deny-pattern
                  posture: blocking
                  skip_on_refusal_retry: true
                  patterns:
                    - match: 'UNFINISHED-g61'
                      reason: "STOP-g61: finish the work first"
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture, no-denied-marker, closed-gate, open-gate]
                post_tool_use: [note]
                stop: [capture, unfinished]
                """));
        install(project);

        Run run = session(project, "touch the markers", ModelScript.of(
                Turn.tool("denied", SHELL, Map.of("command", "touch \"$TMPDIR/denied-marker\"")),
                Turn.tool("closed", SHELL, Map.of("command", "touch \"$TMPDIR/closed-marker\"")),
                Turn.tool("open", SHELL, Map.of("command", "touch \"$TMPDIR/open-marker\"")),
                Turn.tool("allowed", SHELL, Map.of("command", "touch \"$TMPDIR/allowed-marker\"")),
                Turn.text("UNFINISHED-g61: I stopped early"),
                Turn.text("FINAL: done")));

        String denied = run.result("denied");
        String closedResult = run.result("closed");
        String allowed = run.result("allowed");
        for (E2eSummary.Row row : List.of(deny, closed, open, allow, context, stop)) {
            row.timing(run.process().millis(), run.firstModelCallMillis());
        }
        deny.observed("result=" + cut(denied) + "; marker " + marker(project, "denied-marker"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(denied).as("the denied call's functionResponse: " + run.describe())
                .contains("Tool execution blocked").contains("[warden] DENY-g61: denied-marker is off limits");
        assertThat(made(project, "denied-marker")).as("the denied command ran").isFalse();
        deny.pass();

        closed.observed("result=" + cut(closedResult) + "; marker " + marker(project, "closed-marker"));
        assertThat(closedResult).contains("Tool execution blocked").contains("fail_closed");
        assertThat(made(project, "closed-marker")).as("the fail-closed command ran").isFalse();
        closed.pass();

        open.observed("marker " + marker(project, "open-marker"));
        assertThat(made(project, "open-marker")).as("the fail-open command ran").isTrue();
        open.pass();

        allow.observed("result=" + cut(allowed) + "; marker " + marker(project, "allowed-marker"));
        assertThat(made(project, "allowed-marker")).as("the allowed command ran").isTrue();
        assertThat(allowed).doesNotContain("blocked");
        allow.pass();

        context.observed("result=" + cut(allowed));
        assertThat(allowed).contains("CTX-g61: Warden saw this result");
        context.pass();

        boolean reasonSent = run.server().steps().stream().anyMatch(e -> Json.write(e.body().get("contents"))
                .contains("STOP-g61: finish the work first"));
        stop.observed("reason sent back: " + reasonSent + "; stdout has FINAL: " + run.process().stdout().contains("FINAL: done"));
        assertThat(reasonSent).as("the AfterAgent reason reached the model: " + run.describe()).isTrue();
        assertThat(run.process().stdout()).contains("FINAL: done");
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        stop.pass();
    }

    /**
     * Issue 27 item 2 on the real host: a {@code builtin:rule} rewrites the shell command
     * ({@code hookSpecificOutput.tool_input} on BeforeTool) and Gemini CLI runs the rewritten command:
     * the markers show which ran.
     */
    @Test
    @Order(7)
    void ruleRewrite_hostRunsTheRewrittenCommand(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "rule rewrites run_shell_command",
                "tool_input on BeforeTool: the rewritten command runs (rewritten-marker), the original does not");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        project.manifest(manifest("""
                route-marker:
                  script: builtin:rule
                  when: 'command.contains("original-marker")'
                  action: rewrite
                  rewrite:
                    command: 'command.replace("original-marker", "rewritten-marker")'
                  reason: "REWRITE-g27: the marker is routed"
                """, """
                pre_tool_use: [route-marker]
                """));
        install(project);

        Run run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("rewritten", SHELL, Map.of("command", "touch \"$TMPDIR/original-marker\"")),
                Turn.text("FINAL: done")));

        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("result=" + cut(run.result("rewritten")) + "; rewritten-marker " + marker(project, "rewritten-marker")
                + "; original-marker " + marker(project, "original-marker"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(made(project, "rewritten-marker")).as("the rewritten command ran: " + run.describe()).isTrue();
        assertThat(made(project, "original-marker")).as("the original command ran").isFalse();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        row.pass();
    }

    @Test
    @Order(2)
    void subagent_invokeAgent_isBracketedInTheLedgerByTheDefaultManifest(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = SUMMARY.row(host, "invoke_agent subagent bracketed in the ledger",
                "default manifest; ledger: subagent_start and subagent_stop, basis tool_bracket, same ref; child ran");
        E2eProject project = E2eProject.forScenario(dir, unavailable, row);
        install(project);

        Run run = session(project, "delegate the marker", ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-g61: touch sub-marker", "generalist",
                        Turn.tool("sub_touch", SHELL, Map.of("command", "touch sub-marker")),
                        Turn.tool("sub_done", "complete_task", Map.of("result", Map.of("response", "SUB-FINAL: done")))),
                Turn.text("FINAL: done")));

        List<Map<String, Object>> ledger = HostSuite.ledgerLines(project).stream()
                .filter(l -> String.valueOf(l.get("event")).startsWith("subagent_")).toList();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("ledger " + ledger.stream().map(l -> l.get("event") + "/" + l.get("basis") + "/" + l.get("ref")).toList()
                + "; sub-marker " + (project.exists("sub-marker") ? "created" : "absent"));
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(project.exists("sub-marker")).as("the subagent's command ran: " + run.describe()).isTrue();
        assertThat(ledger).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop");
        assertThat(ledger).extracting(l -> l.get("basis")).containsOnly("tool_bracket");
        assertThat(ledger).extracting(l -> l.get("ref")).containsOnly(ledger.get(0).get("ref"));
        assertThat(ledger.get(0)).containsEntry("agent_type", "generalist");
        assertThat(ledger.get(1)).containsEntry("start_seen", true);
        row.pass();
    }

    /**
     * Issue 25 item 2 on Gemini CLI, measured: the committed BeforeTool entry on a machine where Warden
     * is missing. Today's form (an absolute path of another machine) and the portable entry
     * ({@code --if-missing block}), each with no {@code warden} on PATH.
     */
    @Test
    @Order(3)
    void committedHooks_wardenMissing_todaysPathVersusThePortableEntry(@TempDir Path dir) throws Exception {
        E2eSummary.Row today = SUMMARY.row(host, "committed hook names a path missing here (before issue 25)",
                "measured: exit 127 blocks the call (Gemini fails closed); command not run");
        E2eSummary.Row portable = SUMMARY.row(host, "committed portable hook, no warden on PATH",
                "refused with the install line; command not run");
        E2eProject project = E2eProject.forScenario(dir, unavailable, today, portable);
        project.manifest(manifest("""
                no-denied-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_shell_command]
                  patterns:
                    - match: 'touch .*denied-marker'
                      reason: "DENY-g25: denied-marker is off limits"
                """, """
                pre_tool_use: [no-denied-marker]
                """));
        install(project);
        Path settings = project.root().resolve(".gemini/settings.json");
        String committed = Files.readString(settings);
        String entry = dev.agentwarden.install.claude.ClaudeSettings.command(dev.agentwarden.install.HookLauncher.portable(
                dev.agentwarden.install.HookCommand.IfMissing.BLOCK), "gemini", "BeforeTool").replace("\\", "\\\\");
        assertThat(committed).contains(entry);
        Map<String, String> noWarden = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

        Run refused = session(project, "touch the marker", ModelScript.of(
                Turn.tool("p1", SHELL, Map.of("command", "touch \"$TMPDIR/denied-marker\"")),
                Turn.text("FINAL: done")), noWarden);
        String portableResult = refused.result("p1");
        portable.timing(refused.process().millis(), refused.firstModelCallMillis());
        portable.observed("result=" + cut(portableResult) + "; marker " + marker(project, "denied-marker"));

        Files.writeString(settings, committed.replace(entry,
                "/home/alice/src/warden/bin/warden dispatch --host gemini --native-event BeforeTool"));
        Run old = session(project, "touch the marker", ModelScript.of(
                Turn.tool("t1", SHELL, Map.of("command", "touch \"$TMPDIR/old-marker\"")),
                Turn.text("FINAL: done")), noWarden);
        String oldResult = old.result("t1");
        today.timing(old.process().millis(), old.firstModelCallMillis());
        today.observed("result=" + cut(oldResult) + "; marker " + marker(project, "old-marker"));

        assertThat(portableResult).as(refused.describe()).contains("warden is not installed on this machine")
                .contains("npm install -g agent-warden");
        assertThat(made(project, "denied-marker")).as("the refused command ran").isFalse();
        portable.pass();
        // measured on 0.61.0: Gemini reads exit 127 as a failed hook and blocks the call (it fails closed)
        assertThat(old.process().exitCode()).as(old.describe()).isZero();
        assertThat(oldResult).contains("Tool execution blocked").contains("/home/alice/src/warden/bin/warden");
        assertThat(made(project, "old-marker")).as("the command behind the missing hook ran").isFalse();
        today.pass();
    }

    // ---- Helpers ------------------------------------------------------------------------------

    /** What one {@code gemini -p} did: its process, and the requests it sent to the scripted model. */
    record Run(Command.Result process, ScriptedModelServer server) implements HostRun {
        /** The functionResponse the host sent for the scripted call {@code id}, as JSON text ("" if none). */
        String result(String id) {
            String r = GeminiGenerateContentApi.toolResult(server.steps(), id, SHELL);
            return r == null ? "" : r;
        }
    }

    private static void install(E2eProject project) throws IOException {
        Command.Result r = suite.install(project, gemini.baseEnv(), "gemini", ".gemini/settings.json");
        assertThat(r.stdout()).as("install says what gates project hooks").contains("trusted folder");
    }

    private static Run session(E2eProject project, String prompt, ModelScript script) throws IOException {
        return session(project, prompt, script, Map.of());
    }

    private static Run session(E2eProject project, String prompt, ModelScript script, Map<String, String> extraEnv)
            throws IOException {
        try (ScriptedModelServer server = ScriptedModelServer.start(new GeminiGenerateContentApi(), script)) {
            return new Run(gemini.run(project, server, prompt, extraEnv), server);
        }
    }

    /** A project manifest: the given concerns and Gemini chains; Gemini's native events keep their default aliases. */
    private static String manifest(String concerns, String chains) {
        return "schema_version: 1\nconcerns:\n" + concerns.indent(2) + "platforms:\n  gemini:\n" + chains.indent(4);
    }

    private static String marker(E2eProject project, String name) {
        return made(project, name) ? "created" : "absent";
    }

    /**
     * Whether a marker the model's shell call makes exists: markers go to the session's
     * {@code $TMPDIR}, outside the project, whose files Warden's script trust covers (a new file
     * there makes the project's process concerns untrusted, and so fail open).
     */
    private static boolean made(E2eProject project, String name) {
        return Files.exists(project.scratch().resolve(name));
    }

    private static String cut(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
}
