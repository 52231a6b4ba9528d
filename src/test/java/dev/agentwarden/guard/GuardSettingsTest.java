package dev.agentwarden.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GuardSettingsTest {

    @Test
    void from_empty_givesTheSeedsCandidatesAndTools() {
        GuardSettings s = GuardSettings.from(Map.of());

        assertThat(s.candidates()).extracting(Candidate::label).containsExactly("n2m4", "n3m6", "n4m8");
        assertThat(s.candidates().get(1)).isEqualTo(new Candidate("n3m6", 3, 6));
        assertThat(s.enforced().label()).isEqualTo("n2m4");
        assertThat(s.dispatchTools()).as("none named: each host's own subagent-dispatch tools").isEmpty();
        assertThat(s.sessionScope()).isTrue();
        assertThat(s.ttlMs()).isEqualTo(24 * 3_600_000L);
    }

    @Test
    void from_customCandidates_allowsASingleArm() {
        GuardSettings s = GuardSettings.from(Map.of("candidates", List.of(Map.of("label", "c5", "max_concurrent", 5L)),
                "enforce", "c5", "ttl", "2h"));

        assertThat(s.enforced()).isEqualTo(new Candidate("c5", 0, 5));
        assertThat(s.ttlMs()).isEqualTo(7_200_000L);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(Map.of("candidates", List.of()), "candidates: must be a list of 1 to 16"),
                Arguments.of(Map.of("candidates", List.of(Map.of("label", "x"))), "candidates[0]: needs max_depth or max_concurrent"),
                Arguments.of(Map.of("candidates", List.of(Map.of("label", "x", "max_concurrent", -1L))),
                        "candidates[0].max_concurrent: must be an integer from 1 to 10000, found -1"),
                Arguments.of(Map.of("candidates", List.of(Map.of("label", "x", "max_concurrent", 2L),
                        Map.of("label", "x", "max_depth", 2L))), "candidates[1].label: 'x' is used twice"),
                Arguments.of(Map.of("candidates", List.of(Map.of("label", "x", "max_cuncurrent", 2L))),
                        "candidates[0].max_cuncurrent: unknown key"),
                Arguments.of(Map.of("enforce", "n9m9"), "enforce: 'n9m9' is not a candidate label"),
                Arguments.of(Map.of("dispatch_tools", List.of()), "dispatch_tools: must be a non-empty list"),
                Arguments.of(Map.of("concurrency_scope", "global"), "concurrency_scope: must be session or workspace"),
                Arguments.of(Map.of("ttl", "forever"), "ttl: must be a duration"));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void from_invalidValue_namesTheKey(Map<String, Object> settings, String message) {
        assertThatThrownBy(() -> GuardSettings.from(settings)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message);
    }
}
