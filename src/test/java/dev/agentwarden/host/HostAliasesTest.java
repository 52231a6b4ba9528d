package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The npm package and product names users type for a host resolve to its id; near misses name the host meant. */
class HostAliasesTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"claude-code, claude", "copilot-cli, copilot", "gemini-cli, gemini", "qwen-code, qwen",
            "kilo-code, kilo", "kilocode, kilo", "codex-cli, codex", "opencode-ai, opencode", "auggie, augment",
            "cursor-agent, cursor", "claude, claude", "emacs, emacs"})
    void canonical_aliasGivesItsHostId_otherNamesUnchanged(String typed, String id) {
        assertThat(Hosts.canonical(typed)).isEqualTo(id);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"claude-cod, claude", "claudecode, claude", "copilotcli, copilot", "gemini_cli, gemini",
            "qwencode, qwen", "kilo_code, kilo", "claud, claude"})
    void unknown_nearAnAlias_suggestsTheHostIdItStandsFor(String typed, String meant) {
        assertThat(Hosts.unknown(typed)).startsWith("unknown host '" + typed + "'; did you mean `" + meant + "`?");
    }

    @ParameterizedTest
    @CsvSource({"claude-code, claude", "copilot-cli, copilot"})
    void unknown_anAliasWhereOnlyIdsCount_namesTheId(String alias, String id) {
        assertThat(Hosts.unknown(alias)).startsWith("unknown host '" + alias + "'; did you mean `" + id + "`?");
    }

    @ParameterizedTest
    @CsvSource({"emacs", "vim"})
    void unknown_farFromEveryName_noHint(String typed) {
        assertThat(Hosts.unknown(typed)).startsWith("unknown host '" + typed + "'. Known hosts:");
    }

    @org.junit.jupiter.api.Test
    void everyAlias_standsForAHostWithARecord() {
        for (String alias : Hosts.aliases()) {
            assertThat(Hosts.byId(Hosts.canonical(alias))).as(alias).isNotNull();
            assertThat(Hosts.KNOWN).as(alias + " is no host id").doesNotContain(alias);
        }
    }
}
