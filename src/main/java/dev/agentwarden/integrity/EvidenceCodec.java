package dev.agentwarden.integrity;

import dev.agentwarden.integrity.IntegrityEvent.AgentNotSelected;
import dev.agentwarden.integrity.IntegrityEvent.CustomAgent;
import dev.agentwarden.integrity.IntegrityEvent.Decision;
import dev.agentwarden.integrity.IntegrityEvent.PayloadReadStatus;
import dev.agentwarden.integrity.IntegrityEvent.PromptAttachStatus;
import dev.agentwarden.integrity.IntegrityEvent.ReleaseVerdict;
import dev.agentwarden.integrity.IntegrityEvent.SelectedAgentId;
import dev.agentwarden.integrity.IntegrityEvent.TransportVerdict;
import dev.agentwarden.digest.Sha256;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evidence log line format v1: one JSON object per event,
 * {@code {"v":1,"session":…,"seq":…,"at":…,"event":"<wire name>", …fields}} with the seed's field
 * names. The selection record also carries {@code selected_at} and {@code selection_order}. Lines
 * never contain payload text: only hashes, counts, marker positions and host configuration.
 */
public final class EvidenceCodec {
    public static final long VERSION = 1;

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
    public static Recorded fromJson(Map<String, Object> o) {
        if (!Long.valueOf(VERSION).equals(o.get("v"))) {
            throw new IntegrityException("evidence_version_unsupported", "line format v" + o.get("v") + "; this reader knows v1");
        }
        String session = str(o, "session", true);
        long seq = num(o, "seq");
        if (seq < 1) {
            throw new IntegrityException("evidence_field_invalid", "seq must be >= 1, got " + seq);
        }
        Instant at;
        try {
            at = Instant.parse(str(o, "at", true));
        } catch (DateTimeParseException e) {
            throw new IntegrityException("evidence_field_invalid", "at is not an ISO-8601 instant: " + o.get("at"));
        }
        String wire = str(o, "event", true);
        IntegrityEvent.Kind kind = IntegrityEvent.Kind.fromWire(wire);
        if (kind == null) {
            throw new IntegrityException("event_unknown", "unknown event '" + wire + "'");
        }
        return new Recorded(session, seq, at, event(kind, o));
    }

