package dev.agentwarden.ledger;

import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One live subagent dispatch, as kept in {@code open/<ref>.json} between its start and its stop.
 *
 * @param ref        first 12 hex characters of SHA-256(agent_id)
 * @param session    the session label ({@link SubagentFields#session()}), or {@code null}
 * @param agentType  the subagent type, or {@code null}
 * @param parentRef  ref of the parent the host named, or {@code null}
 * @param depth      nesting depth, 1 for a dispatch of the main agent
 * @param depthBasis how the depth is known: {@code assumed-root}, {@code asserted-parent} or {@code observed}
 * @param startedMs  start instant, epoch milliseconds
 */
public record OpenRecord(String ref, String session, String agentType, String parentRef, long depth,
                         String depthBasis, long startedMs) {

    /** The depth bases of the reference: no parent named, a parent named but not open, an open parent. */
    public static final Set<String> DEPTH_BASES = Set.of("assumed-root", "asserted-parent", "observed");

    /** Largest byte size of a record file a reader accepts. */
    static final int MAX_BYTES = 4096;
    /** Deepest nesting a record may claim. */
    static final long MAX_DEPTH = 1000;

    private static final Fields.Failure<IllegalArgumentException> FIELD_TYPE = Fields.illegalArgument("");

    byte[] toBytes() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("ref", ref);
        o.put("session_id", session);
        o.put("agent_type", agentType);
        o.put("parent_ref", parentRef);
        o.put("depth", depth);
        o.put("depth_basis", depthBasis);
        o.put("started_at", UtcTime.iso(startedMs));
        o.put("started_ms", startedMs);
        return (Json.write(o) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a record file's bytes. A record is trusted only when its {@code ref} matches the file
     * name and every field has its type and range.
     *
     * @throws LedgerException with a stable code ({@code open_record_*}) when it is not trusted
     */
    static OpenRecord parse(String fileRef, byte[] bytes) throws LedgerException {
        if (bytes.length > MAX_BYTES) {
            throw invalid("open_record_too_large", bytes.length + " bytes, limit " + MAX_BYTES);
        }
        Map<String, Object> o = LedgerLine.parseState(trimNewline(bytes));
        if (o == null) {
            throw invalid("open_record_not_json", "not a JSON object");
        }
        if (!(o.get("v") instanceof Long v) || v != LedgerLine.VERSION) {
            throw invalid("open_record_version", "v is " + o.get("v") + ", expected " + LedgerLine.VERSION);
        }
        if (!(o.get("ref") instanceof String ref) || !ref.equals(fileRef)) {
            throw invalid("open_record_ref_mismatch", "ref does not match the file name");
        }
        try {
            Fields<IllegalArgumentException> f = Fields.of(o, "open record", FIELD_TYPE);
            String session = f.optionalString("session_id");
            String agentType = f.optionalString("agent_type");
            String parentRef = f.optionalString("parent_ref");
            if (parentRef != null && !AgentRef.isRef(parentRef)) {
                throw invalid("open_record_field_type", "parent_ref is not a ref");
            }
            long depth = f.positiveLong("depth", 1);
            if (depth > MAX_DEPTH) {
                throw invalid("open_record_field_type", "depth must be an integer in 1.." + MAX_DEPTH);
            }
            String basis = f.string("depth_basis");
            if (!DEPTH_BASES.contains(basis)) {
                throw invalid("open_record_field_type", "depth_basis must be one of " + DEPTH_BASES);
            }
            return new OpenRecord(ref, session, agentType, parentRef, depth, basis, f.positiveLong("started_ms", 0));
        } catch (IllegalArgumentException wrongType) {
            // the typed reader's message names the field; the code is the record's
            throw invalid("open_record_field_type", wrongType.getMessage());
        }
    }

    private static byte[] trimNewline(byte[] bytes) {
        int len = bytes.length;
        while (len > 0 && (bytes[len - 1] == '\n' || bytes[len - 1] == '\r')) {
            len--;
        }
        return len == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, len);
    }

    private static LedgerException invalid(String code, String message) {
        return new LedgerException(code, message);
    }
}
