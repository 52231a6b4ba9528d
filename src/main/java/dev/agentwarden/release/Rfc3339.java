package dev.agentwarden.release;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** RFC 3339 timestamps as trust metadata writes them ({@code 2027-01-31T00:00:00Z}). */
public final class Rfc3339 {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");
    private static final Pattern RELATIVE = Pattern.compile("\\+?(\\d{1,6})([dhm])");

    private Rfc3339() {
    }

    /**
     * Reads a full RFC 3339 date-time with seconds and an offset.
     *
     * @throws IllegalArgumentException naming the text when it is not one
     */
    public static Instant parse(String text) {
        if (text == null || !TIMESTAMP.matcher(text).matches()) {
            throw new IllegalArgumentException("not an RFC 3339 timestamp: '" + text + "' (e.g. 2027-01-31T00:00:00Z)");
        }
        try {
            return OffsetDateTime.parse(text.toUpperCase(), DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an RFC 3339 timestamp: '" + text + "': " + e.getMessage(), e);
        }
    }

    /** An RFC 3339 timestamp, or a span after {@code now} such as {@code 365d}, {@code 12h}, {@code 30m}. */
    public static Instant parseOrRelative(String text, Instant now) {
        Matcher m = RELATIVE.matcher(text == null ? "" : text);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            Duration span = switch (m.group(2)) {
                case "d" -> Duration.ofDays(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofMinutes(amount);
            };
            return now.plus(span).truncatedTo(ChronoUnit.SECONDS);
        }
        return parse(text);
    }

    /** The UTC form, e.g. {@code 2027-01-31T00:00:00Z}. */
    public static String format(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant);
    }
}
