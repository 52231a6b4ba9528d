package dev.agentwarden.host;

/** The adapter for each host id in {@link Hosts#ALL}. */
public final class HostAdapters {
    private HostAdapters() {
    }

    /** The adapter for a host id, or {@code null} when Warden has none yet. */
    public static HostAdapter forId(String host) {
        Host h = Hosts.byId(Hosts.canonical(host));
        return h == null ? null : h.adapter();
    }
}
