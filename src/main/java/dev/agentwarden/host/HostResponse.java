package dev.agentwarden.host;

/**
 * What Warden writes back to a host for one event.
 *
 * @param exitCode process exit code
 * @param stdout   exactly one JSON object, or "" for nothing
 * @param stderr   text for the host's log or user, or ""
 */
public record HostResponse(int exitCode, String stdout, String stderr) {

    public static final HostResponse SILENT = new HostResponse(0, "", "");

    /** What a capped string ends with when Warden cut it. */
    public static final String TRUNCATION_MARKER = " […truncated by warden]";

    /**
     * {@code text} within {@code maxChars} characters, so that the host never spills or clips it:
     * as it is, or cut short and ending with {@link #TRUNCATION_MARKER}.
     */
    public static String capped(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        return text.substring(0, maxChars - TRUNCATION_MARKER.length()) + TRUNCATION_MARKER;
    }

    public HostResponse withStderr(String note) {
        return new HostResponse(exitCode, stdout, stderr.isEmpty() ? note : stderr + "\n" + note);
    }
}
