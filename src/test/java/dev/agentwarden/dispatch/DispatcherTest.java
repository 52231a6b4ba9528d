package dev.agentwarden.dispatch;

import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.decision.ConcernOutcome;
import dev.agentwarden.verdict.Verdict;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.verdict.Verdict.Kind;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.concern.Posture;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dispatcher's agent-config semantics: fail mode and posture ({@link Dispatcher#settle}), chain
 * order, the tools filter, skip_on_refusal_retry, role drops, ranked nudges, and the fail_closed
 * check used when a payload cannot be read.
 */
class DispatcherTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    // ---- settle: fail mode × posture × raw decision ----

    static Stream<Arguments> settleCases() {
        ConcernResult error = ConcernResult.error("exit code 3");
        return Stream.of(
                Arguments.of("error_failClosedBlocking_blocks", "blocking", true, error, Kind.BLOCK,
                        "c could not run (exit code 3); fail_closed refuses", "exit code 3; fail-closed"),
                Arguments.of("error_failOpen_allowsSilently", "blocking", false, error, Kind.ALLOW, null,
                        "exit code 3; fail-open"),
                Arguments.of("error_failClosedAdvisory_cappedToWarn", "advisory", true, error, Kind.WARN,
                        "c could not run (exit code 3); fail_closed refuses",
                        "exit code 3; fail-closed; advisory ceiling: block → warn"),
                Arguments.of("error_failClosedShadow_emitsNothing", "shadow", true, error, Kind.ALLOW, null,
                        "exit code 3; fail-closed; shadow: block not emitted"),
                Arguments.of("block_blocking_blocks", "blocking", false, ConcernResult.block("b"), Kind.BLOCK, "b", null),
                Arguments.of("block_advisory_cappedToWarn", "advisory", false, ConcernResult.block("b"), Kind.WARN, "b",
                        "advisory ceiling: block → warn"),
                Arguments.of("block_shadow_emitsNothing", "shadow", false, ConcernResult.block("b"), Kind.ALLOW, null,
                        "shadow: block not emitted"),
                Arguments.of("halt_blocking_halts", "blocking", false, ConcernResult.halt("h"), Kind.HALT, "h", null),
                Arguments.of("halt_advisory_cappedToWarn", "advisory", false, ConcernResult.halt("h"), Kind.WARN, "h",
                        "advisory ceiling: halt → warn"),
                Arguments.of("halt_shadow_emitsNothing", "shadow", false, ConcernResult.halt("h"), Kind.ALLOW, null,
                        "shadow: halt not emitted"),
                Arguments.of("warn_blocking_warns", "blocking", false, ConcernResult.warn("w"), Kind.WARN, "w", null),
                Arguments.of("warn_advisory_warns", "advisory", false, ConcernResult.warn("w"), Kind.WARN, "w", null),
                Arguments.of("warn_shadow_emitsNothing", "shadow", false, ConcernResult.warn("w"), Kind.ALLOW, null,
                        "shadow: warn not emitted"),
                Arguments.of("warnWithContext_messageJoined", "blocking", false,
                        new ConcernResult(Decision.WARN, "w", "ctx"), Kind.WARN, "w\n\nctx", null),
                Arguments.of("allowWithContext_contextIsMessage", "blocking", false, ConcernResult.allowWithContext("ctx"),
                        Kind.ALLOW, "ctx", null),
                Arguments.of("allowWithContext_shadow_emitsNothing", "shadow", false, ConcernResult.allowWithContext("ctx"),
                        Kind.ALLOW, null, "shadow: allow not emitted"),
                Arguments.of("allowPlain_shadow_noNote", "shadow", false, ConcernResult.allow(), Kind.ALLOW, null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settleCases")
    void settle_failModeAndPosture_applied(String name, String posture, boolean failClosed, ConcernResult raw,
                                           Kind effective, String message, String note) {
        ConcernSpec spec = TestManifests.spec("script: builtin:context-note\nposture: " + posture
                + "\nfail_closed: " + failClosed);

        ConcernOutcome o = Dispatcher.settle(spec, raw, 7_250);

        assertThat(o.effective()).isEqualTo(effective);
        assertThat(o.message()).isEqualTo(message);
        assertThat(o.note()).isEqualTo(note);
        assertThat(o.raw()).isSameAs(raw);
        assertThat(o.concern()).isEqualTo("c");
        assertThat(o.durationUs()).isEqualTo(7_250);
        assertThat(o.durationMs()).isEqualTo(7);
    }

    @Test
    void settle_severityAdvisoryWithoutPosture_isAdvisoryCeiling() {
        ConcernSpec spec = TestManifests.spec("script: builtin:context-note\nseverity: advisory");

        assertThat(Dispatcher.settle(spec, ConcernResult.block("b"), 0).effective()).isEqualTo(Kind.WARN);
    }

    @Test
    void settle_postureOverridesSeverity() {
        ConcernSpec spec = TestManifests.spec("script: builtin:context-note\nseverity: blocking\nposture: shadow");

        assertThat(Dispatcher.settle(spec, ConcernResult.block("b"), 0).effective()).isEqualTo(Kind.ALLOW);
    }

    // ---- chains ----

    private static final Manifest CHAINS = TestManifests.compile("""
            schema_version: 1
            concerns:
              bash-only:
                script: builtin:deny-pattern
                tools: [Bash]
                patterns: [{match: 'x', reason: bash-only}]
              any-tool:
                script: builtin:deny-pattern
                tools: ['*']
                patterns: [{match: 'x', reason: any-tool}]
              no-tools-key:
                script: builtin:deny-pattern
                patterns: [{match: 'x', reason: no-tools-key}]
              retry-skipper:
                script: builtin:deny-pattern
                skip_on_refusal_retry: true
                patterns: [{match: 'x', reason: retry-skipper}]
              note:
                script: builtin:context-note
                as: context
                message: a note
            roles:
              worker:
                drop: [any-tool, retry-skipper]
            platforms:
              claude:
                pre_tool_use: [bash-only, any-tool, no-tools-key]
                user_prompt_submit: [bash-only, any-tool, no-tools-key]
                stop: [retry-skipper, no-tools-key]
                subagent_stop: [retry-skipper, no-tools-key]
                post_tool_use: [retry-skipper, note]
            """);

    static Stream<Arguments> chainCases() {
        return Stream.of(
                Arguments.of("preToolUse_bash_allThree", "PreToolUse", EventName.PRE_TOOL_USE,
                        "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"x\"}}", "", List.of("bash-only", "any-tool", "no-tools-key")),
                Arguments.of("preToolUse_otherTool_toolsFilterDropsBashOnly", "PreToolUse", EventName.PRE_TOOL_USE,
                        "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"x\"}}", "", List.of("any-tool", "no-tools-key")),
                Arguments.of("preToolUse_workerRole_nothingDropped", "PreToolUse", EventName.PRE_TOOL_USE,
                        "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"x\"}}", "worker", List.of("bash-only", "any-tool", "no-tools-key")),
                Arguments.of("userPrompt_noToolName_neverFiltered", "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
                        "{\"prompt\":\"x\"}", "", List.of("bash-only", "any-tool", "no-tools-key")),
                Arguments.of("userPrompt_workerRole_dropsListed", "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
                        "{\"prompt\":\"x\"}", "worker", List.of("bash-only", "no-tools-key")),
                Arguments.of("userPrompt_unknownRole_defaultChain", "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
                        "{\"prompt\":\"x\"}", "reviewer", List.of("bash-only", "any-tool", "no-tools-key")),
                Arguments.of("stop_firstAttempt_allRun", "Stop", EventName.STOP,
                        "{\"stop_hook_active\":false,\"last_assistant_message\":\"x\"}", "", List.of("retry-skipper", "no-tools-key")),
                Arguments.of("stop_refusalRetry_skipperSkipped", "Stop", EventName.STOP,
                        "{\"stop_hook_active\":true,\"last_assistant_message\":\"x\"}", "", List.of("no-tools-key")),
                Arguments.of("stop_stopHookActiveNotBoolean_notARetry", "Stop", EventName.STOP,
                        "{\"stop_hook_active\":\"true\",\"last_assistant_message\":\"x\"}", "", List.of("retry-skipper", "no-tools-key")),
                // agent-config (dispatch_hook.ts): skip_on_refusal_retry is read on stop only
                Arguments.of("subagentStop_refusalRetry_skipperStillRuns", "SubagentStop", EventName.SUBAGENT_STOP,
                        "{\"stop_hook_active\":true,\"last_assistant_message\":\"x\"}", "", List.of("retry-skipper", "no-tools-key")),
                Arguments.of("postToolUse_stopHookActive_onlyStopsSkip", "PostToolUse", EventName.POST_TOOL_USE,
                        "{\"stop_hook_active\":true,\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"x\"}}", "",
                        List.of("retry-skipper", "note")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chainCases")
    void chainFor_filtersAndRoles_applied(String name, String nativeEvent, EventName event, String payload, String role,
                                          List<String> expected) {
        HookEvent e = TestManifests.claudeEvent(nativeEvent, event, payload, "/tmp");
        Dispatcher d = new Dispatcher(CHAINS, CLOCK, Map.of());

        assertThat(d.chainFor(e, role).stream().map(ConcernSpec::name)).containsExactlyElementsOf(expected);
        assertThat(d.dispatch(e, role).outcomes().stream().map(ConcernOutcome::concern))
                .as("dispatch runs exactly that chain, in order").containsExactlyElementsOf(expected);
    }

    @Test
    void dispatch_chainOrder_reasonsInChainOrder() {
        HookEvent e = TestManifests.claudeEvent("PreToolUse", EventName.PRE_TOOL_USE,
                "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"x\"}}", "/tmp");

        ChainResult r = new Dispatcher(CHAINS, CLOCK, Map.of()).dispatch(e, "");

        assertThat(r.verdict()).isEqualTo(new Verdict(Kind.BLOCK, "bash-only · any-tool · no-tools-key", null));
    }

    @Test
    void dispatch_unboundEvent_noOpinion() {
        HookEvent e = TestManifests.claudeEvent("SessionEnd", EventName.SESSION_END, "{\"reason\":\"other\"}", "/tmp");

        ChainResult r = new Dispatcher(CHAINS, CLOCK, Map.of()).dispatch(e, "");

        assertThat(r.outcomes()).isEmpty();
        assertThat(r.verdict()).isEqualTo(Verdict.NO_OPINION);
    }

    @Test
    void dispatch_otherHost_ownChainOnly() {
        HookEvent e = new dev.agentwarden.host.claude.ClaudeAdapter("cowork").normalize("PreToolUse", EventName.PRE_TOOL_USE,
                dev.agentwarden.json.Json.parseObject("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"x\"}}"),
                new byte[0], "/tmp");

        assertThat(new Dispatcher(CHAINS, CLOCK, Map.of()).dispatch(e, "").outcomes()).isEmpty();
    }

    // ---- ranked nudges ----

    private static final Manifest NUDGES = TestManifests.compile("""
            schema_version: 1
            concerns:
              rank3: {script: builtin:context-note, posture: advisory, message: three, nudge_rank: 3}
              rank1: {script: builtin:context-note, posture: advisory, message: one, nudge_rank: 1}
              rank2: {script: builtin:context-note, posture: advisory, message: two, nudge_rank: 2, as: context}
              unranked: {script: builtin:context-note, message: plain}
              ranked-blocker:
                script: builtin:deny-pattern
                nudge_rank: 4
                patterns: [{match: 'block-me', reason: ranked block}]
              ranked-shadow: {script: builtin:context-note, message: hidden, nudge_rank: 5, posture: shadow}
            platforms:
              claude:
                stop: [rank3, unranked, rank1, rank2, ranked-blocker]
                session_end: [rank3, ranked-shadow]
                pre_compact: [ranked-shadow, unranked]
            """);

    @Test
    void dispatch_rankedNudges_lowestRankWinsWhateverItsPosition() {
        HookEvent e = TestManifests.claudeEvent("Stop", EventName.STOP, "{\"last_assistant_message\":\"done\"}", "/tmp");

        ChainResult r = new Dispatcher(NUDGES, CLOCK, Map.of()).dispatch(e, "");

        assertThat(r.verdict()).isEqualTo(new Verdict(Kind.WARN, null, "plain · one"));
        assertThat(r.outcomes()).filteredOn(o -> o.note() != null && o.note().startsWith("nudge suppressed"))
                .extracting(ConcernOutcome::concern).containsExactly("rank3", "rank2");
    }

    @Test
    void dispatch_rankedConcernBlocks_blockNotSuppressed() {
        HookEvent e = TestManifests.claudeEvent("Stop", EventName.STOP, "{\"last_assistant_message\":\"block-me\"}", "/tmp");

        ChainResult r = new Dispatcher(NUDGES, CLOCK, Map.of()).dispatch(e, "");

        assertThat(r.verdict()).as("the block decides; as in agent-config, warnings are not sent beside it")
                .isEqualTo(new Verdict(Kind.BLOCK, "ranked block", null));
    }

    @Test
    void dispatch_shadowRankedNudge_doesNotWin() {
        HookEvent e = TestManifests.claudeEvent("SessionEnd", EventName.SESSION_END, "{}", "/tmp");

        ChainResult r = new Dispatcher(NUDGES, CLOCK, Map.of()).dispatch(e, "");

        assertThat(r.verdict()).isEqualTo(new Verdict(Kind.WARN, null, "three"));
    }

    @Test
    void dispatch_singleRankedNudgeAndUnranked_bothKept() {
        HookEvent e = TestManifests.claudeEvent("PreCompact", EventName.PRE_COMPACT, "{}", "/tmp");

        ChainResult r = new Dispatcher(NUDGES, CLOCK, Map.of()).dispatch(e, "");

        assertThat(r.verdict()).isEqualTo(new Verdict(Kind.WARN, null, "plain"));
    }

    // ---- built-ins are guarded ----

    /**
     * A built-in whose settings do not parse (an invalid regex the compiler would reject, reaching
     * dispatch through a manifest built without it) cannot be constructed: fail_closed blocks,
     * otherwise it allows with a note naming the failing setting.
     */
    @Test
    void dispatch_builtinErrors_failClosedBlocks_failOpenAllows() {
        ConcernSpec open = new ConcernSpec("broken-open", "builtin:deny-pattern", List.of(), false, Posture.BLOCKING,
                Set.of(), 10_000, false, 0, Map.of("patterns", List.of(Map.of("match", "(unclosed", "reason", "never"))));
        ConcernSpec closed = new ConcernSpec("broken-closed", "builtin:deny-pattern", List.of(), true, Posture.BLOCKING,
                Set.of(), 10_000, false, 0, Map.of("patterns", List.of(Map.of("match", "[unclosed", "reason", "never"))));
        Manifest m = new Manifest("test.yaml", "0", Map.of(), Map.of("broken-open", open, "broken-closed", closed),
                Map.of("claude", Map.of(
                        "user_prompt_submit", Map.of("", List.of("broken-open")),
                        "stop", Map.of("", List.of("broken-open", "broken-closed")))));
        Dispatcher d = new Dispatcher(m, CLOCK, Map.of());

        ChainResult openResult = d.dispatch(TestManifests.claudeEvent("UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
                "{\"prompt\":\"hi\"}", "/tmp"), "");
        ChainResult closedResult = d.dispatch(TestManifests.claudeEvent("Stop", EventName.STOP,
                "{\"last_assistant_message\":\"hi\"}", "/tmp"), "");

        assertThat(openResult.verdict()).isEqualTo(Verdict.NO_OPINION);
        assertThat(openResult.outcomes().get(0).note()).startsWith("cannot be constructed: patterns[0].match: not a valid regular expression")
                .endsWith("; fail-open");
        assertThat(closedResult.verdict().kind()).isEqualTo(Kind.BLOCK);
        assertThat(closedResult.verdict().reason()).startsWith("broken-closed could not run (cannot be constructed: patterns[0].match")
                .endsWith("; fail_closed refuses");
    }

    // ---- the fail_closed check for unreadable payloads ----

    static Stream<Arguments> failClosedBlockerCases() {
        return Stream.of(
                Arguments.of("failClosedBlocking_true", "fail_closed: true\n    posture: blocking", "", true),
                Arguments.of("failClosedSeverityBlocking_true", "fail_closed: true\n    severity: blocking", "", true),
                Arguments.of("failOpenBlocking_false", "fail_closed: false\n    posture: blocking", "", false),
                Arguments.of("failClosedAdvisory_false", "fail_closed: true\n    severity: advisory", "", false),
                Arguments.of("failClosedShadow_false", "fail_closed: true\n    posture: shadow", "", false),
                Arguments.of("failClosedBlocking_droppedForRole_false", "fail_closed: true\n    posture: blocking", "worker", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failClosedBlockerCases")
    void hasFailClosedBlocker_onlyFailClosedBlockingInTheRolesChain(String name, String keys, String role, boolean expected) {
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  other: {script: builtin:context-note}
                  c:
                    script: builtin:context-note
                    %s
                roles:
                  worker:
                    drop: [c]
                platforms:
                  claude:
                    stop: [other, c]
                """.formatted(keys));

        assertThat(new Dispatcher(m, CLOCK, Map.of()).hasFailClosedBlocker("claude", EventName.STOP, role)).isEqualTo(expected);
        assertThat(new Dispatcher(m, CLOCK, Map.of()).hasFailClosedBlocker("claude", EventName.SESSION_END, role)).isFalse();
        assertThat(new Dispatcher(m, CLOCK, Map.of()).hasFailClosedBlocker("cursor", EventName.STOP, role)).isFalse();
    }

    @Test
    void role_wardenVariableFirst_thenAgentConfig_elseDefault() {
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_SESSION_ROLE", "worker", "AGENT_CONFIG_SESSION_ROLE", "reviewer")).role())
                .isEqualTo("worker");
        assertThat(new DispatchRequest.Env(Map.of("AGENT_CONFIG_SESSION_ROLE", "reviewer")).role()).isEqualTo("reviewer");
        assertThat(new DispatchRequest.Env(Map.of("WARDEN_SESSION_ROLE", "", "AGENT_CONFIG_SESSION_ROLE", "reviewer")).role())
                .isEqualTo("reviewer");
        assertThat(new DispatchRequest.Env(Map.of()).role()).isEqualTo(Manifest.DEFAULT_ROLE);
    }
}
