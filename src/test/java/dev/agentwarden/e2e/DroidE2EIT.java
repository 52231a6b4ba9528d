package dev.agentwarden.e2e;

import static dev.agentwarden.e2e.CommandHookScenarios.check;
import static dev.agentwarden.e2e.CommandHookScenarios.rethrow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * Real host, real verdicts, for Factory Droid: {@code droid exec} runs complete sessions against a
 * {@link ScriptedModelServer} speaking the Anthropic Messages API on 127.0.0.1 (a bring-your-own-key
 * custom model, no Factory login), with Warden installed by {@code warden install --host droid}
 * ({@code .factory/hooks.json}, events at its top level); each scenario checks what the host did
 * from the next model request and the project's {@code .warden/} state.
 *
 * <p>How Droid 0.225.2 behaves, as observed with this harness: the shell tool is {@code Execute};
 * a PreToolUse deny becomes the call's error {@code tool_result} ({@code Error: <reason>}) and the
 * session goes on; SessionStart's {@code additionalContext} reaches the model; a Stop block would
 * loop without limit, so Warden answers a blocking Stop concern with a note and the session ends;
 * SessionStart's {@code continue: false} is ignored (the session goes on), a gap pinned here.
 *
 * <p>The host is the npm package in the e2e cache ({@link HostInstall#DROID}, installed by
 * {@code .ci/run}); the suite skips, loudly, only when neither the cache nor npm can provide it. Its
 * scenarios run side by side ({@link CommandHookSuite}).
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(value = HostSuite.LOCK_PREFIX + "droid", mode = ResourceAccessMode.READ)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DroidE2EIT extends CommandHookSuite {
    private static final String SHELL = "Execute";

    DroidE2EIT() {
        // Droid's native event names are Claude's
        super(new Facts(HostInstall.DROID, "Factory Droid", "droid", "droid", ".factory/hooks.json"));
    }

    @Override
    Sessions sessions(HostSuite suite) {
        return new DroidSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    ModelApi modelApi() {
        return new AnthropicMessagesApi("Task", false);
    }

    @Override
    public Turn shell(String id, String command) {
        return Turn.tool(id, SHELL, execute(command));
    }

    @Override
    public Optional<String> toolResult(Run run, String scriptedId) {
        return AnthropicMessagesApi.toolResult(run.server().steps(), scriptedId);
    }

    private static Map<String, Object> execute(String command) {
        return Map.of("command", command, "summary", "Run the requested command", "riskLevel", "low",
                "riskLevelReason", "The user asked for exactly this command.");
    }

    /**
     * One session, five scenarios: a blocking concern denies the first {@code Execute} ({@code rm -rf}
     * of a directory) and has no match on the second, a capture concern with no opinion sees the tool
     * events, an advisory concern adds context at SessionStart, and a blocking concern on Stop is
     * answered as a note, not a block (Droid would loop on it without limit).
     */
    @Test
    @Order(1)
    void oneSession_deniesAllowsCapturesAddsContext_andNeverBlocksStop(@TempDir Path dir) throws Exception {
        E2eSummary.Row deny = summary.row(host, "deny: blocking concern denies rm -rf in Execute",
                "tool_result is an error carrying Warden's reason; the directory survives");
        E2eSummary.Row allow = summary.row(host, "allow: the same concern, no match",
                "the next command runs; its output reaches the model");
        E2eSummary.Row quiet = summary.row(host, "no opinion on PreToolUse, PostToolUse",
                "each event reaches Warden's chain with Droid's payload; nothing emitted");
        E2eSummary.Row context = summary.row(host, "context: SessionStart additionalContext",
                "the first model request carries Warden's context");
        E2eSummary.Row stop = summary.row(host, "Stop: a blocking concern is answered as a note",
                "Stop fires once; no extra model turn; the session exits 0");
        E2eProject project = project(dir, deny, allow, quiet, context, stop);
        Files.createDirectories(project.root().resolve("victim"));
        Files.writeString(project.root().resolve("victim/keep.txt"), "precious\n");
        project.concern("context.sh", "#!/bin/sh\ncat >/dev/null\n"
                + "printf '{\"additional_context\":\"CONTEXT-d4 remember the house rules\"}\\n'\nexit 2\n");
        project.concern("stop-block.sh", "#!/bin/sh\ncat >/dev/null\nprintf '{\"reason\":\"STOP-d5 not finished\"}\\n'\nexit 1\n");
        project.manifest(manifest("""
                no-rm:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [Execute]
                  patterns:
                    - match: 'rm -rf'
                      reason: "DENY-d1: rm -rf is off limits"
                capture:
                  script: %s
                  posture: shadow
                house-rules:
                  script: .warden/concerns/context.sh
                  severity: advisory
                  timeout_ms: 10000
                stop-block:
                  script: .warden/concerns/stop-block.sh
                  severity: blocking
                  timeout_ms: 10000
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                session_start: [house-rules]
                pre_tool_use: [no-rm, capture]
                post_tool_use: [capture]
                stop: [capture, stop-block]
                """));
        install(project);

        Run run = session(project, "clean up and touch the marker", ModelScript.of(
                Turn.tool("denied", SHELL, execute("rm -rf " + project.root().resolve("victim"))),
                Turn.tool("allowed", SHELL, execute("touch allowed-marker && echo ALLOWED-d2")),
                Turn.text("FINAL: done")));
        for (E2eSummary.Row row : List.of(deny, allow, quiet, context, stop)) {
            row.timing(run.process().millis(), run.firstModelCallMillis());
        }
        List<AssertionError> failures = new ArrayList<>();
        check(deny, failures, () -> {
            Optional<String> result = toolResult(run, "denied");
            boolean survived = Files.exists(project.root().resolve("victim/keep.txt"));
            deny.observed("tool_result=" + result.orElse("(none)") + "; victim " + (survived ? "kept" : "DELETED")
                    + "; exit " + run.process().exitCode());
            assertThat(run.process().exitCode()).as(run.describe()).isZero();
            assertThat(result).as("tool_result for the denied call: " + run.describe())
                    .hasValueSatisfying(r -> assertThat(r).contains("[warden] DENY-d1: rm -rf is off limits"));
            assertThat(survived).as("the denied rm -rf ran").isTrue();
        });
        check(allow, failures, () -> {
            Optional<String> result = toolResult(run, "allowed");
            allow.observed("tool_result=" + result.map(CommandHookSuite::cut).orElse("(none)") + "; marker "
                    + (project.exists("allowed-marker") ? "created" : "ABSENT"));
            assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
            assertThat(result).as("tool_result: " + run.describe()).hasValueSatisfying(r -> assertThat(r).contains("ALLOWED-d2"));
        });
        check(quiet, failures, () -> {
            List<String> trace = project.captured().stream().map(E2eProject::traceOf).toList();
            quiet.observed("hooks " + trace);
            assertThat(trace).as(run.describe()).contains("PreToolUse Execute agent_id=-", "PostToolUse Execute agent_id=-");
            assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        });
        check(context, failures, () -> {
            String first = run.server().steps().isEmpty() ? "(no request)" : Json.write(run.server().steps().get(0).body());
            context.observed(first.contains("CONTEXT-d4") ? "context in the first request" : "context ABSENT");
            assertThat(first).as("the first model request: " + run.describe()).contains("CONTEXT-d4 remember the house rules");
        });
        check(stop, failures, () -> {
            long stops = project.captured().stream().filter(e -> "Stop".equals(e.get("native_event"))).count();
            boolean reasonSent = run.server().steps().stream().anyMatch(s -> Json.write(s.body()).contains("STOP-d5"));
            stop.observed("Stop fired " + stops + "x; reason " + (reasonSent ? "SENT to the model" : "not sent")
                    + "; exit " + run.process().exitCode());
            assertThat(stops).as("Stop fired once: " + run.describe()).isEqualTo(1);
            assertThat(reasonSent).as("the Stop block went back to the model as a new turn").isFalse();
            assertThat(run.process().stdout()).contains("FINAL: done");
        });
        rethrow(failures);
    }

    /**
     * One session, two failing concerns: each crashes only on its own command. The fail-open one
     * lets its command run; the fail-closed one refuses its command with Warden's reason.
     */
    @Test
    @Order(2)
    void oneSession_crashingConcerns_failOpenRuns_failClosedRefuses(@TempDir Path dir) throws Exception {
        CommandHookScenarios.crashingConcerns(summary, host, dir, this, false);
    }

    /**
     * A halt at SessionStart (the integrity gate, misconfigured: its agent file is absent, so it
     * halts instead of failing open) is answered {@code continue: false}, which Droid 0.225.2
     * ignores on SessionStart: the session goes on and the scripted command runs. This pins that
     * gap (docs/hosts/droid.md) so that a Droid which starts honouring it shows up here.
     */
    @Test
    @Order(3)
    void sessionStartHalt_isIgnoredByDroid_theKnownGap(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "halt at SessionStart (integrity gate): continue:false",
                "KNOWN GAP: Droid 0.225.2 ignores it there; the session goes on");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                halter:
                  script: builtin:integrity-attach
                  agent: e2e-absent
                """, "session_start: [halter]\n"));
        install(project);

        Run run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("halted", SHELL, execute("touch halted-marker")),
                Turn.text("FINAL: done")));
        row.timing(run.process().millis(), run.firstModelCallMillis());
        boolean halted = HostSuite.ledgerLines(project).stream().anyMatch(l -> String.valueOf(l).contains("UNKNOWN_HALT"))
                || Files.exists(project.root().resolve(".warden/state/integrity/evidence.jsonl"));
        row.observed("gate halted: " + halted + "; marker " + (project.exists("halted-marker") ? "created" : "absent")
                + "; exit " + run.process().exitCode());
        assertThat(halted).as("the integrity gate halted at SessionStart: " + run.describe()).isTrue();
        assertThat(project.exists("halted-marker")).as("Droid now honours SessionStart's continue:false: "
                + "update DroidHost and docs/hosts/droid.md").isTrue();
        row.pass();
    }
}
