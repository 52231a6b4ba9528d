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

    public HostResponse withStderr(String note) {
        return new HostResponse(exitCode, stdout, stderr.isEmpty() ? note : stderr + "\n" + note);
    }
}
