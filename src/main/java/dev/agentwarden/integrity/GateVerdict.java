package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A finished session: its ordered evidence and the evaluation made from it. The evidence itself is
 * read through the views below ({@link #steps}, {@link #eventLines}, {@link #evidenceJson}); its
 * event records are the gate's own.
 */
public final class GateVerdict {
    private final String session;
    private final List<Recorded> events;
    private final Evaluation evaluation;
    private final Path evidenceLog;

    /**
     * @param session     the evidence session id
     * @param events      every recorded event in order, verdicts included
     * @param evaluation  both axes and the outcome
     * @param evidenceLog the log the events were appended to, or {@code null} when kept in memory only
     */
    GateVerdict(String session, List<Recorded> events, Evaluation evaluation, Path evidenceLog) {
        this.session = session;
        this.events = events;
        this.evaluation = evaluation;
        this.evidenceLog = evidenceLog;
    }

    /** The evidence session id. */
    public String session() {
        return session;
    }

    /** Both axes and the outcome. */
    public Evaluation evaluation() {
        return evaluation;
    }

    /** The log the events were appended to, or {@code null} when kept in memory only. */
    public Path evidenceLog() {
        return evidenceLog;
    }

    public Outcome outcome() {
        return evaluation.outcome();
    }

    public boolean halts() {
        return evaluation.outcome().halts();
    }

    /** Every recorded event in order, verdicts included. */
    List<Recorded> events() {
        return events;
    }

    /** The seed's ordered event names, without the decision record. */
    public List<String> eventNames() {
        return Recorded.eventNames(events);
    }

    /**
     * The ordered evidence as {@code name=value} steps, e.g. {@code payload_read_status=LOADED};
     * the selection records read {@code selected_agent_id=<name>} and {@code agent_not_selected=<gated agent>}.
     */
    public List<String> steps() {
        List<String> out = new ArrayList<>();
        for (Recorded r : events) {
            String step = step(r.event());
            if (step != null) {
                out.add(step);
            }
        }
        return out;
    }

    static String step(IntegrityEvent e) {
        switch (e.kind()) {
            case SELECTED_AGENT_ID:
                return "selected_agent_id=" + ((IntegrityEvent.SelectedAgentId) e).customAgent().name();
            case AGENT_NOT_SELECTED:
                return "agent_not_selected=" + ((IntegrityEvent.AgentNotSelected) e).gatedAgent();
            case PAYLOAD_READ_STATUS:
                return "payload_read_status=" + ((IntegrityEvent.PayloadReadStatus) e).status();
            case PROMPT_ATTACH_STATUS:
                return "prompt_attach_status=" + ((IntegrityEvent.PromptAttachStatus) e).status();
            case TRANSPORT_INTEGRITY:
                return "transport_integrity=" + ((IntegrityEvent.TransportVerdict) e).value();
            case RELEASE_INTEGRITY:
                return "release_integrity=" + ((IntegrityEvent.ReleaseVerdict) e).value();
            case DECISION:
            default:
                return null;
        }
    }

    /**
     * One line per recorded event but the decision, for people: the sequence number, the event's
     * name and what it says (e.g. {@code " 3 prompt_attach_status  ATTACHED_FULL  1204 bytes …"}).
     */
    public List<String> eventLines() {
        return EventText.lines(events);
    }

    /** Every recorded event as the evidence log holds it (one JSON object each, in order). */
    public List<Object> evidenceJson() {
        List<Object> out = new ArrayList<>();
        for (Recorded r : events) {
            out.add(EvidenceCodec.toJson(r));
        }
        return out;
    }

    /** {@code payload_read_status}, or {@code null} when nothing was read. */
    public ReadStatus readStatus() {
        IntegrityEvent.PayloadReadStatus read = find(IntegrityEvent.PayloadReadStatus.class);
        return read == null ? null : read.status();
    }

    /** {@code prompt_attach_status}, or {@code null} when no attach result was recorded. */
    public AttachStatus attachStatus() {
        IntegrityEvent.PromptAttachStatus attach = find(IntegrityEvent.PromptAttachStatus.class);
        return attach == null ? null : attach.status();
    }

    /** {@code source_sha_after_read}, or {@code null}. */
    public String sourceSha() {
        IntegrityEvent.PayloadReadStatus read = find(IntegrityEvent.PayloadReadStatus.class);
        return read == null ? null : read.sourceShaAfterRead();
    }

    /** The read's SHA-256 under each normalization profile, or {@code null} when nothing was read. */
    public Map<String, String> normalizedSha256() {
        IntegrityEvent.PayloadReadStatus read = find(IntegrityEvent.PayloadReadStatus.class);
        return read == null ? null : new LinkedHashMap<>(read.normalizedSha256());
    }

    /** {@code attached_sha}, or {@code null}. */
    public String attachedSha() {
        IntegrityEvent.PromptAttachStatus attach = find(IntegrityEvent.PromptAttachStatus.class);
        return attach == null ? null : attach.attachedSha();
    }

    /** The first recorded event of a type, or {@code null}. */
    <T extends IntegrityEvent> T find(Class<T> type) {
        return Recorded.find(events, type);
    }

    /** Both verdict axes and the outcome for one session. */
    public static final class Evaluation {
        private final IntegrityEvent.TransportVerdict transport;
        private final IntegrityEvent.ReleaseVerdict release;
        private final IntegrityEvent.Decision decision;

        /**
         * @param transport the transport verdict, or {@code null} for SKIP
         * @param release   the release verdict, or {@code null} for SKIP
         * @param decision  the outcome and its reasons
         */
        Evaluation(IntegrityEvent.TransportVerdict transport, IntegrityEvent.ReleaseVerdict release,
                   IntegrityEvent.Decision decision) {
            this.transport = transport;
            this.release = release;
            this.decision = decision;
        }

        IntegrityEvent.TransportVerdict transport() {
            return transport;
        }

        IntegrityEvent.ReleaseVerdict release() {
            return release;
        }

        IntegrityEvent.Decision decision() {
            return decision;
        }

        public Outcome outcome() {
            return decision.outcome();
        }

        /** {@code transport_integrity}, or {@code null} for SKIP. */
        public TransportIntegrity transportValue() {
            return transport == null ? null : transport.value();
        }

        /** {@code release_integrity}, or {@code null} for SKIP. */
        public ReleaseIntegrity releaseValue() {
            return release == null ? null : release.value();
        }

        public List<String> reasons() {
            return decision.reasons();
        }
    }
}
