package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Accepts one session's events only in the frozen order: selection, read, attach, transport,
 * release, decision. Each event must take a later slot than the one before, so a duplicate or an
 * out-of-order event is refused; a skipped slot is allowed because a missing event is itself
 * evidence (it resolves to UNKNOWN). Nothing may follow {@code agent_not_selected} except its
 * decision, and nothing may follow a decision.
 *
 * <p>Live hosts call {@link #record}, which stamps the next sequence number and the clock's time;
 * replays of an evidence log call {@link #accept}, which also requires the recorded sequence numbers
 * to run 1, 2, 3, … without gaps.
 */
final class Recorder {
    /** Receives every event the moment it is accepted (typically the evidence log). */
    public interface Sink {
        void accept(Recorded recorded) throws java.io.IOException;
    }

    private final String session;
    private final Clock clock;
    private final Sink sink;
    private final List<Recorded> events = new ArrayList<>();

    public Recorder(String session, Clock clock, Sink sink) {
        this.session = session;
        this.clock = clock;
        this.sink = sink;
    }

    /** A recorder that only validates (for replays). */
    static Recorder replay(String session) {
        return new Recorder(session, null, null);
    }

    public String session() {
        return session;
    }

    /**
     * Accepts a live event, stamping sequence and time, and hands it to the sink.
     *
     * @throws IntegrityException when the event breaks the order or carries invalid evidence
     * @throws java.io.IOException when the sink cannot persist it (the event stays accepted in memory)
     */
    public Recorded record(IntegrityEvent event) throws java.io.IOException {
        Recorded r = new Recorded(session, events.size() + 1L, clock.instant(), event);
        admit(r);
        if (sink != null) {
            sink.accept(r);
        }
        return r;
    }

    /**
     * Accepts a replayed event.
     *
     * @throws IntegrityException with {@code sequence_gap}, {@code sequence_not_monotonic},
     *                            {@code event_duplicate}, {@code event_out_of_order}, … when refused
     */
    public void accept(Recorded r) {
        if (!session.equals(r.session())) {
            throw new IntegrityException("session_mismatch", "event of session " + r.session() + " offered to " + session);
        }
        long expected = events.size() + 1L;
        if (r.seq() < expected) {
            throw new IntegrityException("sequence_not_monotonic", "seq " + r.seq() + " after seq " + (expected - 1));
        }
        if (r.seq() > expected) {
            throw new IntegrityException("sequence_gap", "seq " + r.seq() + " where " + expected + " was due");
        }
        admit(r);
    }

    /** The accepted events, in order. */
    public List<Recorded> events() {
        return Collections.unmodifiableList(events);
    }

    /** The accepted events without their envelopes. */
    public List<IntegrityEvent> plainEvents() {
        List<IntegrityEvent> out = new ArrayList<>(events.size());
        for (Recorded r : events) {
            out.add(r.event());
        }
        return out;
    }

    private void admit(Recorded r) {
        IntegrityEvent event = r.event();
        IntegrityEvent.Kind kind = event.kind();
        if (!events.isEmpty()) {
            IntegrityEvent.Kind last = events.get(events.size() - 1).event().kind();
            if (last == IntegrityEvent.Kind.DECISION) {
                throw new IntegrityException("event_after_decision", kind.wire() + " after the session's decision");
            }
            if (last == IntegrityEvent.Kind.AGENT_NOT_SELECTED && kind != IntegrityEvent.Kind.DECISION) {
                throw new IntegrityException("event_after_not_selected",
                        kind.wire() + " after agent_not_selected: a session that did not select the agent has no payload");
            }
            if (kind.slot() == last.slot()) {
                throw new IntegrityException("event_duplicate", "a second " + slotName(kind) + " (seq " + r.seq() + ")");
            }
            if (kind.slot() < last.slot()) {
                throw new IntegrityException("event_out_of_order", kind.wire() + " after " + last.wire()
                        + "; the frozen order is selected_agent_id, payload_read_status, prompt_attach_status,"
                        + " transport_integrity, release_integrity, decision");
            }
        }
        validate(event);
        events.add(r);
    }

    private static String slotName(IntegrityEvent.Kind kind) {
        return kind.slot() == 1 ? "selection record (selected_agent_id / agent_not_selected)" : kind.wire();
    }

    /** Per-event evidence rules that hold whatever the order. */
    private static void validate(IntegrityEvent event) {
        switch (event.kind()) {
            case SELECTED_AGENT_ID: {
                IntegrityEvent.SelectedAgentId s = (IntegrityEvent.SelectedAgentId) event;
                if (s.customAgent() == null || s.customAgent().name() == null || s.customAgent().name().isEmpty()) {
                    throw new IntegrityException("selection_without_agent", "selected_agent_id must name custom_agent.name");
                }
                if (s.profile() == null) {
                    throw new IntegrityException("selection_without_profile", "selected_agent_id must fix the boundary profile");
                }
                break;
            }
            case PAYLOAD_READ_STATUS: {
                IntegrityEvent.PayloadReadStatus p = (IntegrityEvent.PayloadReadStatus) event;
                if (p.status() == null) {
                    throw new IntegrityException("event_field_invalid", "payload_read_status has no status");
                }
                if (p.status() == ReadStatus.TRUNCATED && !p.countsProveTruncation()) {
                    throw new IntegrityException("truncated_without_proof", "TRUNCATED needs expected_bytes > bytes_read; got "
                            + p.bytesRead() + " of " + p.expectedBytes());
                }
                if (p.bytesRead() > 0 && p.sourceShaAfterRead() == null) {
                    throw new IntegrityException("read_without_sha", "bytes were read but source_sha_after_read is missing");
                }
                if ((p.status() == ReadStatus.EMPTY || p.status() == ReadStatus.ABSENT) && p.bytesRead() != 0) {
                    throw new IntegrityException("event_field_invalid", p.status() + " with " + p.bytesRead() + " bytes read");
                }
                break;
            }
            case PROMPT_ATTACH_STATUS: {
                IntegrityEvent.PromptAttachStatus a = (IntegrityEvent.PromptAttachStatus) event;
                if (a.status() == null) {
                    throw new IntegrityException("event_field_invalid", "prompt_attach_status has no status");
                }
                if (a.status() != AttachStatus.NOT_ATTACHED && a.attachedSha() == null) {
                    throw new IntegrityException("attach_without_sha", a.status() + " needs attached_sha");
                }
                break;
            }
            case TRANSPORT_INTEGRITY:
                if (((IntegrityEvent.TransportVerdict) event).value() == null) {
                    throw new IntegrityException("event_field_invalid", "transport_integrity has no value");
                }
                break;
            case RELEASE_INTEGRITY:
                if (((IntegrityEvent.ReleaseVerdict) event).value() == null) {
                    throw new IntegrityException("event_field_invalid", "release_integrity has no value");
                }
                break;
            case DECISION:
                if (((IntegrityEvent.Decision) event).outcome() == null) {
                    throw new IntegrityException("event_field_invalid", "decision has no outcome");
                }
                break;
            case AGENT_NOT_SELECTED:
            default:
                break;
        }
    }
}
