package dev.agentwarden.integrity;

import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.IntegrityEvent.AgentNotSelected;
import dev.agentwarden.integrity.IntegrityEvent.CustomAgent;
import dev.agentwarden.integrity.IntegrityEvent.Decision;
import dev.agentwarden.integrity.IntegrityEvent.PayloadReadStatus;
import dev.agentwarden.integrity.IntegrityEvent.PromptAttachStatus;
import dev.agentwarden.integrity.IntegrityEvent.ReleaseVerdict;
import dev.agentwarden.integrity.IntegrityEvent.SelectedAgentId;
import dev.agentwarden.integrity.IntegrityEvent.TransportVerdict;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.integrity.agentfile.Boundaries;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.json.Fields;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Evidence log line format v1: one JSON object per event,
 * {@code {"v":1,"session":…,"seq":…,"at":…,"event":"<wire name>", …fields}} with the seed's field
 * names. The selection record also carries {@code selected_at} and {@code selection_order}. Lines
 * never contain payload text: only hashes, counts, marker positions and host configuration.
 */
final class EvidenceCodec {
    public static final long VERSION = 1;

    private static final Fields.Failure<IntegrityException> INVALID = new Invalid();
    /** Most reasons a transport verdict or decision line is read with. */
    private static final int MAX_REASONS = 1000;

    private EvidenceCodec() {
    }

    /** The JSON object of one recorded event. */
    public static Map<String, Object> toJson(Recorded r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", VERSION);
        o.put("session", r.session());
        o.put("seq", r.seq());
        o.put("at", r.at().toString());
        o.put("event", r.event().kind().wire());
        IntegrityEvent e = r.event();
        switch (e.kind()) {
            case SELECTED_AGENT_ID: {
                SelectedAgentId s = (SelectedAgentId) e;
                Map<String, Object> agent = new LinkedHashMap<>();
                agent.put("name", s.customAgent().name());
                agent.put("file", s.customAgent().file());
                agent.put("role", s.customAgent().role());
                o.put("custom_agent", agent);
                o.put("agent_version", s.agentVersion());
                o.put("client_id", s.clientId());
                o.put("client_version", s.clientVersion());
                o.put("selected_at", r.at().toString());
                o.put("selection_order", r.seq());
                o.put("host_session_id", s.hostSessionId());
                o.put("resolution", s.resolution());
                Map<String, Object> profile = new LinkedHashMap<>();
                profile.put("name", s.profile().name());
                profile.put("head", s.profile().head());
                profile.put("eof", s.profile().eof());
                profile.put("head_within_lines", (long) s.profile().headWithinLines());
                o.put("boundary_profile", profile);
                o.put("require_trusted_manifest", s.requireTrustedManifest());
                break;
            }
            case AGENT_NOT_SELECTED: {
                AgentNotSelected n = (AgentNotSelected) e;
                o.put("gated_agent", n.gatedAgent());
                o.put("selected_instead", n.selectedInstead());
                o.put("proof", n.proof());
                break;
            }
            case PAYLOAD_READ_STATUS: {
                PayloadReadStatus p = (PayloadReadStatus) e;
                o.put("payload_read_status", p.status().name());
                o.put("source_sha_after_read", p.sourceShaAfterRead());
                o.put("source_normalized_sha256", new LinkedHashMap<>(p.normalizedSha256()));
                o.put("bytes_read", p.bytesRead());
                o.put("expected_bytes", p.expectedBytes());
                o.put("eof_reached", p.eofReached());
                o.put("source_stable", p.sourceStable());
                o.put("boundaries", boundaries(p.boundaries()));
                o.put("stamped_version", p.stampedVersion());
                o.put("real_path", p.realPath());
                o.put("reason", p.reason());
                break;
            }
            case PROMPT_ATTACH_STATUS: {
                PromptAttachStatus a = (PromptAttachStatus) e;
                o.put("prompt_attach_status", a.status().name());
                o.put("attached_sha", a.attachedSha());
                o.put("attached_bytes", a.attachedBytes());
                o.put("boundaries", boundaries(a.boundaries()));
                o.put("channel", a.channel());
                o.put("emitted", a.emitted());
                o.put("reason", a.reason());
                if (a.form() != null) {
                    o.put("attached_form", a.form());
                    o.put("source_form_sha", a.sourceFormSha());
                }
                break;
            }
            case TRANSPORT_INTEGRITY: {
                TransportVerdict t = (TransportVerdict) e;
                o.put("transport_integrity", t.value().name());
                o.put("reasons", new ArrayList<Object>(t.reasons()));
                break;
            }
            case RELEASE_INTEGRITY: {
                ReleaseVerdict v = (ReleaseVerdict) e;
                o.put("release_integrity", v.value().name());
                o.put("lookup", v.lookup());
                o.put("basis", v.basis());
                o.put("expected_sha256", v.expectedSha256());
                o.put("expected_normalized_sha256", v.expectedNormalizedSha256());
                o.put("reason", v.reason());
                o.put("manifest", v.manifest() == null ? null : new LinkedHashMap<String, Object>(v.manifest()));
                break;
            }
            case DECISION:
            default: {
                Decision d = (Decision) e;
                o.put("outcome", d.outcome().name());
                o.put("reasons", new ArrayList<Object>(d.reasons()));
                break;
            }
        }
        return o;
    }

