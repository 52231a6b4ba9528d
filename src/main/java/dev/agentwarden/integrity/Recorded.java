package dev.agentwarden.integrity;

import java.time.Instant;

/**
 * One accepted event of a session.
 *
 * @param session the evidence session id
 * @param seq     1-based position in the session, contiguous
 * @param at      host time of the event
 * @param event   the event
 */
public record Recorded(String session, long seq, Instant at, IntegrityEvent event) {
}
