package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.agentfile.Boundaries;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import java.util.ArrayList;
import java.util.List;

/** Recorded events as people read them ({@code warden integrity …}, {@code warden launch} and the demo). */
final class EventText {
    private EventText() {
    }

    /** One line per recorded event but the decision: the sequence number, the event's name, {@link #describe}. */
    static List<String> lines(List<Recorded> events) {
        List<String> out = new ArrayList<>();
        IntegrityEvent.SelectedAgentId selection = null;
        for (Recorded r : events) {
            if (r.event() instanceof IntegrityEvent.SelectedAgentId s) {
                selection = s;
            }
            if (r.event().kind() == IntegrityEvent.Kind.DECISION) {
                continue;
            }
            out.add(String.format("%2d %-21s %s", r.seq(), r.event().kind().wire(), describe(r.event(),
                    selection == null ? null : selection.profile())));
        }
        return out;
    }

    /** A compact description of one event. */
    static String describe(IntegrityEvent e, BoundaryProfile profile) {
        switch (e.kind()) {
            case SELECTED_AGENT_ID: {
                IntegrityEvent.SelectedAgentId s = (IntegrityEvent.SelectedAgentId) e;
                return s.customAgent().name() + "  file=" + s.customAgent().file()
                        + (s.customAgent().role() == null ? "" : "  role=" + s.customAgent().role())
                        + "  key=(" + s.agentVersion() + ", " + s.clientId() + ", " + s.clientVersion() + ")"
                        + "  profile=" + s.profile().name()
                        + (s.resolution() == null ? "" : "  via " + s.resolution());
            }
            case AGENT_NOT_SELECTED: {
                IntegrityEvent.AgentNotSelected n = (IntegrityEvent.AgentNotSelected) e;
                return n.gatedAgent() + " not selected; selected: " + n.selectedInstead() + "  proof: " + n.proof();
            }
            case PAYLOAD_READ_STATUS: {
                IntegrityEvent.PayloadReadStatus p = (IntegrityEvent.PayloadReadStatus) e;
                StringBuilder s = new StringBuilder(p.status().name());
                if (p.status() != ReadStatus.ABSENT) {
                    s.append("  ").append(p.bytesRead()).append(" of ").append(p.expectedBytes()).append(" bytes");
                }
                s.append(markers(p.boundaries(), profile));
                if (!p.sourceStable() && p.status() == ReadStatus.LOADED) {
                    s.append("  UNSTABLE");
                }
                if (p.stampedVersion() != null) {
                    s.append("  stamped ").append(p.stampedVersion());
                }
                if (p.realPath() != null) {
                    s.append("  symlink → ").append(p.realPath());
                }
                if (p.sourceShaAfterRead() != null) {
                    s.append("  sha ").append(p.sourceShaAfterRead());
                }
                if (p.reason() != null) {
                    s.append("  (").append(p.reason()).append(')');
                }
                return s.toString();
            }
            case PROMPT_ATTACH_STATUS: {
                IntegrityEvent.PromptAttachStatus a = (IntegrityEvent.PromptAttachStatus) e;
                StringBuilder s = new StringBuilder(a.status().name());
                if (a.attachedSha() != null) {
                    s.append("  ").append(a.attachedBytes()).append(" bytes").append(markers(a.boundaries(), profile))
                            .append("  sha ").append(a.attachedSha());
                }
                if (a.channel() != null) {
                    s.append("  via ").append(a.channel());
                }
                if (!a.emitted() && a.attachedSha() != null) {
                    s.append("  withheld");
                }
                if (a.reason() != null) {
                    s.append("  (").append(a.reason()).append(')');
                }
                return s.toString();
            }
            case TRANSPORT_INTEGRITY: {
                IntegrityEvent.TransportVerdict t = (IntegrityEvent.TransportVerdict) e;
                return t.value() + (t.reasons().isEmpty() ? "" : "  " + t.reasons().get(0));
            }
            case RELEASE_INTEGRITY: {
                IntegrityEvent.ReleaseVerdict v = (IntegrityEvent.ReleaseVerdict) e;
                return v.value() + (v.lookup() == null ? "" : "  lookup " + v.lookup())
                        + (v.basis() == null ? "" : "  basis " + v.basis())
                        + (v.reason() == null ? "" : "  (" + v.reason() + ")");
            }
            case DECISION:
            default:
                return ((IntegrityEvent.Decision) e).outcome().name();
        }
    }

    private static String markers(Boundaries b, BoundaryProfile profile) {
        if (b == null || profile == null || !profile.usesMarkers()) {
            return "";
        }
        String head = profile.head() == null ? "" : (b.headLine() > 0 ? "  head@line " + b.headLine() : "  head missing");
        return head + (b.eof() ? "  eof ok" : "  eof missing");
    }
}
