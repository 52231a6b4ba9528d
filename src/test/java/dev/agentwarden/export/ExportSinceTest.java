package dev.agentwarden.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ExportSinceTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-05T08:30:00Z"), ZoneOffset.UTC);
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Test
    void today_isLocalMidnight() {
        assertThat(Instant.ofEpochMilli(ExportSince.parse("today", NOW, PARIS)))
                .isEqualTo(Instant.parse("2026-11-04T23:00:00Z"));
    }

    @Test
    void spans_dates_andInstants() {
        assertThat(ExportSince.parse("1h", NOW, PARIS)).isEqualTo(NOW.millis() - 3_600_000);
        assertThat(ExportSince.parse("30m", NOW, PARIS)).isEqualTo(NOW.millis() - 1_800_000);
        assertThat(ExportSince.parse("7d", NOW, PARIS)).isEqualTo(NOW.millis() - 7 * 86_400_000L);
        assertThat(Instant.ofEpochMilli(ExportSince.parse("2026-11-01", NOW, PARIS)))
                .isEqualTo(Instant.parse("2026-10-31T23:00:00Z"));
        assertThat(Instant.ofEpochMilli(ExportSince.parse("2026-11-05T08:00:00Z", NOW, PARIS)))
                .isEqualTo(Instant.parse("2026-11-05T08:00:00Z"));
    }

    @Test
    void anythingElse_isAClearError() {
        assertThatThrownBy(() -> ExportSince.parse("h", NOW, PARIS)).hasMessageContaining("--since h is not today");
        assertThatThrownBy(() -> ExportSince.parse("-1h", NOW, PARIS)).hasMessageContaining("is not today");
        assertThatThrownBy(() -> ExportSince.parse("2026-13-01", NOW, PARIS)).hasMessageContaining("is not today");
        assertThatThrownBy(() -> ExportSince.parse("99999999d", NOW, PARIS)).hasMessageContaining("too far back");
        assertThatThrownBy(() -> ExportSince.parse(" ", NOW, PARIS)).hasMessageContaining("--since is empty");
    }
}
