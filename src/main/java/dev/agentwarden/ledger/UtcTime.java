package dev.agentwarden.ledger;

/**
 * UTC calendar arithmetic for ledger timestamps and segment names, computed directly from epoch
 * milliseconds. The dispatch path avoids {@code java.time} formatting, whose formatter tables cost
 * a cold JVM tens of milliseconds to build.
 */
public final class UtcTime {
    private UtcTime() {
    }

    /** ISO-8601 with milliseconds, {@code 2026-05-04T10:00:00.000Z}, as {@code Instant.parse} reads it. */
    public static String iso(long epochMillis) {
        long days = Math.floorDiv(epochMillis, 86_400_000L);
        long msOfDay = Math.floorMod(epochMillis, 86_400_000L);
        long[] ymd = civil(days);
        StringBuilder sb = new StringBuilder(24);
        pad(sb, ymd[0], 4).append('-');
        pad(sb, ymd[1], 2).append('-');
        pad(sb, ymd[2], 2).append('T');
        pad(sb, msOfDay / 3_600_000L, 2).append(':');
        pad(sb, msOfDay / 60_000L % 60, 2).append(':');
        pad(sb, msOfDay / 1000 % 60, 2).append('.');
        pad(sb, msOfDay % 1000, 3).append('Z');
        return sb.toString();
    }

    /**
     * {@code Instant.parse(text)}, without the formatter for the form {@link #iso} writes
     * ({@code 2026-05-04T10:00:00.000Z}, a valid date, no leap second); any other text goes to
     * {@code Instant.parse}, which decides.
     *
     * @throws java.time.format.DateTimeParseException as {@code Instant.parse} does
     */
    public static java.time.Instant parse(String text) {
        if (text.length() == 24 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T'
                && text.charAt(13) == ':' && text.charAt(16) == ':' && text.charAt(19) == '.' && text.charAt(23) == 'Z') {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 2);
            int day = digits(text, 8, 2);
            int hour = digits(text, 11, 2);
            int minute = digits(text, 14, 2);
            int second = digits(text, 17, 2);
            int milli = digits(text, 20, 3);
            java.time.Instant at = instant(year, month, day, hour, minute, second, milli);
            if (at != null) {
                return at;
            }
        }
        return java.time.Instant.parse(text);
    }

    /**
     * {@link #parse} of the ASCII text {@code b[from, to)} when it is in the form {@link #iso} writes
     * (a valid date, no leap second), read in place; {@code null} for any other text, which the
     * caller gives to {@link #parse} as a string.
     */
    public static java.time.Instant parseWritten(byte[] b, int from, int to) {
        if (to - from != 24 || b[from + 4] != '-' || b[from + 7] != '-' || b[from + 10] != 'T' || b[from + 13] != ':'
                || b[from + 16] != ':' || b[from + 19] != '.' || b[from + 23] != 'Z') {
            return null;
        }
        int year = digits(b, from, 4);
        int month = digits(b, from + 5, 2);
        int day = digits(b, from + 8, 2);
        int hour = digits(b, from + 11, 2);
        int minute = digits(b, from + 14, 2);
        int second = digits(b, from + 17, 2);
        int milli = digits(b, from + 20, 3);
        return instant(year, month, day, hour, minute, second, milli);
    }

    /** The instant of these fields read from the written form; {@code null} when they name no valid time (or a leap second). */
    private static java.time.Instant instant(int year, int month, int day, int hour, int minute, int second, int milli) {
        if (year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= monthLength(year, month)
                && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59
                && milli >= 0) {
            long days = daysFromCivil(year, month, day);
            return java.time.Instant.ofEpochSecond(days * 86_400L + hour * 3600L + minute * 60L + second,
                    milli * 1_000_000L);
        }
        return null;
    }

    /** The decimal value of {@code n} ASCII digits at {@code b[from]}, or -1 when one is not a digit. */
    private static int digits(byte[] b, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static int monthLength(int year, int month) {
        if (month == 2) {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** The decimal value of {@code n} digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(String s, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    private static long daysFromCivil(long y, long m, long d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    /** The month, {@code 2026-05}, which names the ledger segment. */
    public static String month(long epochMillis) {
        long[] ymd = civil(Math.floorDiv(epochMillis, 86_400_000L));
        StringBuilder sb = new StringBuilder(7);
        pad(sb, ymd[0], 4).append('-');
        return pad(sb, ymd[1], 2).toString();
    }

    /** Year, month, day of a day count since 1970-01-01 (proleptic Gregorian; H. Hinnant's civil_from_days). */
    private static long[] civil(long days) {
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        return new long[] {year, month, day};
    }

    private static StringBuilder pad(StringBuilder sb, long value, int width) {
        String s = Long.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s);
    }
}
