package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenShapeTest {

    @ParameterizedTest
    @CsvSource({"2026-05, true", "2026-12, true", "2026-00, false", "2026-13, false", "2026-5, false",
            "20a6-05, false", "2026_05, false", "2026-05x, false"})
    void isMonth_acceptsOnlyYearDashMonth(String text, boolean month) {
        assertThat(TokenShape.isMonth(text)).isEqualTo(month);
    }

    @ParameterizedTest
    @CsvSource({"0123456789ab, true", "0123456789AB, false", "0123456789a, false", "0123456789abc, false",
            "0123456789ag, false"})
    void isLowerHex_checksLengthAndDigits(String text, boolean hex) {
        assertThat(TokenShape.isLowerHex(text, 12)).isEqualTo(hex);
    }

    @ParameterizedTest
    @CsvSource(value = {"general-purpose|true", "plugin:code-reviewer|true", "a b|true", "é|false", "a;b|false", "a\tb|false",
            "''|false"}, delimiter = '|')
    void isWord_allowsLettersDigitsAndTheGivenPunctuation(String text, boolean word) {
        assertThat(TokenShape.isWord(text, 1, 64, ":- ")).isEqualTo(word);
    }
}
