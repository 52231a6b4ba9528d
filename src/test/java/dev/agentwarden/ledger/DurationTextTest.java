package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationTextTest {

    @ParameterizedTest
    @CsvSource({"5m, 300000", "90s, 90000", "1h30m, 5400000", "24h, 86400000", "250ms, 250", "2d, 172800000"})
    void parse_text_givesMilliseconds(String text, long ms) {
        assertThat(DurationText.parse(text, "k")).isEqualTo(ms);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "5 minutes", "-5m", "m5", "1.5h", "1234567890s", "5mm", "٣m"})
    void parse_notADuration_namesTheKey(String text) {
        assertThatThrownBy(() -> DurationText.parse(text, "ttl")).hasMessageStartingWith("ttl: must be a duration");
    }

    @ParameterizedTest
    @CsvSource({"300000, 5m", "7200000, 2h", "90000, 90s", "5400000, 90m", "1500, 1500ms"})
    void format_givesShortestExactText(long ms, String text) {
        assertThat(DurationText.format(ms)).isEqualTo(text);
    }
}
