package dev.agentwarden.integrity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One accepted event of a session.
 *
 * @param session the evidence session id
 * @param seq     1-based position in the session, contiguous
 * @param at      host time of the event
 * @param event   the event
 */
record Recorded(String session, long seq, Instant at, IntegrityEvent event) {
    /** The seed's ordered event names of {@code events}, without the decision record. */
    static List<String> eventNames(List<Recorded> events) {
        List<String> out = new ArrayList<>();
        for (Recorded r : events) {
            if (r.event().kind() != IntegrityEvent.Kind.DECISION) {
                out.add(r.event().kind().wire());
            }
        }
        return out;
    }

    /** The first event of a type in {@code events}, or {@code null}. */
    static <T extends IntegrityEvent> T find(List<Recorded> events, Class<T> type) {
        for (Recorded r : events) {
            if (type.isInstance(r.event())) {
                return type.cast(r.event());
            }
        }
        return null;
    }
}
