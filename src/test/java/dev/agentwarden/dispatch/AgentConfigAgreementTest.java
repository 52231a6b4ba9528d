package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.decision.ConcernOutcome;
import dev.agentwarden.verdict.Verdict;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 11, "Same semantics as agent-config": one row per place where Warden's dispatch differed
 * from agent-config 11.x's by accident. Each row names the agent-config behaviour it follows and
 * the upstream file that holds it: package/src/scripts/hooks/dispatch_hook.ts (the dispatcher the
 * seed-003 diff patches) or _lib/session_role.ts (named by the seed manifest's role comment). The
 * seed diff itself shows only EVENT_VOCABULARY and _SEVERITY_BY_EXIT of dispatch_hook.ts; every
 * other behaviour is as issue 11 records it from running both dispatchers side by side on the same
 * payloads, and as /work/shared/reference/agent-config.md describes it. The deliberate differences
 * are in the README ("Differences from agent-config") and are not here.
 */
class AgentConfigAgreementTest {
    @TempDir
    static Path dir;

    /** A check of one behaviour; throws when Warden does not agree. */
    interface Check {
        void run() throws Exception;
    }

    static Stream<Arguments> agreements() {
        return Stream.of(
                row("sessionRole_paddedUpperCase_isTrimmedAndLowerCased",
                        "_lib/session_role.ts (named by the seed manifest's role comment): AGENT_CONFIG_SESSION_ROLE trimmed, lower-cased",
                        AgentConfigAgreementTest::roleIsTrimmedAndCaseInsensitive),
                row("skipOnRefusalRetry_subagentStop_concernStillRuns",
                        "dispatch_hook.ts: skip_on_refusal_retry is read for the stop event only",
                        AgentConfigAgreementTest::refusalRetrySkipIsForStopOnly),
                row("nudgeRank_blockingOrFailClosedConcern_messageNeverSuppressed",
                        "dispatch_hook.ts, one-nudge rule: only ranked non-blocking, fail-open messages compete; unranked kept",
                        AgentConfigAgreementTest::nudgeRuleSparesBlockingAndFailClosed),
                row("exit0_withAdditionalContext_emitsNothing",
                        "dispatch_hook.ts: exit 0 is allow and its output is not forwarded",
                        AgentConfigAgreementTest::exitZeroEmitsNothing),
                row("messages_ofConcernsAtTheVerdictsExitCode_only",
                        "dispatch_hook.ts, combination: the deciding messages are those whose exit code equals the verdict's",
                        AgentConfigAgreementTest::decidingMessagesOnly),
                row("stdout_notAJsonObject_neverTheMessage_stderrIs",
                        "dispatch_hook.ts, concern output: only a JSON object's reason is read; else stderr",
                        AgentConfigAgreementTest::stdoutMustBeAJsonObject),
                row("jsonReason_whitespaceOnly_fallsBackToStderr",
                        "dispatch_hook.ts, concern output: a blank reason counts as none",
                        AgentConfigAgreementTest::blankReasonFallsBackToStderr),
                row("jsonDecision_inStdout_doesNotOverrideExitCode",
                        "dispatch_hook.ts _SEVERITY_BY_EXIT (in the seed diff): the exit code alone is the decision",
                        AgentConfigAgreementTest::exitCodeDecides),
                row("contextKey_forwardedOnSessionStartOnly",
                        "dispatch_hook.ts: `context` is read for session_start, `additional_context` everywhere",
                        AgentConfigAgreementTest::contextKeyOnSessionStartOnly),
                row("issue28_sessionStart_exit0Context_forwardedAsTheSessionsContext",
                        "dispatch_hook.ts: a session_start concern's context block (exit 0, {\"context\": …}) reaches the model",
                        AgentConfigAgreementTest::sessionStartContextBlockForwarded),
                row("envelopeSessionId_missingFromPayload_fallsBackToAgentSessionId",
                        "dispatch_hook.ts, envelope: session_id from payload, else $AGENT_SESSION_ID, else \"\" (reference/agent-config.md)",
                        AgentConfigAgreementTest::sessionIdFallsBackToEnv),
                row("processConcern_argv_endsWithPlatform",
                        "dispatch_hook.ts, concern run: argv is args then --platform <platform>",
                        AgentConfigAgreementTest::platformAppendedToArgv),
                row("needsPayloadBodies_undeclaredBody_advisoryConcernGetsStub",
                        "dispatch_hook.ts, needs_payload_bodies: others get {_agent_config_body_omitted, key, body_class, bytes, value_type}",
                        AgentConfigAgreementTest::undeclaredBodyIsStubbed),
                row("messages_joined_blankLineWithinAndMiddleDotBetween",
                        "dispatch_hook.ts: reason + \"\\n\\n\" + additional_context; messages joined with \" · \"",
                        AgentConfigAgreementTest::messagesJoinedAsAgentConfig),
                row("concern_cannotBeConstructed_skippedAndRestOfChainRuns",
                        "dispatch_hook.ts: an unknown concern is skipped with a warning and the rest of the chain runs",
                        AgentConfigAgreementTest::brokenConcernDoesNotTakeTheChainDown));
    }

    private static Arguments row(String name, String agentConfig, Check check) {
        return Arguments.of(name, agentConfig, check);
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("agreements")
    void warden_agreesWithAgentConfig(String name, String agentConfig, Check check) throws Exception {
        check.run();
    }

    // ---- the checks ----

    static void roleIsTrimmedAndCaseInsensitive() {
        assertThat(new DispatchRequest.Env(Map.of("AGENT_CONFIG_SESSION_ROLE", " WORKER ")).role()).isEqualTo("worker");
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_SESSION_ROLE", "Reviewer\n")).role()).isEqualTo("reviewer");
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_SESSION_ROLE", "  ")).role()).isEqualTo(Manifest.DEFAULT_ROLE);
    }

    static void refusalRetrySkipIsForStopOnly() {
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  gate: {script: builtin:deny-pattern, skip_on_refusal_retry: true, patterns: [{match: 'x', reason: r}]}
                platforms:
                  claude:
                    stop: [gate]
                    subagent_stop: [gate]
                """);
        String retry = "{\"stop_hook_active\":true,\"last_assistant_message\":\"x\"}";
        Dispatcher d = new Dispatcher(m, Clock.systemUTC(), Map.of());

        assertThat(d.chainFor(TestManifests.claudeEvent("Stop", EventName.STOP, retry, "/tmp"), "")).isEmpty();
        assertThat(d.chainFor(TestManifests.claudeEvent("SubagentStop", EventName.SUBAGENT_STOP, retry, "/tmp"), ""))
                .extracting(s -> s.name()).containsExactly("gate");
    }

    static void nudgeRuleSparesBlockingAndFailClosed() {
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  first: {script: builtin:context-note, posture: advisory, nudge_rank: 1, message: first}
                  second: {script: builtin:context-note, posture: advisory, nudge_rank: 2, message: second}
                  blocking: {script: builtin:context-note, posture: blocking, nudge_rank: 3, message: blocking}
                  closed: {script: builtin:context-note, posture: advisory, fail_closed: true, nudge_rank: 4, message: closed}
                  unranked: {script: builtin:context-note, posture: advisory, message: unranked}
                platforms:
                  claude:
                    stop: [second, blocking, closed, unranked, first]
                """);
        ChainResult r = new Dispatcher(m, Clock.systemUTC(), Map.of())
                .dispatch(TestManifests.claudeEvent("Stop", EventName.STOP, "{}", "/tmp"), "");

        assertThat(r.verdict().context()).isEqualTo("blocking · closed · unranked · first");
    }

    static void exitZeroEmitsNothing() throws IOException {
        Path s = script("zero.sh", "cat >/dev/null; echo '{\"additional_context\":\"ctx\",\"reason\":\"r\"}'; exit 0");
        ChainResult r = runOne(s, "", "PreToolUse", EventName.PRE_TOOL_USE, bash("ls"), Map.of());

        assertThat(r.verdict()).isEqualTo(Verdict.NO_OPINION);
    }

    static void decidingMessagesOnly() {
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  warner: {script: builtin:deny-pattern, posture: advisory, patterns: [{match: 'x', reason: warned}]}
                  blocker: {script: builtin:deny-pattern, patterns: [{match: 'x', reason: blocked}]}
                platforms:
                  claude:
                    user_prompt_submit: [warner, blocker]
                """);
        Verdict v = new Dispatcher(m, Clock.systemUTC(), Map.of()).dispatch(TestManifests.claudeEvent(
                "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"x\"}", "/tmp"), "").verdict();

        assertThat(v).isEqualTo(new Verdict(Verdict.Kind.BLOCK, "blocked", null));
    }

    static void stdoutMustBeAJsonObject() {
        assertThat(ExternalConcern.interpret(1, "plain words", "", false).reason()).isNull();
        assertThat(ExternalConcern.interpret(1, "plain words", "the reason", false).reason()).isEqualTo("the reason");
        assertThat(ExternalConcern.interpret(2, "[\"a\"]", "why", false).reason()).isEqualTo("why");
        assertThat(ExternalConcern.interpret(1, "{\"reason\":", "why", false).reason()).isEqualTo("why");
    }

    static void blankReasonFallsBackToStderr() {
        assertThat(ExternalConcern.interpret(1, "{\"reason\":\" \\n \"}", "from stderr", false).reason()).isEqualTo("from stderr");
    }

    static void exitCodeDecides() {
        assertThat(ExternalConcern.interpret(2, "{\"decision\":\"block\",\"reason\":\"r\"}", "", false).decision())
                .isEqualTo(Decision.WARN);
        assertThat(ExternalConcern.interpret(1, "{\"decision\":\"allow\",\"reason\":\"r\"}", "", false).decision())
                .isEqualTo(Decision.BLOCK);
    }

    static void contextKeyOnSessionStartOnly() {
        String out = "{\"context\":\"from context\"}";
        assertThat(ExternalConcern.interpret(2, out, "", false, true).reason()).isEqualTo("from context");
        assertThat(ExternalConcern.interpret(2, out, "", false, false).reason()).isNull();
        assertThat(ExternalConcern.interpret(2, "{\"additional_context\":\"ac\"}", "", false, false).reason()).isEqualTo("ac");
    }

    static void sessionStartContextBlockForwarded() throws IOException {
        Path s = script("ctx.sh", "cat >/dev/null; echo '{\"context\":\"Remember: the release branch is frozen.\"}'; exit 0");
        ChainResult start = runOne(s, "", "SessionStart", EventName.SESSION_START, "{\"source\":\"startup\"}", Map.of());
        HostResponse rendered = Hosts.byId("claude").adapter().render("SessionStart", start.verdict());

        assertThat(start.verdict()).isEqualTo(new Verdict(Verdict.Kind.ALLOW, null, "Remember: the release branch is frozen."));
        assertThat(Json.parseObject(rendered.stdout())).isEqualTo(Map.of("hookSpecificOutput", Map.of(
                "hookEventName", "SessionStart", "additionalContext", "Remember: the release branch is frozen.")));
        assertThat(rendered.exitCode()).isZero();
        assertThat(ExternalConcern.interpret(0, "{\"context\":\"c\"}", "", false, false).context())
                .as("context is session_start's alone").isNull();
        assertThat(ExternalConcern.interpret(0, "{\"additional_context\":\"ac\"}", "", false, true).context())
                .as("exit 0 passes on no other message").isNull();
        assertThat(ExternalConcern.interpret(0, "{\"context\":\"  \"}", "", false, true).context()).isNull();
    }

    static void sessionIdFallsBackToEnv() throws IOException {
        Path s = script("sid.sh", "cat > sid-envelope.json; exit 0");
        runOne(s, "", "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"p\"}",
                Map.of("AGENT_SESSION_ID", "from-env"));
        assertThat(Json.parseObject(Files.readString(dir.resolve("sid-envelope.json")))).containsEntry("session_id", "from-env");

        runOne(s, "", "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"p\"}", Map.of());
        assertThat(Json.parseObject(Files.readString(dir.resolve("sid-envelope.json")))).containsEntry("session_id", "");

        runOne(s, "", "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"p\",\"session_id\":\"own\"}",
                Map.of("AGENT_SESSION_ID", "from-env"));
        assertThat(Json.parseObject(Files.readString(dir.resolve("sid-envelope.json")))).containsEntry("session_id", "own");
    }

    static void platformAppendedToArgv() throws IOException {
        Path s = script("argv.sh", "cat >/dev/null; printf '%s|' \"$@\" > argv.txt; exit 0");
        runOne(s, "    args: [--mode, strict]\n", "PreToolUse", EventName.PRE_TOOL_USE, bash("ls"), Map.of());

        assertThat(Files.readString(dir.resolve("argv.txt"))).isEqualTo("--mode|strict|--platform|claude|");
    }

    static void undeclaredBodyIsStubbed() throws IOException {
        Path s = script("bodies.sh", "cat > bodies-envelope.json; exit 0");
        String post = "{\"session_id\":\"s\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},"
                + "\"tool_response\":\"output\"}";
        runOne(s, "    posture: advisory\n    needs_payload_bodies: [input]\n", "PostToolUse", EventName.POST_TOOL_USE,
                post, Map.of());
        Map<String, Object> payload = payloadOf("bodies-envelope.json");

        assertThat(payload.get("tool_input")).isEqualTo(Map.of("command", "ls"));
        assertThat(payload.get("tool_response")).isEqualTo(Map.of("_agent_config_body_omitted", true,
                "key", "tool_response", "body_class", "result", "bytes", 8L, "value_type", "string"));

        runOne(s, "    posture: advisory\n    needs_payload_bodies: [result]\n", "PostToolUse", EventName.POST_TOOL_USE,
                post, Map.of());
        assertThat(payloadOf("bodies-envelope.json").get("tool_input")).as("issue 28: an object's stub counts its keys")
                .isEqualTo(Map.of("_agent_config_body_omitted", true, "key", "tool_input", "body_class", "input",
                        "bytes", 16L, "value_type", "object", "key_count", 1L));

        runOne(s, "    posture: blocking\n", "PostToolUse", EventName.POST_TOOL_USE, post, Map.of());
        assertThat(payloadOf("bodies-envelope.json").get("tool_response")).as("a blocking concern sees every body")
                .isEqualTo("output");
    }

    static void messagesJoinedAsAgentConfig() {
        assertThat(ExternalConcern.interpret(2, "{\"reason\":\"r\",\"additional_context\":\"c\"}", "", false).reason())
                .isEqualTo("r\n\nc");
        Verdict v = Verdict.combine(List.of(
                new ConcernOutcome("a", ConcernResult.warn("one"), Verdict.Kind.WARN, "one", 0, null),
                new ConcernOutcome("b", ConcernResult.warn("two"), Verdict.Kind.WARN, "two", 0, null)));
        assertThat(v.context()).isEqualTo("one · two");
    }

    static void brokenConcernDoesNotTakeTheChainDown() {
        Manifest good = TestManifests.compile("""
                schema_version: 1
                concerns:
                  broken: {script: builtin:deny-pattern, patterns: [{match: 'x', reason: never}]}
                  after: {script: builtin:deny-pattern, patterns: [{match: 'x', reason: AFTER}]}
                platforms:
                  claude:
                    user_prompt_submit: [broken, after]
                """);
        // the compiled form of `broken` reaches dispatch with a regex that does not compile
        Map<String, dev.agentwarden.concern.ConcernSpec> concerns = new java.util.LinkedHashMap<>(good.concerns());
        dev.agentwarden.concern.ConcernSpec b = concerns.get("broken");
        concerns.put("broken", new dev.agentwarden.concern.ConcernSpec(b.name(), b.script(), b.args(), false, b.posture(),
                b.tools(), b.timeoutMs(), false, 0, Map.of("patterns", List.of(Map.of("match", "(x", "reason", "never")))));
        Manifest m = new Manifest(good.source(), good.sourceSha256(), good.aliases(), concerns, good.chains());

        ChainResult r = new Dispatcher(m, Clock.systemUTC(), Map.of()).dispatch(TestManifests.claudeEvent(
                "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"x\"}", "/tmp"), "");

        assertThat(r.verdict().reason()).isEqualTo("AFTER");
        assertThat(r.outcomes().get(0).note()).startsWith("cannot be constructed: ").endsWith("; fail-open");
    }

    // ---- helpers ----

    private static String bash(String command) {
        return Json.write(Map.of("session_id", "s", "tool_name", "Bash", "tool_input", Map.of("command", command)));
    }

    private static Path script(String name, String body) throws IOException {
        Path s = dir.resolve(name);
        WardenProcess.writeScript(s, "#!/bin/sh\n" + body + "\n", "rwxr-xr-x");
        return s;
    }

    /** Dispatches one event to a chain of the one process concern {@code script} (extra concern keys given). */
    private static ChainResult runOne(Path script, String extraKeys, String nativeEvent, EventName event,
                                            String payload, Map<String, String> env) {
        Manifest m = TestManifests.compile("schema_version: 1\nconcerns:\n  c:\n    script: " + script.getFileName()
                + "\n" + extraKeys + "platforms:\n  claude:\n    " + event.wire() + ": [c]\n");
        HookEvent e = TestManifests.claudeEvent(nativeEvent, event, payload, dir.toString());
        return new Dispatcher(m, Clock.systemUTC(), env).dispatch(e, "");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> payloadOf(String file) throws IOException {
        return (Map<String, Object>) Json.parseObject(Files.readString(dir.resolve(file))).get("payload");
    }
}