    private static IntegrityEvent event(IntegrityEvent.Kind kind, Map<String, Object> o) {
        switch (kind) {
            case SELECTED_AGENT_ID: {
                Map<String, Object> agent = obj(o, "custom_agent", true);
                Map<String, Object> p = obj(o, "boundary_profile", true);
                BoundaryProfile profile;
                try {
                    String name = str(p, "name", true);
                    profile = BoundaryProfile.of(name, str(p, "head", false), str(p, "eof", false));
                } catch (IllegalArgumentException e) {
                    throw new IntegrityException("evidence_field_invalid", "boundary_profile: " + e.getMessage());
                }
                return new SelectedAgentId(new CustomAgent(str(agent, "name", true), str(agent, "file", false),
                        str(agent, "role", false)), str(o, "agent_version", false), str(o, "client_id", false),
                        str(o, "client_version", false), str(o, "host_session_id", false), str(o, "resolution", false),
                        profile, bool(o, "require_trusted_manifest"));
            }
            case AGENT_NOT_SELECTED:
                return new AgentNotSelected(str(o, "gated_agent", true), str(o, "selected_instead", false),
                        str(o, "proof", false));
            case PAYLOAD_READ_STATUS: {
                Map<String, String> normalized = new LinkedHashMap<>();
                Map<String, Object> n = obj(o, "source_normalized_sha256", false);
                if (n != null) {
                    for (Map.Entry<String, Object> e : n.entrySet()) {
                        normalized.put(e.getKey(), sha(e.getValue(), "source_normalized_sha256." + e.getKey()));
                    }
                }
                return new PayloadReadStatus(enumOf(ReadStatus.class, o, "payload_read_status"),
                        sha(o.get("source_sha_after_read"), "source_sha_after_read"), normalized, num(o, "bytes_read"),
                        num(o, "expected_bytes"), bool(o, "eof_reached"), bool(o, "source_stable"),
                        boundaries(obj(o, "boundaries", false)), str(o, "stamped_version", false),
                        str(o, "real_path", false), str(o, "reason", false));
            }
            case PROMPT_ATTACH_STATUS:
                return new PromptAttachStatus(enumOf(AttachStatus.class, o, "prompt_attach_status"),
                        sha(o.get("attached_sha"), "attached_sha"), num(o, "attached_bytes"),
                        boundaries(obj(o, "boundaries", false)), str(o, "channel", false), bool(o, "emitted"),
                        str(o, "reason", false), str(o, "attached_form", false),
                        sha(o.get("source_form_sha"), "source_form_sha"));
            case TRANSPORT_INTEGRITY:
                return new TransportVerdict(enumOf(TransportIntegrity.class, o, "transport_integrity"), strings(o, "reasons"));
            case RELEASE_INTEGRITY: {
                Map<String, Object> m = obj(o, "manifest", false);
                Map<String, String> manifest = null;
                if (m != null) {
                    manifest = new LinkedHashMap<>();
                    for (Map.Entry<String, Object> e : m.entrySet()) {
                        manifest.put(e.getKey(), e.getValue() instanceof String s ? s : null);
                    }
                }
                return new ReleaseVerdict(enumOf(ReleaseIntegrity.class, o, "release_integrity"), str(o, "lookup", false),
                        str(o, "basis", false), str(o, "expected_sha256", false), str(o, "expected_normalized_sha256", false),
                        str(o, "reason", false), manifest);
            }
            case DECISION:
            default:
                return new Decision(enumOf(Outcome.class, o, "outcome"), strings(o, "reasons"));
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

    private static Boundaries boundaries(Map<String, Object> o) {
        if (o == null) {
            return null;
        }
        long head = num(o, "head_line");
        if (head < 0 || head > Integer.MAX_VALUE) {
            throw new IntegrityException("evidence_field_invalid", "boundaries.head_line out of range: " + head);
        }
        return new Boundaries((int) head, bool(o, "eof"));
    }

    private static String str(Map<String, Object> o, String key, boolean required) {
        Object v = o.get(key);
        if (v == null && !required) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new IntegrityException("evidence_field_invalid", key + ": expected a string, got " + describe(v));
        }
        return s;
    }

    private static long num(Map<String, Object> o, String key) {
        if (!(o.get(key) instanceof Long l)) {
            throw new IntegrityException("evidence_field_invalid", key + ": expected an integer, got " + describe(o.get(key)));
        }
        return l;
    }

    private static boolean bool(Map<String, Object> o, String key) {
        if (!(o.get(key) instanceof Boolean b)) {
            throw new IntegrityException("evidence_field_invalid", key + ": expected true or false, got " + describe(o.get(key)));
        }
        return b;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Map<String, Object> o, String key, boolean required) {
        Object v = o.get(key);
        if (v == null && !required) {
            return null;
        }
        if (!(v instanceof Map)) {
            throw new IntegrityException("evidence_field_invalid", key + ": expected an object, got " + describe(v));
        }
        return (Map<String, Object>) v;
    }

    private static List<String> strings(Map<String, Object> o, String key) {
        if (!(o.get(key) instanceof List<?> list)) {
            throw new IntegrityException("evidence_field_invalid", key + ": expected an array of strings");
        }
        List<String> out = new ArrayList<>(list.size());
        for (Object item : list) {
            if (!(item instanceof String s)) {
                throw new IntegrityException("evidence_field_invalid", key + ": expected an array of strings");
            }
            out.add(s);
        }
        return out;
    }

    private static String sha(Object v, String key) {
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s) || !Sha256.isHex(s)) {
            throw new IntegrityException("evidence_field_invalid", key + ": expected 64 lowercase hex digits");
        }
        return s;
    }

    private static <E extends Enum<E>> E enumOf(Class<E> type, Map<String, Object> o, String key) {
        String s = str(o, key, true);
        try {
            return Enum.valueOf(type, s);
        } catch (IllegalArgumentException e) {
            throw new IntegrityException("evidence_field_invalid", key + ": unknown value '" + s + "'");
        }
    }

    private static String describe(Object v) {
        return v == null ? "null" : v.getClass().getSimpleName();
    }
}
