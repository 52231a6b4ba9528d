package dev.agentwarden.integrity;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A finished session: its ordered evidence and the evaluation made from it.
 *
 * @param session     the evidence session id
 * @param events      every recorded event in order, verdicts included
 * @param evaluation  both axes and the outcome
 * @param evidenceLog the log the events were appended to, or {@code null} when kept in memory only
 */
public record GateVerdict(String session, List<Recorded> events, Evaluation evaluation, Path evidenceLog) {

    public Outcome outcome() {
        return evaluation.outcome();
    }

    public boolean halts() {
        return evaluation.outcome().halts();
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

    /** {@code source_sha_after_read}, or {@code null}. */
    public String sourceSha() {
        IntegrityEvent.PayloadReadStatus read = find(IntegrityEvent.PayloadReadStatus.class);
        return read == null ? null : read.sourceShaAfterRead();
    }

    /** {@code attached_sha}, or {@code null}. */
    public String attachedSha() {
        IntegrityEvent.PromptAttachStatus attach = find(IntegrityEvent.PromptAttachStatus.class);
        return attach == null ? null : attach.attachedSha();
    }

    /** The first recorded event of a type, or {@code null}. */
    public <T extends IntegrityEvent> T find(Class<T> type) {
        for (Recorded r : events) {
            if (type.isInstance(r.event())) {
                return type.cast(r.event());
            }
        }
        return null;
    }
}