    /**
     * The recorded event of one parsed line.
     *
     * @throws IntegrityException {@code evidence_version_unsupported}, {@code event_unknown} or
     *                            {@code evidence_field_invalid}
     */
    public static Recorded fromJson(Map<String, Object> line) {
        if (!Long.valueOf(VERSION).equals(line.get("v"))) {
            throw new IntegrityException("evidence_version_unsupported", "line format v" + line.get("v") + "; this reader knows v1");
        }
        Fields<IntegrityException> o = Fields.of(line, "evidence", INVALID);
        String session = o.string("session");
        long seq = o.positiveLong("seq", Long.MIN_VALUE);
        if (seq < 1) {
            throw new IntegrityException("evidence_field_invalid", "seq must be >= 1, got " + seq);
        }
        Instant at;
        try {
            at = Instant.parse(o.string("at"));
        } catch (DateTimeParseException e) {
            throw new IntegrityException("evidence_field_invalid", "at is not an ISO-8601 instant: " + line.get("at"));
        }
        String wire = o.string("event");
        IntegrityEvent.Kind kind = IntegrityEvent.Kind.fromWire(wire);
        if (kind == null) {
            throw new IntegrityException("event_unknown", "unknown event '" + wire + "'");
        }
        return new Recorded(session, seq, at, event(kind, o));
    }

