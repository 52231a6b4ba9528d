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
