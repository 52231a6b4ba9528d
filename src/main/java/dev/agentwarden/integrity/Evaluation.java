package dev.agentwarden.integrity;

import java.util.List;

/**
 * Both verdict axes and the outcome for one session.
 *
 * @param transport the transport verdict, or {@code null} for SKIP
 * @param release   the release verdict, or {@code null} for SKIP
 * @param decision  the outcome and its reasons
 */
public record Evaluation(IntegrityEvent.TransportVerdict transport, IntegrityEvent.ReleaseVerdict release,
                         IntegrityEvent.Decision decision) {

    public Outcome outcome() {
        return decision.outcome();
    }

    public TransportIntegrity transportValue() {
        return transport == null ? null : transport.value();
    }

    public ReleaseIntegrity releaseValue() {
        return release == null ? null : release.value();
    }

    public List<String> reasons() {
        return decision.reasons();
    }
}
