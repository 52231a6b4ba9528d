package dev.agentwarden.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReadProgressTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final MutableClock clock = MutableClock.at("2026-12-01T12:00:00Z");

    private String err() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void longRead_stderrNotATerminal_printsNothing() {
        ReadProgress p = new ReadProgress("warden ledger verify: walking the chain", false, err, clock);
        p.expect(100 << 20);
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(1));
            p.read(10 << 20);
        }
        p.finish();

        assertThat(err()).isEmpty();
    }

    @Test
    void readOnATerminal_shortOfOneSecond_printsNothing() {
        ReadProgress p = new ReadProgress("reading", true, err, clock);
        p.expect(100 << 20);
        clock.advance(Duration.ofMillis(1000));
        p.read(50 << 20);
        p.finish();

        assertThat(err()).isEmpty();
    }

    @Test
    void readOnATerminal_longerThanOneSecond_showsOneLineRedrawnInPlace_thenErasesIt() {
        ReadProgress p = new ReadProgress("reading", true, err, clock);
        p.expect(100 << 20);
        clock.advance(Duration.ofMillis(1500));
        p.read(25 << 20);
        String first = err();
        clock.advance(Duration.ofMillis(100));
        p.read(25 << 20);
        String throttled = err();
        clock.advance(Duration.ofMillis(500));
        p.read(25 << 20);
        String second = err();
        p.finish();

        assertThat(first).isEqualTo("\rreading [#####---------------] 25% (25 of 100 MB, 1.5 s)");
        assertThat(throttled).isEqualTo(first);
        assertThat(second.substring(first.length())).isEqualTo("\rreading [###############-----] 75% (75 of 100 MB, 2.1 s)");
        assertThat(err()).doesNotContain("\n").endsWith("\r" + " ".repeat(first.length() - 1) + "\r");
    }
}
