package dev.agentwarden.ledger;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as written in manifest settings: an integer is milliseconds; text is one or more
 * {@code <n><unit>} parts with units {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}
 * ({@code 90s}, {@code 15m}, {@code 1h30m}, {@code 24h}).
 */
public final class DurationText {
    private static final Pattern WHOLE = Pattern.compile("(?:\\d{1,9}(?:ms|s|m|h|d))+");
    private static final Pattern PART = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");
    private static final long[] UNIT_MS = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
    private static final String[] UNIT = {"d", "h", "m", "s", "ms"};

    private DurationText() {
    }

    /**
     * Milliseconds of a setting value.
     *
     * @throws IllegalArgumentException naming {@code key} when the value is not a duration
     */
    public static long parse(Object value, String key) {
        if (value instanceof Long n && n >= 0) {
            return n;
        }
        if (value instanceof String s && WHOLE.matcher(s.trim()).matches()) {
            long total = 0;
            Matcher m = PART.matcher(s.trim());
            while (m.find()) {
                long n = Long.parseLong(m.group(1));
                total = Math.addExact(total, Math.multiplyExact(n, UNIT_MS[unitIndex(m.group(2))]));
            }
            return total;
        }
        throw new IllegalArgumentException(key + ": must be a duration such as 90s, 15m, 2h or 24h (or milliseconds), found "
                + (value instanceof String s ? "'" + s + "'" : String.valueOf(value)));
    }

    /** The shortest exact text for milliseconds: {@code 300000} is {@code 5m}, {@code 5400000} is {@code 90m}. */
    public static String format(long ms) {
        if (ms == 0) {
            return "0s";
        }
        for (int i = 0; i < UNIT_MS.length; i++) {
            if (ms % UNIT_MS[i] == 0) {
                return ms / UNIT_MS[i] + UNIT[i];
            }
        }
        return ms + "ms";
    }

    private static int unitIndex(String unit) {
        for (int i = 0; i < UNIT.length; i++) {
            if (UNIT[i].equals(unit)) {
                return i;
            }
        }
        throw new IllegalStateException(unit);
    }

    /** A duration for people: {@code 850ms}, {@code 12.4s}, {@code 10m55s}, {@code 2h05m}. */
    public static String human(long ms) {
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return s / 60 + "m" + String.format(java.util.Locale.ROOT, "%02d", s % 60) + "s";
        }
        return s / 3600 + "h" + String.format(java.util.Locale.ROOT, "%02d", (s % 3600) / 60) + "m";
    }
}
