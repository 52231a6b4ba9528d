package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.verdict.Verdict;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.json.Json;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Process concerns run by {@link ExternalConcern}: exit-code meanings, stdout forms, the timeout,
 * the output cap, and every way a script can fail to run. Timeouts here only prove that nothing
 * hangs; no assertion depends on how fast something is.
 */
class ExternalConcernTest {
    /** Generous bound for a run that must not hang (the scripts below sleep far longer). */
    private static final Duration NO_HANG = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static final byte[] ENVELOPE = "{\"schema_version\":1}".getBytes(StandardCharsets.UTF_8);

    // ---- exit codes and stdout forms (pure) ----

    static Stream<Arguments> interpretCases() {
        return Stream.of(
                Arguments.of("exit0_noOutput_allow", 0, "", "", Decision.ALLOW, null, null),
                // agent-config: a concern that exits 0 emits nothing
                Arguments.of("exit0_jsonContext_emitsNothing", 0, "{\"additional_context\":\"note\"}", "",
                        Decision.ALLOW, null, null),
                Arguments.of("exit0_jsonContextKey_emitsNothing", 0, "{\"context\":\"note\"}", "",
                        Decision.ALLOW, null, null),
                Arguments.of("exit0_plainText_emitsNothing", 0, "just text\n", "", Decision.ALLOW, null, null),
                Arguments.of("exit1_jsonReason_block", 1, "{\"decision\":\"block\",\"reason\":\"nope\"}", "",
                        Decision.BLOCK, "nope", null),
                Arguments.of("exit1_reasonAndContext_joinedByBlankLine", 1,
                        "{\"reason\":\"nope\",\"additional_context\":\"why\"}", "", Decision.BLOCK, "nope\n\nwhy", null),
                Arguments.of("exit1_plainText_isNotTheMessage", 1, "  refused: secrets  \n", "", Decision.BLOCK, null, null),
                Arguments.of("exit1_plainTextAndStderr_stderrIsTheMessage", 1, "refused: secrets", "from stderr",
                        Decision.BLOCK, "from stderr", null),
                Arguments.of("exit1_noStdout_stderrIsReason", 1, "", "from stderr\n", Decision.BLOCK, "from stderr", null),
                Arguments.of("exit1_nothing_blockWithoutReason", 1, "", "", Decision.BLOCK, null, null),
                Arguments.of("exit1_brokenJson_isNotTheMessage", 1, "{\"reason\": \"unterminated", "",
                        Decision.BLOCK, null, null),
                Arguments.of("exit1_jsonEmptyReason_fallsBackToStderr", 1, "{\"reason\":\"\"}", "err text",
                        Decision.BLOCK, "err text", null),
                Arguments.of("exit1_jsonWhitespaceReason_fallsBackToStderr", 1, "{\"reason\":\"  \"}", "err text",
                        Decision.BLOCK, "err text", null),
                Arguments.of("exit1_jsonArray_isNotTheMessage", 1, "[1,2]", "e", Decision.BLOCK, "e", null),
                Arguments.of("exit0_decisionBlockInStdout_exitCodeDecides", 0, "{\"decision\":\"block\",\"reason\":\"r\"}",
                        "", Decision.ALLOW, null, null),
                Arguments.of("exit2_plainText_warnWithoutMessage", 2, "heads up", "", Decision.WARN, null, null),
                Arguments.of("exit2_stderr_warn", 2, "", "heads up", Decision.WARN, "heads up", null),
                Arguments.of("exit2_jsonContextOnly_warnMessageIsContext", 2, "{\"additional_context\":\"fyi\"}", "",
                        Decision.WARN, "fyi", null),
                Arguments.of("exit3_error", 3, "x", "y", Decision.ERROR, "exit code 3: y", null),
                Arguments.of("exit42_errorWithoutMessage", 42, "", "", Decision.ERROR, "exit code 42", null),
                Arguments.of("exit127_commandNotFound_error", 127, "", "sh: foo: not found", Decision.ERROR,
                        "exit code 127: sh: foo: not found", null),
                Arguments.of("exit137_killedBySignal_error", 137, "", "", Decision.ERROR, "exit code 137", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpretCases")
    void interpret_exitCodeAndOutput_mapToDecision(String name, int exit, String stdout, String stderr,
                                                   Decision decision, String reason, String context) {
        ConcernResult r = ExternalConcern.interpret(exit, stdout, stderr, false);

        assertThat(r.decision()).isEqualTo(decision);
        assertThat(r.reason()).isEqualTo(reason);
        assertThat(r.context()).isEqualTo(context);
    }

    @Test
    void interpret_plainTextOver500Chars_clipped() {
        ConcernResult r = ExternalConcern.interpret(1, "", "x".repeat(5000), false);

        assertThat(r.reason()).hasSize(ExternalConcern.RAW_TEXT_CHARS);
    }

    @Test
    void interpret_overflowed_saysOutputWasDropped() {
        ConcernResult r = ExternalConcern.interpret(2, "", "warned", true);

        assertThat(r.reason()).isEqualTo("warned [output over 65536 bytes dropped]");
    }

    // ---- real processes ----

    @Test
    void run_exitCodes_fromRealProcess() throws IOException {
        for (int exit : new int[] {0, 1, 2, 3}) {
            Path s = script("exit" + exit + ".sh", "cat > /dev/null\necho 'said " + exit + "' >&2\nexit " + exit);
            ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of());
            Decision expected = switch (exit) {
                case 0 -> Decision.ALLOW;
                case 1 -> Decision.BLOCK;
                case 2 -> Decision.WARN;
                default -> Decision.ERROR;
            };
            assertThat(r.decision()).as("exit %d", exit).isEqualTo(expected);
            if (exit == 0) {
                assertThat(r.reason() == null && r.context() == null).as("exit 0 emits nothing").isTrue();
            } else {
                assertThat(r.reason()).as("exit %d", exit).contains("said " + exit);
            }
        }
    }

    @Test
    void run_jsonStdout_readsReasonAndContext() throws IOException {
        Path s = script("json.sh", "printf '{\"decision\":\"block\",\"reason\":\"r\\\\u00e9\",\"additional_context\":\"c\"}'\nexit 1");

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.BLOCK);
        assertThat(r.reason()).isEqualTo("ré\n\nc");
    }

    @Test
    void run_sleepsPastTimeout_killedWithDescendants_error() throws Exception {
        Path s = script("sleepy.sh", "echo $$ > sh.pid\nsleep 300 &\necho $! > child.pid\nwait");

        ConcernResult r = assertTimeoutPreemptively(NO_HANG,
                () -> ExternalConcern.run(spec(s, 300), dir, ENVELOPE, null, Map.of()));

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).isEqualTo("timeout after 300 ms");
        for (String pidFile : List.of("sh.pid", "child.pid")) {
            long pid = Long.parseLong(Files.readString(dir.resolve(pidFile)).strip());
            ProcessHandle.of(pid).ifPresent(h -> {
                try {
                    h.onExit().get(NO_HANG.toSeconds(), TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new AssertionError(pidFile + " " + pid + " still running after the timeout", e);
                }
            });
        }
    }

    /**
     * Regression: the envelope was written to the child's stdin before the timeout started, so a
     * concern that never read its stdin blocked Warden on a full pipe for as long as it lived (a
     * payload over the pipe buffer, ~64 KiB, is an ordinary PostToolUse).
     */
    @Test
    void blockingStdinWrite_largeEnvelopeUnread_timeoutStillApplies() throws Exception {
        Path s = script("ignores-stdin.sh", "sleep 300");
        byte[] big = ("{\"payload\":\"" + "a".repeat(1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);

        ConcernResult r = assertTimeoutPreemptively(NO_HANG,
                () -> ExternalConcern.run(spec(s, 300), dir, big, null, Map.of()));

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).isEqualTo("timeout after 300 ms");
    }

    @Test
    void run_largeEnvelopeUnreadButQuickExit_usesExitCode() throws Exception {
        Path s = script("quick.sh", "echo fine >&2\nexit 2");
        byte[] big = ("{\"payload\":\"" + "a".repeat(1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);

        ConcernResult r = assertTimeoutPreemptively(NO_HANG,
                () -> ExternalConcern.run(spec(s, 10_000), dir, big, null, Map.of()));

        assertThat(r.decision()).isEqualTo(Decision.WARN);
        assertThat(r.reason()).isEqualTo("fine");
    }

    @Test
    void run_crashExit3_error() throws IOException {
        Path s = script("crash.sh", "echo 'Traceback: boom' >&2\nexit 3");

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).isEqualTo("exit code 3: Traceback: boom");
    }

    @Test
    void run_killedBySignal_error() throws IOException {
        Path s = script("killed.sh", "kill -9 $$");

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).isEqualTo("exit code 137");
    }