    private static IntegrityEvent event(IntegrityEvent.Kind kind, Fields<IntegrityException> o) {
        switch (kind) {
            case SELECTED_AGENT_ID: {
                Fields<IntegrityException> agent = o.object("custom_agent");
                Fields<IntegrityException> p = o.object("boundary_profile");
                BoundaryProfile profile;
                try {
                    String name = p.string("name");
                    profile = BoundaryProfile.of(name, p.optionalString("head"), p.optionalString("eof"));
                } catch (IllegalArgumentException e) {
                    throw new IntegrityException("evidence_field_invalid", "boundary_profile: " + e.getMessage());
                }
                return new SelectedAgentId(new CustomAgent(agent.string("name"), agent.optionalString("file"),
                        agent.optionalString("role")), o.optionalString("agent_version"), o.optionalString("client_id"),
                        o.optionalString("client_version"), o.optionalString("host_session_id"),
                        o.optionalString("resolution"), profile, o.bool("require_trusted_manifest"));
            }
            case AGENT_NOT_SELECTED:
                return new AgentNotSelected(o.string("gated_agent"), o.optionalString("selected_instead"),
                        o.optionalString("proof"));
            case PAYLOAD_READ_STATUS: {
                Map<String, String> normalized = new LinkedHashMap<>();
                Fields<IntegrityException> n = o.optionalObject("source_normalized_sha256");
                if (n != null) {
                    for (String profile : n.map().keySet()) {
                        normalized.put(profile, optionalSha(n, profile));
                    }
                }
                return new PayloadReadStatus(enumOf(ReadStatus.class, o, "payload_read_status"),
                        optionalSha(o, "source_sha_after_read"), normalized, o.positiveLong("bytes_read", Long.MIN_VALUE),
                        o.positiveLong("expected_bytes", Long.MIN_VALUE), o.bool("eof_reached"), o.bool("source_stable"),
                        boundaries(o.optionalObject("boundaries")), o.optionalString("stamped_version"),
                        o.optionalString("real_path"), o.optionalString("reason"));
            }
            case PROMPT_ATTACH_STATUS:
                return new PromptAttachStatus(enumOf(AttachStatus.class, o, "prompt_attach_status"),
                        optionalSha(o, "attached_sha"), o.positiveLong("attached_bytes", Long.MIN_VALUE),
                        boundaries(o.optionalObject("boundaries")), o.optionalString("channel"), o.bool("emitted"),
                        o.optionalString("reason"), o.optionalString("attached_form"), optionalSha(o, "source_form_sha"));
            case TRANSPORT_INTEGRITY:
                return new TransportVerdict(enumOf(TransportIntegrity.class, o, "transport_integrity"),
                        o.strings("reasons", MAX_REASONS));
            case RELEASE_INTEGRITY: {
                Fields<IntegrityException> m = o.optionalObject("manifest");
                Map<String, String> manifest = null;
                if (m != null) {
                    manifest = new LinkedHashMap<>();
                    for (Map.Entry<String, Object> e : m.map().entrySet()) {
                        manifest.put(e.getKey(), e.getValue() instanceof String s ? s : null);
                    }
                }
                return new ReleaseVerdict(enumOf(ReleaseIntegrity.class, o, "release_integrity"),
                        o.optionalString("lookup"), o.optionalString("basis"), o.optionalString("expected_sha256"),
                        o.optionalString("expected_normalized_sha256"), o.optionalString("reason"), manifest);
            }
            case DECISION:
            default:
                return new Decision(enumOf(Outcome.class, o, "outcome"), o.strings("reasons", MAX_REASONS));
        }
    }

    private static Map<String, Object> boundaries(Boundaries b) {
        if (b == null) {
            return null;
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("head_line", (long) b.headLine());
        o.put("eof", b.eof());
        return o;
    }

    private static Boundaries boundaries(Fields<IntegrityException> o) {
        if (o == null) {
            return null;
        }
        long head = o.positiveLong("head_line", Long.MIN_VALUE);
        if (head < 0 || head > Integer.MAX_VALUE) {
            throw new IntegrityException("evidence_field_invalid", "boundaries.head_line out of range: " + head);
        }
        return new Boundaries((int) head, o.bool("eof"));
    }

    /** The SHA-256 at {@code key}, or {@code null} when it is absent or null. */
    private static String optionalSha(Fields<IntegrityException> o, String key) {
        return o.optionalString(key) == null ? null : o.sha256(key);
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, Fields<IntegrityException> o, String key) {
        String s = o.string(key);
        try {
            return Enum.valueOf(type, s);
        } catch (IllegalArgumentException e) {
            throw new IntegrityException("evidence_field_invalid", o.where(key) + ": unknown value '" + s + "'");
        }
    }

    /** A failed field read as the evidence reader reports it. */
    private static final class Invalid implements Fields.Failure<IntegrityException> {
        @Override
        public IntegrityException because(String message) {
            return new IntegrityException("evidence_field_invalid", message);
        }
    }
}
