package dev.agentwarden.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.builtin.Builtins;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How manifests bind and configure the subagent built-ins. */
class SubagentManifestTest {

    static ManifestCompiler.Result compile(String yaml) throws ManifestException {
        return ManifestCompiler.compile("test.yaml", yaml, "0");
    }

    @Test
    void defaultManifest_bindsLedgerAndShadowGuardForClaudeCoworkAndCodex() throws ManifestException {
        ManifestLoader.Source source = ManifestLoader.builtinDefault();
        ManifestCompiler.Result r = compile(new String(source.bytes(), StandardCharsets.UTF_8));

        assertThat(r.problems()).isEmpty();
        for (String host : List.of("claude", "cowork", "codex")) {
            Manifest m = r.manifest();
            assertThat(m.chain(host, EventName.SUBAGENT_START, null)).extracting(ConcernSpec::name).containsExactly("subagent-ledger");
            assertThat(m.chain(host, EventName.SUBAGENT_STOP, null)).extracting(ConcernSpec::name).containsExactly("subagent-ledger");
            List<ConcernSpec> pre = m.chain(host, EventName.PRE_TOOL_USE, null);
            assertThat(pre.get(pre.size() - 1)).satisfies(c -> {
                assertThat(c.name()).isEqualTo("spawn-guard");
                assertThat(c.posture()).isEqualTo(Posture.SHADOW);
                // every host's subagent-dispatch tools: these hosts' among them
                assertThat(c.tools()).contains("Agent", "Task", "spawn_agent");
            });
        }
    }

    @Test
    void agentConfigScripts_mapToTheBuiltinTwins() throws ManifestException {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  subagent-ledger:
                    script: src/scripts/hooks/subagent_ledger_hook.ts
                    args: []
                    fail_closed: false
                    severity: advisory
                  spawn-guard-shadow:
                    script: src/scripts/hooks/spawn_guard_shadow_hook.ts
                    args: []
                    fail_closed: false
                    severity: advisory
                    tools: [Agent, Task]
                platforms:
                  claude:
                    pre_tool_use: [spawn-guard-shadow]
                    subagent_start: [subagent-ledger]
                """);

        assertThat(r.problems()).isEmpty();
        assertThat(Builtins.twinOf("src/scripts/hooks/subagent_ledger_hook.ts")).isEqualTo("subagent-ledger");
        assertThat(r.manifest().concerns().get("subagent-ledger").script()).isEqualTo("builtin:subagent-ledger");
        ConcernSpec guard = r.manifest().concerns().get("spawn-guard-shadow");
        assertThat(guard.script()).isEqualTo("builtin:spawn-guard");
        assertThat(guard.posture()).isEqualTo(Posture.SHADOW);
    }

    @Test
    void invalidSetting_isAnErrorNamingLineAndKey() throws ManifestException {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  spawn-guard:
                    script: builtin:spawn-guard
                    candidates:
                      - {label: a, max_concurrent: 0}
                platforms:
                  claude:
                    pre_tool_use: [spawn-guard]
                """);

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).singleElement().hasToString(
                "test.yaml:5: error: concerns.spawn-guard.candidates[0].max_concurrent: must be an integer from 1 to 10000, found 0 [bad-setting]");
    }

    @Test
    void unknownSetting_isAnErrorWithSuggestion() throws ManifestException {
        ManifestCompiler.Result r = compile("""
                schema_version: 1
                concerns:
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    stop_loss_arm: [5m]
                platforms:
                  claude:
                    subagent_start: [subagent-ledger]
                """);

        assertThat(r.manifest()).isNull();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ManifestProblem.Kind.ERROR);
            assertThat(p.key()).isEqualTo("concerns.subagent-ledger.stop_loss_arm");
            assertThat(p.line()).isEqualTo(5);
            assertThat(p.message()).endsWith("did you mean `stop_loss_arms`?");
        });
    }
}
