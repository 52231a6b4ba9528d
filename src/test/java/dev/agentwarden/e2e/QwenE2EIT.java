package dev.agentwarden.e2e;

import static dev.agentwarden.e2e.CommandHookScenarios.check;
import static dev.agentwarden.e2e.CommandHookScenarios.rethrow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
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
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Real host, real verdicts, for Qwen Code: {@code qwen -p} runs complete sessions against a
 * {@link ScriptedModelServer} speaking the Anthropic Messages API on 127.0.0.1, with Warden installed
 * by {@code warden install --host qwen} ({@code .qwen/settings.json}); each scenario checks what the
 * host did from the next model request and the project's {@code .warden/} state.
 *
 * <p>How Qwen Code 0.24.4 behaves, as observed with this harness: the shell tool is
 * {@code run_shell_command}; a PreToolUse deny becomes the call's {@code tool_result} with Warden's
 * reason as written (no host prefix) and the session goes on; subagents are started with the
 * {@code agent} tool and run in the background unless the call says {@code run_in_background: false};
 * the child's tool calls carry its {@code agent_id}, as do SubagentStart and SubagentStop.
 *
 * <p>The host is the npm package in the e2e cache ({@link #QWEN_CODE}, installed by {@code .ci/run});
 * the suite skips, loudly, only when neither the cache nor npm can provide it.
 */
@Tag("e2e")
@Execution(ExecutionMode.CONCURRENT)
// in order: side by side (READ) was slower on a loaded 2-core box (66 s against 52 s), a Qwen session being all CPU
@ResourceLock(HostSuite.LOCK_PREFIX + "qwen-code")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(4) // a long host suite (its sessions run in order): it starts first, see junit-platform.properties
class QwenE2EIT extends CommandHookSuite {
    static final HostInstall.Host QWEN_CODE = new HostInstall.Host("qwen-code", "@qwen-code/qwen-code", "qwen");
    private static final String SHELL = "run_shell_command";

    QwenE2EIT() {
        super(new Facts(QWEN_CODE, "Qwen Code", "qwen", "qwen", ".qwen/settings.json"));
    }

    @Override
    Sessions sessions(HostSuite suite) {
        return new QwenSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    ModelApi modelApi() {
        return new AnthropicMessagesApi("agent", true);
    }

    @Override
    public Turn shell(String id, String command) {
        return Turn.tool(id, SHELL, Map.of("command", command, "description", "touch"));
    }

    @Override
    public Optional<String> toolResult(Run run, String scriptedId) {
        return AnthropicMessagesApi.toolResult(run.server().steps(), scriptedId);
    }

    /**
     * One session, four scenarios: a blocking concern denies the first {@code run_shell_command} and
     * has no match on the second, a capture concern with no opinion sees every tool and stop event,
     * and an advisory concern adds context to the prompt.
     */
    @Test
    @Order(1)
    void oneSession_deniesAllowsCapturesAndAddsContext(@TempDir Path dir) throws Exception {
        E2eSummary.Row deny = summary.row(host, "deny: blocking concern denies run_shell_command",
                "tool_result is exactly Warden's reason (no host prefix); command not run");
        E2eSummary.Row allow = summary.row(host, "allow: the same concern, no match",
                "the next command runs; its output reaches the model");
        E2eSummary.Row quiet = summary.row(host, "no opinion on PreToolUse, PostToolUse, PostToolBatch, Stop",
                "each event reaches Warden's chain with Qwen's payload; nothing emitted; session completes");
        E2eSummary.Row context = summary.row(host, "context: UserPromptSubmit additionalContext",
                "the first model request carries Warden's context beside the prompt");
        E2eProject project = project(dir, deny, allow, quiet, context);
        project.concern("context.sh", "#!/bin/sh\ncat >/dev/null\n"
                + "printf '{\"additional_context\":\"CONTEXT-q4 remember the house rules\"}\\n'\nexit 2\n");
        project.manifest(manifest("""
                no-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_shell_command]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-q1: denied-marker is off limits"
                capture:
                  script: %s
                  posture: shadow
                house-rules:
                  script: .warden/concerns/context.sh
                  severity: advisory
                  timeout_ms: 10000
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                user_prompt_submit: [house-rules]
                pre_tool_use: [no-marker, capture]
                post_tool_use: [capture]
                post_tool_batch: [capture]
                stop: [capture]
                """));
        install(project);

        Run run = session(project, "touch the markers", ModelScript.of(
                Turn.tool("denied", SHELL, Map.of("command", "touch denied-marker", "description", "touch it")),
                Turn.tool("allowed", SHELL, Map.of("command", "touch allowed-marker && echo ALLOWED-q2", "description", "touch")),
                Turn.text("FINAL: done")));
        for (E2eSummary.Row row : List.of(deny, allow, quiet, context)) {
            row.timing(run.process().millis(), run.firstModelCallMillis());
        }
        List<AssertionError> failures = new ArrayList<>();
        check(deny, failures, () -> {
            Optional<String> result = toolResult(run, "denied");
            deny.observed("tool_result=" + result.orElse("(none)") + "; marker "
                    + (project.exists("denied-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
            assertThat(run.process().exitCode()).as(run.describe()).isZero();
            assertThat(result).as("tool_result for the denied call: " + run.describe())
                    .hasValue("[warden] DENY-q1: denied-marker is off limits");
            assertThat(project.exists("denied-marker")).as("the denied command ran").isFalse();
        });
        check(allow, failures, () -> {
            Optional<String> result = toolResult(run, "allowed");
            allow.observed("tool_result=" + result.map(CommandHookSuite::cut).orElse("(none)") + "; marker "
                    + (project.exists("allowed-marker") ? "created" : "ABSENT"));
            assertThat(project.exists("allowed-marker")).as("the allowed command ran: " + run.describe()).isTrue();
            assertThat(result).as("tool_result: " + run.describe()).hasValueSatisfying(r -> assertThat(r).contains("ALLOWED-q2"));
        });
        check(quiet, failures, () -> {
            List<String> trace = project.captured().stream().map(E2eProject::traceOf).toList();
            quiet.observed("hooks " + trace);
            assertThat(trace).as(run.describe()).contains("PreToolUse run_shell_command agent_id=-",
                    "PostToolUse run_shell_command agent_id=-", "PostToolBatch null agent_id=-", "Stop null agent_id=-");
            assertThat(run.process().stdout()).contains("FINAL: done");
            assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        });
        check(context, failures, () -> {
            String first = run.server().steps().isEmpty() ? "(no request)"
                    : Json.write(run.server().steps().get(0).body().get("messages"));
            context.observed(first.contains("CONTEXT-q4") ? "context in the first request" : "context ABSENT");
            assertThat(first).as("the first model request: " + run.describe()).contains("CONTEXT-q4 remember the house rules");
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
        CommandHookScenarios.crashingConcerns(summary, host, dir, this, true);
    }

    @Test
    @Order(3)
    void subagentSpawn_reachesTheLedgerWithQwensAgentId(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "subagent: agent tool, foreground",
                "ledger: subagent_start and subagent_stop, ref = hash of Qwen's agent_id; the child's call carries it");
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
                  tools: [agent]
                  candidates:
                    - {label: n2m4, max_depth: 2, max_concurrent: 4}
                """.formatted(E2eProject.CAPTURE_SCRIPT), """
                pre_tool_use: [capture, spawn-guard]
                subagent_start: [capture, subagent-ledger]
                subagent_stop: [capture, subagent-ledger]
                """));
        install(project);

        Run run = session(project, "delegate the marker", ModelScript.of(
                Turn.spawn("helper", "SUBAGENT-TASK-q7: touch sub-marker", "general-purpose",
                        Turn.tool("sub_touch", SHELL, Map.of("command", "touch sub-marker", "description", "touch")),
                        Turn.text("SUB-FINAL: done")),
                Turn.text("FINAL: done")));

        List<String> trace = project.captured().stream().map(E2eProject::traceOf).toList();
        String agentId = project.captured().stream().map(E2eProject::payloadOf)
                .filter(p -> "SubagentStart".equals(p.get("hook_event_name"))).map(p -> (String) p.get("agent_id"))
                .findFirst().orElse(null);
        List<Map<String, Object>> ledger = HostSuite.ledgerLines(project).stream()
                .filter(l -> String.valueOf(l.get("event")).startsWith("subagent_")).toList();
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("ledger " + ledger.stream().map(l -> l.get("event") + "/" + l.get("ref")).toList() + "; hooks " + trace);
        assertThat(run.process().exitCode()).as(run.describe()).isZero();
        assertThat(agentId).as("SubagentStart carried Qwen's agent_id: " + trace + "; " + run.describe()).isNotNull();
        assertThat(trace).as("the subagent's own shell call carries its agent_id")
                .contains("PreToolUse run_shell_command agent_id=" + agentId);
        assertThat(HostSuite.ledgerLines(project)).as("spawn-guard saw Qwen's agent call")
                .anySatisfy(l -> assertThat(l.get("event")).isEqualTo("spawn_guard_shadow"));
        assertThat(ledger).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop");
        assertThat(ledger).extracting(l -> l.get("ref")).containsOnly(AgentRef.of(agentId));
        assertThat(project.exists("sub-marker")).as("the subagent's command ran").isTrue();
        row.pass();
    }

    /**
     * Issue 25 item 2 on Qwen Code, measured: the committed (portable) PreToolUse entry with no
     * {@code warden} on PATH refuses the call, saying what to install.
     */
    @Test
    @Order(30)
    void committedPortableHook_wardenMissing_refusedWithTheInstallLine(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "committed portable hook, no warden on PATH",
                "tool_result carries the install line; command not run");
        E2eProject project = project(dir, row);
        project.manifest(manifest("""
                no-marker:
                  script: builtin:deny-pattern
                  posture: blocking
                  tools: [run_shell_command]
                  patterns:
                    - match: 'touch denied-marker'
                      reason: "DENY-q25: denied-marker is off limits"
                """, """
                pre_tool_use: [no-marker]
                """));
        install(project);
        assertThat(Files.readString(project.root().resolve(".qwen/settings.json"))).contains("command -v warden");

        Run run = session(project, "touch the marker", ModelScript.of(
                Turn.tool("missing", SHELL, Map.of("command", "touch denied-marker")),
                Turn.text("FINAL: done")), withoutWarden());

        Optional<String> result = toolResult(run, "missing");
        row.timing(run.process().millis(), run.firstModelCallMillis());
        row.observed("result=" + result.map(CommandHookSuite::cut).orElse("(none)") + "; marker "
                + (project.exists("denied-marker") ? "CREATED" : "absent") + "; exit " + run.process().exitCode());
        assertThat(result).as("tool_result for the refused call: " + run.describe())
                .hasValueSatisfying(o -> assertThat(o).contains("warden is not installed on this machine")
                        .contains("npm install -g agent-warden"));
        assertThat(project.exists("denied-marker")).as("the refused command ran").isFalse();
        row.pass();
    }
}