    @Test
    void run_missingScript_scriptNotFound() {
        ConcernResult r = ExternalConcern.run(spec(dir.resolve("nope.sh"), 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).startsWith("script_not_found: ").contains("nope.sh");
    }

    @Test
    void run_notExecutable_permissionDenied() throws IOException {
        Path s = script("plain.sh", "exit 1");
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rw-r--r--"));

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).startsWith("permission_denied: ").endsWith("is not executable");
    }

    @Test
    void run_missingInterpreter_executionFailed() throws IOException {
        Path s = dir.resolve("bad-shebang.sh");
        WardenProcess.writeScript(s, "#!/nonexistent/interpreter\nexit 1\n", "rwxr-xr-x");

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).startsWith("execution_failed: ");
    }

    @Test
    void run_directoryAsScript_error() throws IOException {
        Files.createDirectories(dir.resolve("adir"));

        ConcernResult r = ExternalConcern.run(spec(dir.resolve("adir"), 10_000), dir, ENVELOPE, null, Map.of());

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
    }

    @Test
    void run_hugeOutputThenExit_cappedAndNotHung() throws Exception {
        Path s = script("loud.sh", "head -c 20000000 /dev/zero | tr '\\000' e\nhead -c 5000000 /dev/zero | tr '\\000' a >&2\nexit 1");

        ConcernResult r = assertTimeoutPreemptively(NO_HANG,
                () -> ExternalConcern.run(spec(s, 20_000), dir, ENVELOPE, null, Map.of()));

        assertThat(r.decision()).isEqualTo(Decision.BLOCK);
        assertThat(r.reason()).isEqualTo("a".repeat(ExternalConcern.RAW_TEXT_CHARS)
                + " [output over " + ExternalConcern.OUTPUT_CAP_BYTES + " bytes dropped]");
    }

    @Test
    void run_endlessOutput_timesOutInsteadOfHanging() throws Exception {
        Path s = script("endless.sh", "exec yes warden");

        ConcernResult r = assertTimeoutPreemptively(NO_HANG,
                () -> ExternalConcern.run(spec(s, 500), dir, ENVELOPE, null, Map.of()));

        assertThat(r.decision()).isEqualTo(Decision.ERROR);
        assertThat(r.reason()).isEqualTo("timeout after 500 ms");
    }

    @Test
    void run_backgroundChildHoldsStdout_returnsAfterExit() throws Exception {
        Path s = script("daemonizes.sh", "sleep 300 &\necho $! > child.pid\necho leaving\nexit 2");

        try {
            ConcernResult r = assertTimeoutPreemptively(NO_HANG,
                    () -> ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null, Map.of()));

            assertThat(r.decision()).isEqualTo(Decision.WARN);
        } finally {
            long pid = Long.parseLong(Files.readString(dir.resolve("child.pid")).strip());
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void run_argsCwdAndEnv_passedToProcess() throws IOException {
        Path s = script("introspect.sh",
                "printf '%s|' \"$@\" > args.txt\npwd > cwd.txt\nprintf '%s %s' \"$WARDEN_CONCERN\" \"$WARDEN_EVENT\" > env.txt");
        ConcernSpec spec = TestManifests.spec("script: " + s + "\nargs: [--mode, 'two words']");

        ConcernResult r = ExternalConcern.run(spec, dir, ENVELOPE, null, Map.of("WARDEN_CONCERN", "c", "WARDEN_EVENT", "stop"));

        assertThat(r.decision()).isEqualTo(Decision.ALLOW);
        assertThat(Files.readString(dir.resolve("args.txt"))).isEqualTo("--mode|two words|");
        assertThat(Path.of(Files.readString(dir.resolve("cwd.txt")).strip()).toRealPath()).isEqualTo(dir.toRealPath());
        assertThat(Files.readString(dir.resolve("env.txt"))).isEqualTo("c stop");
    }

    @Test
    void run_nullBaseEnv_inheritsThisJvmsEnvironment_extraEnvOnTop() throws IOException {
        Path s = script("envdump.sh", EnvDump.SCRIPT);
        Map<String, String> expected = new HashMap<>(System.getenv());
        expected.remove("PWD");
        expected.put("WARDEN_CONCERN", "c");
        expected.put("EXTRA", "on top");

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, null,
                Map.of("WARDEN_CONCERN", "c", "EXTRA", "on top"));

        assertThat(r.decision()).isEqualTo(Decision.ALLOW);
        assertThat(EnvDump.read(dir)).isEqualTo(expected);
    }

    @Test
    void run_baseEnv_replacesThisJvmsEnvironment_extraEnvOnTop() throws IOException {
        Path s = script("envdump.sh", EnvDump.SCRIPT);
        Map<String, String> base = Map.of("ONLY_IN_BASE", "base value", "WARDEN_CONCERN", "replaced", "EMPTY", "");

        ConcernResult r = ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, base,
                Map.of("WARDEN_CONCERN", "c", "EXTRA", "on top"));

        assertThat(r.decision()).isEqualTo(Decision.ALLOW);
        assertThat(EnvDump.read(dir)).isEqualTo(Map.of("ONLY_IN_BASE", "base value", "EMPTY", "", "WARDEN_CONCERN", "c",
                "EXTRA", "on top"));
        assertThat(base).as("the caller's map is left as it was").containsEntry("WARDEN_CONCERN", "replaced");
    }

    @Test
    void run_emptyBaseEnv_childGetsOnlyExtraEnv() throws IOException {
        Path s = script("envdump.sh", EnvDump.SCRIPT);

        ExternalConcern.run(spec(s, 10_000), dir, ENVELOPE, Map.of(), Map.of("WARDEN_EVENT", "stop"));

        assertThat(EnvDump.read(dir)).isEqualTo(Map.of("WARDEN_EVENT", "stop"));
    }

    @Test
    void run_relativeScript_resolvedAgainstWorkspaceRoot() throws IOException {
        Files.createDirectories(dir.resolve("hooks"));
        Path s = script("hooks/rel.sh", "echo relative >&2\nexit 2");

        ConcernResult r = ExternalConcern.run(TestManifests.spec("script: hooks/rel.sh"), dir, ENVELOPE, null, Map.of());

        assertThat(s).exists();
        assertThat(r.decision()).isEqualTo(Decision.WARN);
        assertThat(r.reason()).isEqualTo("relative");
    }

    // ---- the envelope, through the dispatcher ----

    @Test
    void dispatch_processConcern_receivesAgentConfigEnvelope() throws IOException {
        script("capture.sh", "cat > envelope.json");
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  capture:
                    script: capture.sh
                    fail_closed: false
                    settings:
                      pattern_file: rules.txt
                      limits: {max: 3, ratio: 0.5, names: [a, b]}
                platforms:
                  claude:
                    pre_tool_use: [capture]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """);
        String raw = "{ \"session_id\" : \"s-1\",\"hook_event_name\":\"PreToolUse\",  \"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"ls\"},\"z\":\"\\u00e9\\n\",\"n\":1.50,\"big\":12345678901234567890 }\n";
        HookEvent event = TestManifests.claudeEvent("PreToolUse", EventName.PRE_TOOL_USE, raw, dir.toString());

        new Dispatcher(m, Clock.systemUTC(), Map.of()).dispatch(event, Manifest.DEFAULT_ROLE);

        String text = Files.readString(dir.resolve("envelope.json"), StandardCharsets.UTF_8);
        Map<String, Object> envelope = Json.parseObject(text);
        assertThat(envelope.keySet()).containsExactly("schema_version", "platform", "event", "native_event",
                "session_id", "workspace_root", "payload", "settings");
        assertThat(envelope).containsEntry("schema_version", 1L).containsEntry("platform", "claude")
                .containsEntry("event", "pre_tool_use").containsEntry("native_event", "PreToolUse")
                .containsEntry("session_id", "s-1").containsEntry("workspace_root", dir.toString());
        assertThat(text).as("payload spliced verbatim").contains("\"payload\":" + raw.strip() + ",\"settings\":");
        assertThat(Json.write(envelope.get("settings")))
                .isEqualTo("{\"pattern_file\":\"rules.txt\",\"limits\":{\"max\":3,\"ratio\":0.5,\"names\":[\"a\",\"b\"]}}");
    }

    @Test
    void dispatch_timeout_failClosedRefuses_failOpenAllows() throws Exception {
        script("slow.sh", "exec sleep 300");
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  slow-closed: {script: slow.sh, timeout_ms: 300, fail_closed: true}
                  slow-open: {script: slow.sh, timeout_ms: 300, fail_closed: false}
                platforms:
                  claude:
                    stop: [slow-closed]
                    user_prompt_submit: [slow-open]
                """);
        Dispatcher d = new Dispatcher(m, Clock.systemUTC(), Map.of());

        ChainResult closed = assertTimeoutPreemptively(NO_HANG, () -> d.dispatch(
                TestManifests.claudeEvent("Stop", EventName.STOP, "{\"stop_hook_active\":false}", dir.toString()), ""));
        ChainResult open = assertTimeoutPreemptively(NO_HANG, () -> d.dispatch(
                TestManifests.claudeEvent("UserPromptSubmit", EventName.USER_PROMPT_SUBMIT, "{\"prompt\":\"hi\"}", dir.toString()), ""));

        assertThat(closed.verdict()).isEqualTo(Verdict.block("slow-closed could not run (timeout after 300 ms); fail_closed refuses"));
        assertThat(closed.outcomes().get(0).note()).isEqualTo("timeout after 300 ms; fail-closed");
        assertThat(open.verdict()).isEqualTo(Verdict.NO_OPINION);
        assertThat(open.outcomes().get(0).note()).isEqualTo("timeout after 300 ms; fail-open");
    }

    @Test
    void dispatch_noSessionId_envelopeSessionIdEmpty() throws IOException {
        script("capture.sh", "cat > envelope.json");
        Manifest m = TestManifests.compile("""
                schema_version: 1
                concerns:
                  capture: {script: capture.sh}
                platforms:
                  claude:
                    stop: [capture]
                """);
        HookEvent event = TestManifests.claudeEvent("Stop", EventName.STOP, "{\"stop_hook_active\":false}", dir.toString());

        new Dispatcher(m, Clock.systemUTC(), Map.of()).dispatch(event, Manifest.DEFAULT_ROLE);

        Map<String, Object> envelope = Json.parseObject(Files.readString(dir.resolve("envelope.json")));
        assertThat(envelope).containsEntry("session_id", "").containsEntry("event", "stop")
                .containsEntry("settings", Map.of());
    }

    private Path script(String name, String body) throws IOException {
        Path s = dir.resolve(name);
        WardenProcess.writeScript(s, "#!/bin/sh\n" + body + "\n", "rwxr-xr-x");
        return s;
    }

    private static ConcernSpec spec(Path script, int timeoutMs) {
        return TestManifests.spec("script: '" + script + "'\ntimeout_ms: " + timeoutMs);
    }

    @Test
    void updatedInput_onExit0_rewrites_andAnythingButAnObjectIsAnError() {
        ConcernResult r = ExternalConcern.interpret(0, "{\"updated_input\":{\"command\":\"ls -la\"},\"reason\":\"listed\"}", "", false);
        assertThat(r.decision()).isEqualTo(Decision.ALLOW);
        assertThat(r.updatedInput()).isEqualTo(java.util.Map.of("command", "ls -la"));
        assertThat(r.reason()).isEqualTo("listed");

        ConcernResult bad = ExternalConcern.interpret(0, "{\"updated_input\":\"ls\"}", "", false);
        assertThat(bad.decision()).isEqualTo(Decision.ERROR);
        assertThat(bad.reason()).contains("updated_input is not a JSON object");

        ConcernResult refused = ExternalConcern.interpret(1, "{\"updated_input\":{\"command\":\"ls\"}}", "", false);
        assertThat(refused.updatedInput()).as("only an allow rewrites").isNull();
    }
}
