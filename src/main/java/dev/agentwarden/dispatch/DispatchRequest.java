package dev.agentwarden.dispatch;

import dev.agentwarden.host.Hosts;

/**
 * One dispatch as a transport asks for it: the host, the event (canonical or native; either may be
 * absent when the payload names it), and the manifest and project directory to use instead of the
 * ones found from the payload. {@code warden dispatch} parses its command line into one
 * ({@link #parse}); {@code warden serve} and the resident's HTTP hooks build one from the request.
 */
public record DispatchRequest(String host, String event, String nativeEvent, String manifest, String projectDir) {
    /** The host is kept as its id: an alias ({@code claude-code}) is resolved here ({@link Hosts#canonical}). */
    public DispatchRequest {
        host = Hosts.canonical(host);
    }

    /** The request {@code dispatch --host H [--native-event N] ...} stands for. */
    public static DispatchRequest parse(String[] argv) {
        String host = null;
        String event = null;
        String nativeEvent = null;
        String manifest = null;
        String projectDir = null;
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            String v = i + 1 < argv.length ? argv[i + 1] : null;
            switch (a) {
                case "dispatch":
                    continue;
                case "--host":
                case "--platform":
                    host = v;
                    break;
                case "--event":
                    event = v;
                    break;
                case "--native-event":
                    nativeEvent = v;
                    break;
                case "--manifest":
                    manifest = v;
                    break;
                case "--project-dir":
                    projectDir = v;
                    break;
                default:
                    throw new IllegalArgumentException("unknown dispatch option '" + a + "'");
            }
            if (v == null) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            i++;
        }
        if (host == null) {
            throw new IllegalArgumentException("--host is required");
        }
        return new DispatchRequest(host, event, nativeEvent, manifest, projectDir);
    }
}
