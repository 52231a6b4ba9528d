package dev.agentwarden.host;

/** The {@link PayloadTemplate} of each host whose payloads Warden has captured ({@link Host#payloadTemplate}). */
public final class PayloadTemplates {
    private PayloadTemplates() {
    }

    /** The template for a host id, or {@code null} when none is known (a case then gives the whole payload). */
    public static PayloadTemplate forHost(String host) {
        Host h = Hosts.byId(host);
        return h == null ? null : h.payloadTemplate();
    }
}
