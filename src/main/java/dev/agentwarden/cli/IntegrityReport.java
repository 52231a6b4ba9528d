package dev.agentwarden.cli;

import dev.agentwarden.integrity.Boundaries;
import dev.agentwarden.integrity.BoundaryProfile;
import dev.agentwarden.integrity.Evaluation;
import dev.agentwarden.integrity.EvidenceCodec;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityEvent;
import dev.agentwarden.integrity.Recorded;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How integrity sessions are printed by {@code warden integrity …}, {@code warden launch} and the demo. */
final class IntegrityReport {
    private IntegrityReport() {
    }

    /** One line per recorded event, numbered by sequence, then the outcome and its reasons. */
    static void printEvents(PrintWriter out, List<Recorded> events, String indent) {
        IntegrityEvent.SelectedAgentId selection = null;
        for (Recorded r : events) {
            if (r.event() instanceof IntegrityEvent.SelectedAgentId s) {
                selection = s;
            }
            if (r.event().kind() == IntegrityEvent.Kind.DECISION) {
                continue;
            }
            out.printf("%s%2d %-21s %s%n", indent, r.seq(), r.event().kind().wire(), describe(r.event(),
                    selection == null ? null : selection.profile()));
        }
    }

    static void printOutcome(PrintWriter out, Evaluation e, String indent) {
        out.println(indent + "outcome: " + e.outcome() + (e.outcome().halts() ? "  (halt)" : ""));
        for (String reason : e.reasons()) {
            out.println(indent + "  - " + reason);
        }
    }

    static void printShas(PrintWriter out, GateVerdict v, String indent) {
        out.println(indent + "source_sha_after_read: " + orDash(v.sourceSha()));
        out.println(indent + "attached_sha:          " + orDash(v.attachedSha()));
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
                if (p.status() != dev.agentwarden.integrity.ReadStatus.ABSENT) {
                    s.append("  ").append(p.bytesRead()).append(" of ").append(p.expectedBytes()).append(" bytes");
                }
                s.append(markers(p.boundaries(), profile));
                if (!p.sourceStable() && p.status() == dev.agentwarden.integrity.ReadStatus.LOADED) {
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

    /** The check/launch JSON document of one finished session. */
    static Map<String, Object> json(GateVerdict v) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("session", v.session());
        o.put("events", new ArrayList<Object>(v.eventNames()));
        IntegrityEvent.PayloadReadStatus read = v.find(IntegrityEvent.PayloadReadStatus.class);
        IntegrityEvent.PromptAttachStatus attach = v.find(IntegrityEvent.PromptAttachStatus.class);
        o.put("payload_read_status", read == null ? null : read.status().name());
        o.put("prompt_attach_status", attach == null ? null : attach.status().name());
        o.put("transport_integrity", v.evaluation().transportValue() == null ? null : v.evaluation().transportValue().name());
        o.put("release_integrity", v.evaluation().releaseValue() == null ? null : v.evaluation().releaseValue().name());
        o.put("outcome", v.outcome().name());
        o.put("reasons", new ArrayList<Object>(v.evaluation().reasons()));
        o.put("source_sha_after_read", v.sourceSha());
        o.put("source_normalized_sha256", read == null ? null : new LinkedHashMap<String, Object>(read.normalizedSha256()));
        o.put("attached_sha", v.attachedSha());
        o.put("evidence_log", v.evidenceLog() == null ? null : v.evidenceLog().toString());
        List<Object> evidence = new ArrayList<>();
        for (Recorded r : v.events()) {
            evidence.add(EvidenceCodec.toJson(r));
        }
        o.put("evidence", evidence);
        return o;
    }

    static String orDash(String s) {
        return s == null ? "—" : s;
    }
}
