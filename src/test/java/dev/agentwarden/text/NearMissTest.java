package dev.agentwarden.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NearMissTest {
    private static final List<String> KEYS = List.of("patterns", "posture", "tools", "fail_closed", "message", "as", "ttl");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"pattern,patterns", "postur,posture", "tool,tools", "fail_close,fail_closed", "mesage,message",
            "Patterns,patterns", "ass,as", "tll,ttl", "tlt,ttl"})
    void closest_nearMiss_named(String typed, String expected) {
        assertThat(NearMiss.closest(typed, KEYS)).isEqualTo(expected);
        assertThat(NearMiss.hint(typed, KEYS)).isEqualTo("; did you mean `" + expected + "`?");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"colour", "x", "settings", "agent"})
    void closest_farFromEveryName_none(String typed) {
        assertThat(NearMiss.closest(typed, KEYS)).isNull();
        assertThat(NearMiss.hint(typed, KEYS)).isEmpty();
    }

    @Test
    void closest_untrustedLongInput_notCompared() {
        assertThat(NearMiss.closest("p".repeat(100_000), KEYS)).isNull();
    }
}
