package dev.agentwarden.e2e;

import static dev.agentwarden.e2e.CommandHookScenarios.check;
import static dev.agentwarden.e2e.CommandHookScenarios.rethrow;
import static org.assertj.core.api.Assertions.assertThat;

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
 * Real host, real verdicts, for Augment's Auggie CLI: {@code auggie --print} runs complete sessions
 * against {@link AugmentBackendApi}, a scripted mock of Augment's backend on 127.0.0.1 (Auggie has
 * no model-API mode; the mock's model list switches hooks on), with Warden installed by
 * {@code warden install --host augment} ({@code .augment/settings.json}); each scenario checks what
 * the host did from the next backend request and the project's {@code .warden/} state.
 *
 * <p>How Auggie 0.36.0 behaves, as observed with this harness: the shell tool is
 * {@code launch-process}; a PreToolUse deny becomes the call's error result (Warden's reason, then
 * Auggie's own {@code PreToolUse:launch-process hook returned blocking error}) and the session goes
 * on; PostToolUse's {@code additionalContext} is appended to the tool result ({@code [Hook
 * Context]}); SessionStart's and PromptSubmit's context have no effect in {@code --print}, so no
 * scenario claims them.
 *
 * <p>The host is the npm package in the e2e cache ({@link HostInstall#AUGGIE}, installed by
 * {@code .ci/run}); the suite skips, loudly, only when neither the cache nor npm can provide it. Its
 * scenarios run side by side ({@link CommandHookSuite}).
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(value = HostSuite.LOCK_PREFIX + "auggie", mode = ResourceAccessMode.READ)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuggieE2EIT extends CommandHookSuite {
    private static final String SHELL = "launch-process";

    AuggieE2EIT() {
        super(new Facts(HostInstall.AUGGIE, "Auggie", "auggie", "augment", ".augment/settings.json"));
    }

    @Override
    Sessions sessions(HostSuite suite) {
        return new AuggieSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    ModelApi modelApi() {
        return new AugmentBackendApi();
    }

    @Override
    public Turn shell(String id, String command) {
        return Turn.tool(id, SHELL, execute(command));
    }

    @Override
    public Optional<String> toolResult(Run run, String scriptedId) {
        return AugmentBackendApi.toolResult(run.server().steps(), scriptedId);
    }

    private static Map<String, Object> execute(String command) {
        return Map.of("command", command, "wait", Boolean.TRUE, "max_wait_seconds", 30L);
    }

    /**
     * One session, four scenarios: a blocking concern denies the first {@code launch-process}
     * ({@code rm -rf} of a directory) and has no match on the second, a capture concern with no
     * opinion sees the tool events, and an advisory concern adds context to the allowed call's result.
     */
    @Test
    @Order(1)
    void oneSession_deniesAllowsCapturesAndAddsContext(@TempDir Path dir) throws Exception {
        E2eSummary.Row deny = summary.row(host, "deny: blocking concern denies rm -rf in launch-process",
                "tool_result is an error carrying Warden's reason; the directory survives");
        E2eSummary.Row allow = summary.row(host, "allow: the same concern, no match",
                "the next command runs; its output reaches the model");
        E2eSummary.Row quiet = summary.row(host, "no opinion on PreToolUse, PostToolUse",
                "each event reaches Warden's chain with Auggie's payload; nothing emitted");
        E2eSummary.Row context = summary.row(host, "context: PostToolUse additionalContext",
                "the allowed call's result carries Warden's context");
        E2eProject project = project(dir, deny, allow, quiet, context);
        Files.createDirectories(project.root().resolve("victim"));
        Files.writeString(project.root().resolve("victim/keep.txt"), "precious\n");
        project.concern("context.sh", "#!/bin/sh\ncat >/dev/null\n"
                + "printf '{\"additional_context\":\"CONTEXT-a4 remember the house rules\"}\\n'\nexit 2\n");
        project.manifest(manifest("""
                no-rm:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [launch-process]
                  patterns:
                    - match: 'rm -rf'
                      reason: "DENY-a1: rm -rf is off limits"
                capture:
                  script: %s
                  posture: shadow
                house-rules:
                  script: .warden/concerns/context.sh
                  severity: advisory
                  timeout_ms: 10000
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [no-rm, capture]
                post_tool_use: [capture, house-rules]
                """));
        install(project);

        Run run = session(project, "clean up and touch the marker", ModelScript.of(
                Turn.tool("denied", SHELL, execute("rm -rf " + project.root().resolve("victim"))),
                Turn.tool("allowed", SHELL, execute("touch allowed-marker && echo ALLOWED-a2")),
                Turn.text("FINAL: done")));
        for (E2eSummary.Row row : List.of(deny, allow, quiet, context)) {
            row.timing(run.process().millis(), run.firstModelCallMillis());
        }
        List<AssertionError> failures = new ArrayList<>();
        check(deny, failures, () -> {
            Optional<String> result = toolResult(run, "denied");
            boolean survived = Files.exists(project.root().resolve("victim/keep.txt"));
            deny.observed("tool_result=" + result.map(CommandHookSuite::cut).orElse("(none)") + "; victim "
                    + (survived ? "kept" : "DELETED") + "; exit " + run.process().exitCode());
            assertThat(run.process().exitCode()).as(run.describe()).isZero();
            assertThat(result).as("tool_result for the denied call: " + run.describe())
                    .hasValueSatisfying(r -> assertThat(r).contains("[warden] DENY-a1: rm -rf is off limits"));
            assertThat(survived).as("the denied rm -rf ran").isTrue();
        });
        check(allow, failures, () -> {
            Optional<String> result = toolResult(run, "allowed");
            allow.observed("tool_result=" + result.map(CommandHookSuite::cut).orElse("(none)") + "; marker "
                    + (project.exists("allowed-marker") ? "created" : "ABSENT"));
            assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
            assertThat(result).as("tool_result: " + run.describe()).hasValueSatisfying(r -> assertThat(r).contains("ALLOWED-a2"));
        });
        check(quiet, failures, () -> {
            List<String> trace = project.captured().stream().map(E2eProject::traceOf).toList();
            quiet.observed("hooks " + trace);
            assertThat(trace).as(run.describe()).contains("PreToolUse launch-process agent_id=-",
                    "PostToolUse launch-process agent_id=-");
            assertThat(run.process().stdout()).contains("FINAL: done");
            assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        });
        check(context, failures, () -> {
            Optional<String> result = toolResult(run, "allowed");
            context.observed(result.orElse("").contains("CONTEXT-a4") ? "context in the tool result" : "context ABSENT");
            assertThat(result).as("the allowed call's result: " + run.describe())
                    .hasValueSatisfying(r -> assertThat(r).contains("CONTEXT-a4 remember the house rules"));
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
     * The committed {@code .augment/settings.json} on a machine without Warden (PATH without it):
     * today's form, which runs another machine's launcher path, and the portable command a project
     * install writes (auggie runs it with {@code bash -c}: it holds shell operators).
     */
    @Test
    @Order(3)
    void committedHooks_wardenMissing_oldPathFailsOpen_portableRefusesWithTheInstallLine(@TempDir Path dir)
            throws Exception {
        E2eSummary.Row row = summary.row(host, "committed hooks, no warden on PATH (old path form vs portable)",
                "old: command runs; portable: tool_result carries the install line; command not run");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [launch-process]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-a3: denied-marker is off limits"
                """, "pre_tool_use: [no-marker]\n"));
        install(project);
        Path settings = project.root().resolve(".augment/settings.json");
        String portable = Files.readString(settings);
        assertThat(portable).contains("command -v warden").doesNotContain(suite().wardenLauncher().toString());

        // today's form, as a teammate's clone had it: another machine's launcher path
        Files.writeString(settings, portable.replaceAll("command -v warden [^\"]*--native-event (\\w+);[^\"]*",
                "/home/alice/src/warden/bin/warden dispatch --host augment --native-event $1"));
        assertThat(Files.readString(settings)).doesNotContain("command -v");
        assertThat(dev.agentwarden.json.Json.write(dev.agentwarden.json.Json.parseObject(Files.readString(settings))))
                .as("still valid JSON, naming the other machine's launcher")
                .contains("/home/alice/src/warden/bin/warden dispatch --host augment --native-event PreToolUse");
        Run old = session(project, "touch the marker", ModelScript.of(
                Turn.tool("old", SHELL, execute("touch denied-marker")), Turn.text("FINAL: done")), withoutWarden());
        boolean oldRan = project.exists("denied-marker");
        Files.deleteIfExists(project.root().resolve("denied-marker"));

        Files.writeString(settings, portable);
        Run run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("missing", SHELL, execute("touch denied-marker")), Turn.text("FINAL: done")), withoutWarden());

        Optional<String> result = toolResult(run, "missing");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("old: marker " + (oldRan ? "CREATED" : "absent") + "; portable: tool_result="
                + result.map(CommandHookSuite::cut).orElse("(none)") + ", marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent"));
        assertThat(oldRan).as("today's form on a machine without that path lets the tool run: " + old.describe()).isTrue();
        assertThat(result).as("tool_result for the refused call: " + run.describe())
                .hasValueSatisfying(r -> assertThat(r).contains("warden is not installed on this machine")
                        .contains("npm install -g agent-warden"));
        assertThat(project.exists("denied-marker")).as("the refused command ran").isFalse();
        row.pass();
    }
}
