package dev.agentwarden.ledger;

/**
 * Durations as written in manifest settings: an integer is milliseconds; text is one or more
 * {@code <n><unit>} parts with units {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}
 * ({@code 90s}, {@code 15m}, {@code 1h30m}, {@code 24h}).
 */
public final class DurationText {
    private static final long[] UNIT_MS = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
    private static final String[] UNIT = {"d", "h", "m", "s", "ms"};
    /** Longest duration accepted, about 3000 years; keeps sums far from overflow. */
    private static final long MAX_MS = 100_000_000_000_000L;

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
        long ms = value instanceof String s ? parseText(s.trim()) : -1;
        if (ms >= 0) {
            return ms;
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

    /** Milliseconds of {@code <n><unit>…} text, or -1 when the text is not one. */
    private static long parseText(String s) {
        long total = 0;
        int i = 0;
        if (s.isEmpty()) {
            return -1;
        }
        while (i < s.length()) {
            int start = i;
            long n = 0;
            while (i < s.length() && i - start < 9 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                n = n * 10 + (s.charAt(i++) - '0');
            }
            if (i == start) {
                return -1;
            }
            int unit = unitAt(s, i);
            if (unit < 0) {
                return -1;
            }
            i += UNIT[unit].length();
            total += n * UNIT_MS[unit];
            if (total > MAX_MS) {
                return -1;
            }
        }
        return total;
    }

    /** The index in {@link #UNIT} of the unit starting at {@code i}, or -1. */
    private static int unitAt(String s, int i) {
        if (s.startsWith("ms", i)) {
            return 4;
        }
        if (i < s.length()) {
            switch (s.charAt(i)) {
                case 'd':
                    return 0;
                case 'h':
                    return 1;
                case 'm':
                    return 2;
                case 's':
                    return 3;
                default:
                    return -1;
            }
        }
        return -1;
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
