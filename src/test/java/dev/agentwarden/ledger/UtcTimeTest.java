package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UtcTimeTest {
    static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    @ParameterizedTest
    @ValueSource(strings = {"1970-01-01T00:00:00.000Z", "2026-05-04T10:00:00.000Z", "2024-02-29T23:59:59.999Z",
            "2000-03-01T00:00:00.001Z", "1969-12-31T23:59:59.999Z", "2100-12-31T12:30:45.500Z"})
    void iso_matchesJavaTime(String text) {
        long ms = Instant.parse(text).toEpochMilli();

        assertThat(UtcTime.iso(ms)).isEqualTo(text);
        assertThat(UtcTime.month(ms)).isEqualTo(text.substring(0, 7));
    }

    @Test
    void iso_agreesWithJavaTimeAcrossCenturies() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 10_000; i++) {
            long ms = random.nextLong(-2_208_988_800_000L, 7_258_118_400_000L);

            assertThat(UtcTime.iso(ms)).isEqualTo(ISO_MILLIS.format(Instant.ofEpochMilli(ms)));
        }
    }

    @Test
    void parseWritten_readsWrittenFormsInPlace_andLeavesEveryOtherTextToParse() {
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 10_000; i++) {
            String text = UtcTime.iso(random.nextLong(-2_208_988_800_000L, 7_258_118_400_000L));
            byte[] line = ("{\"ts\":\"" + text + "\"}").getBytes(java.nio.charset.StandardCharsets.US_ASCII);

            assertThat(UtcTime.parseWritten(line, 7, 7 + text.length())).as(text).isEqualTo(Instant.parse(text));
        }
        for (String odd : new String[] {"2026-02-29T00:00:00.000Z", "2024-02-30T00:00:00.000Z", "2026-04-31T00:00:00.000Z",
                "2026-08-10T24:00:00.000Z", "2026-08-10T23:60:00.000Z", "2026-08-10T23:59:60.000Z",
                "2026-08-10T10:00:00Z", "2026-8-10T10:00:00.000Z", "2026-08-10T1a:00:00.000Z", "0999-01-01T00:00:00.000Z",
                "2026-08-10T10:00:00.000+01:00", "2026-08-10T10:00:00.000z", "2026-08-10t10:00:00.000Z",
                "2026-08-10T10:00:00.0000Z", "2026-08-10T10:00:00,000Z", "+2026-08-10T10:00:00.00Z"}) {
            byte[] b = odd.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Instant read = UtcTime.parseWritten(b, 0, b.length);
            Object parsed;
            try {
                parsed = UtcTime.parse(odd);
            } catch (java.time.format.DateTimeParseException e) {
                parsed = "refused";
            }
            assertThat(read).as(odd + ": not the written form, or read as parse reads it").isIn(null, parsed);
        }
        byte[] leap = "2024-02-29T23:59:59.999Z".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(UtcTime.parseWritten(leap, 0, leap.length)).isEqualTo(Instant.parse("2024-02-29T23:59:59.999Z"));
    }

    @Test
    void parse_agreesWithInstantParse_onWrittenFormsAndOddOnes() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            String text = UtcTime.iso(random.nextLong(-2_208_988_800_000L, 7_258_118_400_000L));

            assertThat(UtcTime.parse(text)).isEqualTo(Instant.parse(text));
        }
        for (String odd : new String[] {"2026-02-29T00:00:00.000Z", "2024-02-30T00:00:00.000Z", "2026-04-31T00:00:00.000Z",
                "2026-08-10T24:00:00.000Z", "2026-08-10T23:60:00.000Z", "2026-08-10T23:59:60.000Z",
                "2026-08-10T10:00:00Z", "2026-8-10T10:00:00.000Z", "2026-08-10T1a:00:00.000Z", "0999-01-01T00:00:00.000Z",
                "2026-08-10T10:00:00.000+01:00"}) {
            Object expected;
            try {
                expected = Instant.parse(odd);
            } catch (java.time.format.DateTimeParseException e) {
                expected = "refused";
            }
            Object actual;
            try {
                actual = UtcTime.parse(odd);
            } catch (java.time.format.DateTimeParseException e) {
                actual = "refused";
            }
            assertThat(actual).as(odd).isEqualTo(expected);
        }
    }
}
