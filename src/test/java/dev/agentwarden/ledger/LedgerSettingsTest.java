package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LedgerSettingsTest {

    @Test
    void from_empty_givesDefaults() {
        LedgerSettings s = LedgerSettings.from(Map.of());

        assertThat(s.ttlMs()).isEqualTo(86_400_000L);
        assertThat(s.armLabels()).containsExactly("5m", "15m", "30m", "2h");
        assertThat(s.budgetFor("general-purpose")).isNull();
    }

    @Test
    void budgetFor_fallsBackToTheStarBudget() {
        LedgerSettings s = LedgerSettings.from(Map.of("duration_budgets", Map.of("Explore", "5m", "*", "20m")));

        assertThat(s.budgetFor("Explore")).isEqualTo(300_000L);
        assertThat(s.budgetFor("general-purpose")).isEqualTo(1_200_000L);
        assertThat(s.budgetFor(null)).isEqualTo(1_200_000L);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(Map.of("ttl", "0s"), "ttl: must be longer than 0"),
                Arguments.of(Map.of("stop_loss_arms", "5m"), "stop_loss_arms: must be a list"),
                Arguments.of(Map.of("stop_loss_arms", List.of("15m", "5m")), "stop_loss_arms[1]: arms must be strictly ascending"),
                Arguments.of(Map.of("duration_budgets", List.of("5m")), "duration_budgets: must be a mapping"),
                Arguments.of(Map.of("duration_budgets", Map.of("Explore", "soon")), "duration_budgets.Explore: must be a duration"));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void from_invalidValue_namesTheKey(Map<String, Object> settings, String message) {
        assertThatThrownBy(() -> LedgerSettings.from(settings)).hasMessageStartingWith(message);
    }
}
