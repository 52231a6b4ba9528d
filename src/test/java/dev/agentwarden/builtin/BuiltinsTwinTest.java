package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BuiltinsTwinTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
        "src/scripts/hooks/subagent_ledger_hook.ts, subagent-ledger",
        "src/scripts/hooks/spawn_guard_shadow_hook.ts, spawn-guard",
        "src/scripts/hooks/block_no_verify_hook.ts, block-no-verify",
        "src/scripts/hooks/block_no_verify.ts, block-no-verify",
        "src/scripts/hooks/chat_history.ts, none",
        "scripts/hooks/block_no_verify.ts, none",
        "src/scripts/hooks/block_no_verify.js, none",
    })
    void twinOf_agentConfigScriptPath_resolvesShippedBuiltins(String path, String expected) {
        assertThat(Builtins.twinOf(path)).isEqualTo(expected);
    }
}
