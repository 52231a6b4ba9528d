package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.builtin.GitOptionTable.Effect;
import dev.agentwarden.builtin.GitOptionTable.Match;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How {@link GitOptionTable#resolve} reads {@code --long} words; each expectation is what git 2.39.5
 * does with {@code git <cmd> --<word>} (every prefix of every long option of commit, merge, push,
 * pull and rebase was compared with git's "ambiguous option" / "unknown option" answers).
 */
class GitOptionTableTest {

    static Stream<Arguments> words() {
        return Stream.of(
                a("commit", "no-verify", Match.EXACT, Effect.SKIPS_HOOKS),
                a("commit", "no-verif", Match.ABBREVIATION, Effect.SKIPS_HOOKS),
                a("commit", "no-veri", Match.ABBREVIATION, Effect.SKIPS_HOOKS),
                a("commit", "no-ver", Match.AMBIGUOUS, Effect.SKIPS_HOOKS),
                a("commit", "no-v", Match.AMBIGUOUS, Effect.SKIPS_HOOKS),
                a("commit", "verify", Match.EXACT, Effect.RUNS_HOOKS),
                a("commit", "veri", Match.ABBREVIATION, Effect.RUNS_HOOKS),
                a("commit", "ver", Match.AMBIGUOUS, Effect.NONE),
                a("commit", "no-no-verify", Match.EXACT, Effect.RUNS_HOOKS),
                a("commit", "no-verbose", Match.EXACT, Effect.NONE),
                a("commit", "mess", Match.ABBREVIATION, Effect.NONE),
                a("commit", "noverify", Match.UNKNOWN, Effect.NONE),
                a("commit", "no-", Match.AMBIGUOUS, Effect.SKIPS_HOOKS),
                a("push", "no-verif", Match.ABBREVIATION, Effect.SKIPS_HOOKS),
                a("push", "verify", Match.EXACT, Effect.RUNS_HOOKS),
                a("merge", "no-verif", Match.AMBIGUOUS, Effect.SKIPS_HOOKS),
                a("merge", "no-verify-signatures", Match.EXACT, Effect.NONE),
                a("pull", "no-verify", Match.EXACT, Effect.SKIPS_HOOKS),
                a("pull", "verify", Match.EXACT, Effect.RUNS_HOOKS),
                a("pull", "no-verif", Match.AMBIGUOUS, Effect.SKIPS_HOOKS),
                a("rebase", "no-verify", Match.EXACT, Effect.SKIPS_HOOKS),
                a("rebase", "no-stat", Match.EXACT, Effect.NONE),
                a("am", "no-verify", Match.EXACT, Effect.SKIPS_HOOKS));
    }

    @ParameterizedTest(name = "git {0} --{1} -> {2} {3}")
    @MethodSource("words")
    void resolve_readsLikeParseOptions(String subcommand, String word, Match match, Effect effect) {
        GitOptionTable.Resolution r = GitOptionTable.of(subcommand).resolve(word);

        assertThat(r.match).isEqualTo(match);
        assertThat(r.effect()).isEqualTo(effect);
    }

    @ParameterizedTest(name = "git commit --{0} takes a value: {1}")
    @MethodSource("values")
    void resolve_valueTakingOptions_consumeTheNextWord(String word, boolean consumes) {
        assertThat(GitOptionTable.COMMIT.resolve(word).consumesNextWord(false)).isEqualTo(consumes);
    }

    static Stream<Arguments> values() {
        return Stream.of(Arguments.of("message", true), Arguments.of("mess", true), Arguments.of("no-message", false),
                Arguments.of("gpg-sign", false), Arguments.of("untracked-files", false), Arguments.of("trailer", true),
                Arguments.of("amend", false));
    }

    private static Arguments a(String subcommand, String word, Match match, Effect effect) {
        return Arguments.of(subcommand, word, match, effect);
    }
}
