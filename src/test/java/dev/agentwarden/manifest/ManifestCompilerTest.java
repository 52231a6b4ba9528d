package dev.agentwarden.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compiling manifests: an agent-config-shaped manifest loads unchanged, and every problem is
 * reported with file, line and key.
 */
class ManifestCompilerTest {

    static String resource(String path) throws IOException {
        try (InputStream in = ManifestCompilerTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static ManifestCompiler.Result compile(String yaml) throws ManifestException {
        return ManifestCompiler.compile("m.yaml", yaml, "0".repeat(64));
    }

    // ---- agent-config compatibility ----

    @Test
    void compile_agentConfigShapedManifest_loadsUnchangedWithoutProblems() throws Exception {
        ManifestCompiler.Result r = compile(resource("/manifest/agent-config-shaped.yaml"));

        assertThat(r.problems()).isEmpty();
        Manifest m = r.manifest();
        assertThat(m.concerns()).hasSize(34);
        assertThat(names(m.chain("claude", EventName.PRE_TOOL_USE, ""))).containsExactly("block-no-verify",
                "block-unauthorized-git", "evidence-independence", "block-kernel-rule-writes", "block-config-weakening",
                "rtk-wrap", "design-slop", "ui-route-nudge", "code-graph-nudge", "reread-guard", "spawn-guard-shadow");
        assertThat(m.chain("claude", EventName.STOP, "")).hasSize(9);
        assertThat(m.chain("claude", EventName.USER_PROMPT_SUBMIT, "")).hasSize(9);
        assertThat(names(m.chain("claude", EventName.SUBAGENT_START, ""))).containsExactly("subagent-ledger");
        assertThat(names(m.chain("cowork", EventName.SUBAGENT_STOP, ""))).containsExactly("subagent-ledger");
    }

    @Test
    void compile_agentConfigConcernKeys_readAsSpecs() throws Exception {
        Manifest m = compile(resource("/manifest/agent-config-shaped.yaml")).manifest();

        ConcernSpec chat = m.concerns().get("chat-history");
        assertThat(chat.script()).isEqualTo("src/scripts/hooks/chat_history_hook.ts");
        assertThat(chat.args()).containsExactly("hook-dispatch");
        assertThat(chat.posture()).isEqualTo(Posture.ADVISORY);
        assertThat(chat.failClosed()).isFalse();
        assertThat(chat.timeoutMs()).isEqualTo(ConcernSpec.DEFAULT_TIMEOUT_MS);
        assertThat(chat.settings()).as("needs_payload_bodies is a known key, not a setting").isEmpty();
        assertThat(m.concerns().get("turn-end-gate").posture()).isEqualTo(Posture.BLOCKING);
        assertThat(m.concerns().get("delegation-nudge").nudgeRank()).isEqualTo(1);
        assertThat(m.concerns().get("skill-route").nudgeRank()).isEqualTo(2);
        assertThat(m.concerns().get("end-review-nudge").skipOnRefusalRetry()).isTrue();
        assertThat(m.concerns().get("chat-history").skipOnRefusalRetry()).isFalse();
        assertThat(m.concerns().get("code-graph-nudge").tools()).containsExactlyInAnyOrder("Grep", "Glob", "Read");
    }

    @Test
    void compile_agentConfigScriptOfNativeConcern_resolvesToBuiltinTwin() throws Exception {
        Manifest m = compile(resource("/manifest/agent-config-shaped.yaml")).manifest();

        ConcernSpec noVerify = m.concerns().get("block-no-verify");
        assertThat(noVerify.script()).isEqualTo("builtin:block-no-verify");
        assertThat(noVerify.failClosed()).isTrue();
        assertThat(noVerify.posture()).isEqualTo(Posture.BLOCKING);
        assertThat(m.concerns().get("block-unauthorized-git").script())
                .as("no twin: stays a command").isEqualTo("src/scripts/hooks/block_unauthorized_git_hook.ts");
    }

    /** The spawn guard resolves to its built-in twin exactly when Warden ships one (issue 3). */
    @Test
    void compile_spawnGuardShadow_twinOnlyWhenShipped() throws Exception {
        ConcernSpec guard = compile(resource("/manifest/agent-config-shaped.yaml")).manifest().concerns().get("spawn-guard-shadow");

        if (Builtins.exists("spawn-guard")) {
            assertThat(guard.script()).isEqualTo("builtin:spawn-guard");
            assertThat(guard.posture()).isEqualTo(Posture.SHADOW);
        } else {
            assertThat(guard.script()).isEqualTo("src/scripts/hooks/spawn_guard_shadow_hook.ts");
            assertThat(guard.posture()).isEqualTo(Posture.ADVISORY);
        }
        assertThat(guard.tools()).containsExactlyInAnyOrder("Agent", "Task");
    }

    @Test
    void compile_agentConfigWorkerRole_dropsEverywhereButPreToolUse() throws Exception {
        Manifest m = compile(resource("/manifest/agent-config-shaped.yaml")).manifest();

        assertThat(names(m.chain("claude", EventName.STOP, "worker"))).containsExactly("chat-history", "hot-context",
                "verify-before-complete", "turn-end-gate", "session-register");
        assertThat(names(m.chain("claude", EventName.USER_PROMPT_SUBMIT, "worker"))).doesNotContain("delegation-nudge", "self-repair");
        assertThat(m.chain("claude", EventName.PRE_TOOL_USE, "worker")).isEqualTo(m.chain("claude", EventName.PRE_TOOL_USE, ""));
        assertThat(m.chain("claude", EventName.STOP, "orchestrator")).as("unknown role: full chain")
                .isEqualTo(m.chain("claude", EventName.STOP, ""));
    }

    @Test
    void compile_agentConfigHosts_aliasesAndChainsPerHost() throws Exception {
        Manifest m = compile(resource("/manifest/agent-config-shaped.yaml")).manifest();

        assertThat(m.canonicalEvent("cursor", "beforeSubmitPrompt")).isEqualTo(EventName.USER_PROMPT_SUBMIT);
        assertThat(m.canonicalEvent("cline", "TaskStart")).isEqualTo(EventName.SESSION_START);
        assertThat(m.canonicalEvent("cline", "TaskResume")).isEqualTo(EventName.SESSION_START);
        assertThat(m.canonicalEvent("cline", "TaskComplete")).isEqualTo(EventName.SESSION_END);
        assertThat(m.canonicalEvent("cline", "TaskCancel")).isEqualTo(EventName.STOP);
        assertThat(m.canonicalEvent("windsurf", "post_cascade_response")).isEqualTo(EventName.STOP);
        assertThat(m.canonicalEvent("gemini", "BeforeTool")).isEqualTo(EventName.PRE_TOOL_USE);
        assertThat(m.canonicalEvent("claude", "SubagentStop")).isEqualTo(EventName.SUBAGENT_STOP);
        assertThat(m.canonicalEvent("claude", "beforeSubmitPrompt")).isNull();
        assertThat(m.canonicalEvent("codex", "PreToolUse")).as("codex's default alias").isEqualTo(EventName.PRE_TOOL_USE);
        assertThat(names(m.chain("gemini", EventName.PRE_TOOL_USE, ""))).containsExactly("block-no-verify");
        assertThat(m.chain("copilot", EventName.PRE_TOOL_USE, "")).as("fallback-only host: no chains").isEmpty();
        assertThat(m.boundNativeEvents("claude")).containsExactly("PostToolUse", "PreCompact", "PreToolUse", "SessionEnd",
                "SessionStart", "Stop", "SubagentStart", "SubagentStop", "UserPromptSubmit");
        assertThat(m.boundNativeEvents("cowork")).doesNotContain("SessionEnd", "PostToolUse", "PreCompact");
    }

    @Test
    void compile_shippedDefaultManifest_clean() throws Exception {
        ManifestLoader.Source s = ManifestLoader.builtinDefault();

        ManifestCompiler.Result r = ManifestCompiler.compile(s.name(), new String(s.bytes(), StandardCharsets.UTF_8), "x");

        assertThat(r.problems()).isEmpty();
        assertThat(names(r.manifest().chain("claude", EventName.PRE_TOOL_USE, ""))).startsWith("block-no-verify");
    }

    // ---- defaults and ours ----

    @Test
    void compile_minimalConcern_defaults() throws Exception {
        ConcernSpec c = compile("schema_version: 1\nconcerns:\n  c: {script: builtin:context-note}\nplatforms: {}\n")
                .manifest().concerns().get("c");

        assertThat(c).isEqualTo(new ConcernSpec("c", "builtin:context-note", List.of(), false, Posture.BLOCKING, Set.of(),
                10_000, false, 0, Map.of()));
    }

    @Test
    void compile_wardenKeysAndSettings_read() throws Exception {
        ConcernSpec c = compile("""
                schema_version: 1
                concerns:
                  c:
                    script: ./hooks/check.sh
                    posture: shadow
                    timeout_ms: 250
                    settings:
                      message: "hi"
                      limits: {max: 3, ratio: 0.5, on: true, none: null}
                      list: [a, 1]
                platforms: {}
                """).manifest().concerns().get("c");

        assertThat(c.posture()).isEqualTo(Posture.SHADOW);
        assertThat(c.timeoutMs()).isEqualTo(250);
        assertThat(c.setting("message", null)).isEqualTo("hi");
        assertThat(Json.write(c.settings().get("limits"))).isEqualTo("{\"max\":3,\"ratio\":0.5,\"on\":true,\"none\":null}");
        assertThat(c.settings().get("list")).isEqualTo(List.of("a", 1L));
    }

    // ---- problems: file, line, key ----

    static Stream<Arguments> problems() {
        return Stream.of(
                Arguments.of("unknownEventInPlatforms", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note}
                        platforms:
                          claude:
                            before_tool: [a]
                        """, 6, "platforms.claude.before_tool", "unknown event 'before_tool'"),
                Arguments.of("unknownEventInAliases", """
                        schema_version: 1
                        concerns: {}
                        platforms: {}
                        native_event_aliases:
                          claude:
                            PreToolUse: pre_tool
                        """, 6, "native_event_aliases.claude.PreToolUse", "unknown event 'pre_tool'"),
                Arguments.of("unknownHostInPlatforms", """
                        schema_version: 1
                        concerns: {}
                        platforms:
                          emacs:
                            stop: []
                        """, 4, "platforms.emacs", "unknown host 'emacs'"),
                Arguments.of("unknownHostInAliases", """
                        schema_version: 1
                        concerns: {}
                        platforms: {}
                        native_event_aliases:
                          vim:
                            Stop: stop
                        """, 5, "native_event_aliases.vim", "unknown host 'vim'"),
                Arguments.of("duplicateConcernName", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note}
                          b: {script: builtin:context-note}
                          a: {script: builtin:deny-pattern}
                        platforms: {}
                        """, 5, "concerns.a", "duplicate key 'a'"),
                Arguments.of("duplicateEventInHost", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note}
                        platforms:
                          claude:
                            stop: [a]
                            stop: []
                        """, 7, "platforms.claude.stop", "duplicate key 'stop'"),
                Arguments.of("duplicateNudgeRank", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note, nudge_rank: 1}
                          b:
                            script: builtin:context-note
                            nudge_rank: 1
                        platforms: {}
                        """, 6, "concerns.b.nudge_rank", "rank 1 already used by 'a'"),
                Arguments.of("failClosedNotBoolean", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            fail_closed: "yes"
                        platforms: {}
                        """, 5, "concerns.a.fail_closed", "must be true or false"),
                Arguments.of("timeoutNotInteger", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            timeout_ms: ten
                        platforms: {}
                        """, 5, "concerns.a.timeout_ms", "must be an integer"),
                Arguments.of("timeoutOutOfRange", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            timeout_ms: 0
                        platforms: {}
                        """, 5, "concerns.a.timeout_ms", "must be between 1 and 600000"),
                Arguments.of("toolsNotList", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            tools: Bash
                        platforms: {}
                        """, 5, "concerns.a.tools", "must be a list of strings"),
                Arguments.of("badSeverity", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            severity: loud
                        platforms: {}
                        """, 5, "concerns.a.severity", "must be advisory or blocking"),
                Arguments.of("badPosture", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            posture: off
                        platforms: {}
                        """, 5, "concerns.a.posture", "must be shadow, advisory or blocking"),
                Arguments.of("nudgeRankNotPositive", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            nudge_rank: 0
                        platforms: {}
                        """, 5, "concerns.a.nudge_rank", "must be a positive integer"),
                Arguments.of("badPayloadBodies", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:context-note
                            needs_payload_bodies: [input, transcript]
                        platforms: {}
                        """, 5, "concerns.a.needs_payload_bodies", "entries are input or result"),
                Arguments.of("scriptMissing", """
                        schema_version: 1
                        concerns:
                          a:
                            fail_closed: true
                        platforms: {}
                        """, 4, "concerns.a.script", "missing script"),
                Arguments.of("scriptNotString", """
                        schema_version: 1
                        concerns:
                          a:
                            script: [x]
                        platforms: {}
                        """, 4, "concerns.a.script", "must be a string"),
                Arguments.of("unknownBuiltin", """
                        schema_version: 1
                        concerns:
                          a:
                            script: builtin:no-such-thing
                        platforms: {}
                        """, 4, "concerns.a.script", "unknown built-in 'no-such-thing'"),
                Arguments.of("schemaVersionTwo", """
                        schema_version: 2
                        concerns: {}
                        platforms: {}
                        """, 1, "schema_version", "must be 1, found 2"),
                Arguments.of("schemaVersionMissing", """
                        concerns: {}
                        platforms: {}
                        """, 0, "schema_version", "missing"),
                Arguments.of("platformsMissing", """
                        schema_version: 1
                        concerns: {}
                        """, 0, "platforms", "missing"),
                Arguments.of("concernsNotMapping", """
                        schema_version: 1
                        concerns: [a, b]
                        platforms: {}
                        """, 2, "concerns", "must be a mapping"),
                Arguments.of("fallbackOnlyNotBoolean", """
                        schema_version: 1
                        concerns: {}
                        platforms:
                          copilot:
                            fallback_only: sometimes
                        """, 5, "platforms.copilot.fallback_only", "must be true or false"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("problems")
    void compile_problem_namesFileLineAndKey(String name, String yaml, int line, String key, String message) throws Exception {
        ManifestCompiler.Result r = compile(yaml);

        assertThat(r.hasErrors()).isTrue();
        assertThat(r.manifest()).as("a fatal problem leaves no manifest").isNull();
        assertThat(r.problems()).anySatisfy(p -> {
            assertThat(p.file()).isEqualTo("m.yaml");
            assertThat(p.line()).isEqualTo(line);
            assertThat(p.key()).isEqualTo(key);
            assertThat(p.message()).contains(message);
            assertThat(p.toString()).startsWith("m.yaml:" + line + ": error: " + key + ": ");
        });
    }

    /**
     * Issue 28 item 12: a mistake in one chain entry (an unknown concern, one listed twice, a role
     * dropping a concern no manifest names) is lint's error at its file:line, and compiles out of
     * the chain alone: the manifest stays usable and the entry is named in {@link Manifest#skipped}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("entryMistakes")
    void compile_chainEntryMistake_isAnErrorThatLeavesTheRestOfTheChain(String name, String yaml, int line, String key,
                                                                        String message, List<String> stop,
                                                                        List<String> skipped) throws Exception {
        ManifestCompiler.Result r = compile(yaml);

        assertThat(r.hasErrors()).isTrue();
        assertThat(r.problems()).anySatisfy(p -> {
            assertThat(p.toString()).startsWith("m.yaml:" + line + ": error: " + key + ": ");
            assertThat(p.message()).contains(message);
            assertThat(p.fatal()).isFalse();
        });
        assertThat(r.manifest()).as("the rest of the manifest stays usable").isNotNull();
        assertThat(r.manifest().chain("claude", EventName.STOP, Manifest.DEFAULT_ROLE))
                .extracting(ConcernSpec::name).isEqualTo(stop);
        assertThat(r.manifest().skipped("claude", EventName.STOP)).isEqualTo(skipped);
    }

    static Stream<Arguments> entryMistakes() {
        return Stream.of(
                Arguments.of("unknownConcernInChain", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note}
                        platforms:
                          claude:
                            stop: [a, ghost]
                        """, 6, "platforms.claude.stop", "unknown concern 'ghost'", List.of("a"),
                        List.of("ghost: unknown concern (line 6)")),
                Arguments.of("concernListedTwice", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note}
                        platforms:
                          claude:
                            stop: [a, a]
                        """, 6, "platforms.claude.stop", "concern 'a' listed twice", List.of("a"),
                        List.of("a: listed twice, runs once (line 6)")),
                Arguments.of("roleDropsUnknownConcern", """
                        schema_version: 1
                        concerns:
                          a: {script: builtin:context-note}
                        roles:
                          worker:
                            drop: [ghost]
                        platforms:
                          claude:
                            stop: [a]
                        """, 6, "roles.worker.drop", "unknown concern 'ghost'", List.of("a"), List.of()));
    }

    static Stream<Arguments> unknownKeys() {
        return Stream.of(
                Arguments.of("unknownTopLevelKey", "schema_version: 1\nconcerns: {}\nplatforms: {}\nplatform: {}\n", 4, "platform",
                        "did you mean `platforms`?"),
                Arguments.of("unknownRoleKey", "schema_version: 1\nconcerns: {}\nroles:\n  worker:\n    dorp: []\nplatforms: {}\n", 5,
                        "roles.worker.dorp", "did you mean `drop`?"),
                Arguments.of("processConcernKeyOutsideSettings",
                        "schema_version: 1\nconcerns:\n  c:\n    script: ./c.sh\n    fail_close: true\nplatforms: {}\n", 5,
                        "concerns.c.fail_close", "did you mean `fail_closed`?"));
    }

    /** Unknown keys were warnings (and a process concern's, silently its settings); now errors with a near miss. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("unknownKeys")
    void compile_unknownKey_isAnErrorWithSuggestion(String name, String yaml, int line, String key, String hint) throws Exception {
        ManifestCompiler.Result r = compile(yaml);

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ManifestProblem.Kind.ERROR);
            assertThat(p.line()).isEqualTo(line);
            assertThat(p.key()).isEqualTo(key);
            assertThat(p.message()).contains(hint);
        });
    }

    /** A built-in with a {@code settings:} block: its settings were silently ignored; now an error saying where they go. */
    @Test
    void compile_builtinWithSettingsBlock_errorSayingSettingsGoAtConcernLevel() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  c:
                    script: builtin:deny-pattern
                    settings: {patterns: [{match: x}]}
                platforms: {}
                """);

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).anySatisfy(p -> {
            assertThat(p.key()).isEqualTo("concerns.c.settings");
            assertThat(p.message()).startsWith("a built-in's settings go at the concern level");
        });
    }

    /** An agent-config manifest's built-in twin with a key Warden's twin does not read: a warning, and the rest loads. */
    @Test
    void compile_agentConfigManifest_twinWithUnknownKey_warning() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  ledger:
                    script: src/scripts/hooks/subagent_ledger_hook.ts
                    flush_every: 10
                platforms:
                  claude:
                    subagent_start: [ledger]
                """);

        assertThat(r.hasErrors()).isFalse();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ManifestProblem.Kind.WARNING);
            assertThat(p.key()).isEqualTo("concerns.ledger.flush_every");
        });
        assertThat(r.manifest().concerns().get("ledger").settings()).isEmpty();
    }

    /** agent-config's own manifests keep loading: an extra concern key there is a warning and a setting. */
    @Test
    void compile_agentConfigManifest_extraConcernKey_warningAndSetting() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  chat:
                    script: src/scripts/hooks/chat_history_hook.ts
                    mode: full
                platforms:
                  claude:
                    stop: [chat]
                """);

        assertThat(r.hasErrors()).isFalse();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ManifestProblem.Kind.WARNING);
            assertThat(p.key()).isEqualTo("concerns.chat.mode");
        });
        assertThat(r.manifest().concerns().get("chat").settings()).containsEntry("mode", "full");
    }

    @Test
    void compile_manyProblems_allReportedAtOnce() throws Exception {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  a:
                    script: builtin:nope
                    fail_closed: maybe
                platforms:
                  claude:
                    stop: [ghost]
                    teatime: [a]
                """);

        assertThat(r.problems()).extracting(ManifestProblem::key).contains("concerns.a.script", "concerns.a.fail_closed",
                "platforms.claude.stop", "platforms.claude.teatime");
    }

    static Stream<Arguments> unreadable() {
        return Stream.of(
                Arguments.of("notYaml", "schema_version: 1\nconcerns: [unclosed\n", 3),
                Arguments.of("topLevelList", "- schema_version: 1\n", 1),
                Arguments.of("scalar", "just text\n", 1),
                Arguments.of("tabIndentation", "schema_version: 1\nconcerns:\n\ta: 1\n", 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void compile_notAManifest_unreadableWithLine(String name, String yaml, int line) {
        assertThatThrownBy(() -> compile(yaml)).isInstanceOfSatisfying(ManifestException.class, e -> {
            assertThat(e.unreadable()).isTrue();
            assertThat(e.problems()).singleElement().satisfies(p -> {
                assertThat(p.line()).isEqualTo(line);
                assertThat(p.toString()).startsWith("m.yaml:" + line + ": error: ");
            });
            assertThat(e.getMessage()).as("short: the problem holds the detail, so it is printed once")
                    .isEqualTo("m.yaml: not a readable manifest");
        });
    }

    @Test
    void compile_emptyDocument_unreadable() {
        assertThatThrownBy(() -> compile("")).isInstanceOfSatisfying(ManifestException.class,
                e -> assertThat(e.unreadable()).isTrue());
    }

    private static List<String> names(List<ConcernSpec> chain) {
        return chain.stream().map(ConcernSpec::name).toList();
    }
}
