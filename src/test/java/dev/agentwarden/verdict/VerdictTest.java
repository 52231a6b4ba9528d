package dev.agentwarden.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.decision.ConcernOutcome;
import dev.agentwarden.verdict.Verdict.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Verdict#combine}: halt > block > ask > warn > allow, and how messages are joined. */
class VerdictTest {

    /** Outcomes written as "KIND:message" ("KIND" alone for no message), in chain order. */
    static Stream<Arguments> combineCases() {
        return Stream.of(
                Arguments.of("noConcerns_noOpinion", List.of(), Kind.ALLOW, null, null),
                Arguments.of("allowOnly_noOpinion", List.of("ALLOW", "ALLOW"), Kind.ALLOW, null, null),
                Arguments.of("allowWithContext_contextKept", List.of("ALLOW:note"), Kind.ALLOW, null, "note"),
                Arguments.of("warn_beatsAllow", List.of("ALLOW", "WARN:w"), Kind.WARN, null, "w"),
                Arguments.of("twoWarnings_joinedWithMiddleDot", List.of("WARN:w1", "ALLOW", "WARN:w2"), Kind.WARN, null, "w1 · w2"),
                Arguments.of("warnAndAllowContext_chainOrder", List.of("ALLOW:note", "WARN:w"), Kind.WARN, null, "note · w"),
                Arguments.of("block_beatsWarn_warningNotSent", List.of("WARN:w", "BLOCK:b"), Kind.BLOCK, "b", null),
                Arguments.of("block_beatsAllow", List.of("BLOCK:b", "ALLOW"), Kind.BLOCK, "b", null),
                Arguments.of("twoBlocks_reasonsJoinedWithMiddleDot", List.of("BLOCK:b1", "WARN:w", "BLOCK:b2"),
                        Kind.BLOCK, "b1 · b2", null),
                Arguments.of("blockWithoutReason_defaultReason", List.of("BLOCK"), Kind.BLOCK, "blocked by hook policy", null),
                Arguments.of("blockWithEmptyReason_defaultReason", List.of("BLOCK:"), Kind.BLOCK, "blocked by hook policy", null),
                Arguments.of("silentBlockAndNamedBlock_onlyNamedReason", List.of("BLOCK", "BLOCK:b2"), Kind.BLOCK, "b2", null),
                Arguments.of("halt_beatsBlock_onlyHaltReasons", List.of("BLOCK:b", "HALT:h", "WARN:w"), Kind.HALT, "h", null),
                Arguments.of("twoHalts_joined", List.of("HALT:h1", "HALT:h2"), Kind.HALT, "h1 · h2", null),
                Arguments.of("haltWithoutReason_defaultReason", List.of("HALT"), Kind.HALT, "blocked by hook policy", null),
                Arguments.of("ask_beatsWarn_warningBecomesContext", List.of("WARN:w", "ASK:a"), Kind.ASK, "a", "w"),
                Arguments.of("block_beatsAsk_onlyBlockReasons", List.of("ASK:a", "BLOCK:b"), Kind.BLOCK, "b", null),
                Arguments.of("twoAsks_reasonsJoined", List.of("ASK:a1", "ALLOW:note", "ASK:a2"), Kind.ASK, "a1 · a2", "note"),
                Arguments.of("askWithoutReason_defaultReason", List.of("ASK"), Kind.ASK, "blocked by hook policy", null),
                Arguments.of("halt_beatsAsk", List.of("ASK:a", "HALT:h"), Kind.HALT, "h", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("combineCases")
    void combine_outcomes_strongestKindWins(String name, List<String> outcomes, Kind kind, String reason, String context) {
        Verdict v = Verdict.combine(outcomes(outcomes));

        assertThat(v).isEqualTo(new Verdict(kind, reason, context));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("combineCases")
    void combine_isIndependentOfWhereAllowsSit(String name, List<String> outcomes, Kind kind, String reason, String context) {
        List<String> padded = new ArrayList<>();
        padded.add("ALLOW");
        for (String o : outcomes) {
            padded.add(o);
            padded.add("ALLOW");
        }

        assertThat(Verdict.combine(outcomes(padded))).isEqualTo(new Verdict(kind, reason, context));
    }

    private static List<ConcernOutcome> outcomes(List<String> specs) {
        List<ConcernOutcome> out = new ArrayList<>();
        int i = 0;
        for (String s : specs) {
            int colon = s.indexOf(':');
            Kind k = Kind.valueOf(colon < 0 ? s : s.substring(0, colon));
            String message = colon < 0 ? null : s.substring(colon + 1);
            out.add(new ConcernOutcome("c" + i++, ConcernResult.allow(), k, message, 0, null));
        }
        return out;
    }
}
