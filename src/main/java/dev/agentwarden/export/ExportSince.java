package dev.agentwarden.export;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * The lower bound of {@code --since}: {@code today} (local midnight), a span back from now
 * ({@code 90m}, {@code 1h}, {@code 7d}), a local date ({@code 2026-11-05}) or an instant
 * ({@code 2026-11-05T08:30:00Z}).
 */
public final class ExportSince {
    private ExportSince() {
    }

    /** Epoch milliseconds of {@code text} read at {@code clock}'s now in {@code zone}. */
    public static long parse(String text, Clock clock, ZoneId zone) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("--since is empty; give today, 1h, 7d or a date like 2026-11-05");
        }
        String t = text.trim();
        if (t.equals("today")) {
            return LocalDate.now(clock.withZone(zone)).atStartOfDay(zone).toInstant().toEpochMilli();
        }
        char unit = t.charAt(t.length() - 1);
        long unitMs = unit == 'm' ? 60_000L : unit == 'h' ? 3_600_000L : unit == 'd' ? 86_400_000L : 0;
        if (unitMs > 0 && t.length() > 1 && digits(t, t.length() - 1)) {
            if (t.length() > 7) {
                throw new IllegalArgumentException("--since " + t + " reaches too far back");
            }
            return clock.millis() - Long.parseLong(t.substring(0, t.length() - 1)) * unitMs;
        }
        try {
            if (t.length() == 10) {
                return LocalDate.parse(t).atStartOfDay(zone).toInstant().toEpochMilli();
            }
            return Instant.parse(t).toEpochMilli();
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("--since " + t + " is not today, a span like 1h, 30m or 7d, a date like "
                    + "2026-11-05 or an instant like 2026-11-05T08:30:00Z");
        }
    }

    private static boolean digits(String s, int end) {
        for (int i = 0; i < end; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
