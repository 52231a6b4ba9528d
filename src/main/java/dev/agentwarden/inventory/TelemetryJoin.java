package dev.agentwarden.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Joins usage records to a pin: a record is kept only when it proves the pinned client, client
 * version and model, is not a repeat of another line's usage, its turn ran in the pinned condition
 * (fresh or continued, when the turn's record says), and its turn has a preflight verdict other
 * than {@link DriftStatus#INVALIDATING}. Kept records go to their drift cell (primary,
 * {@code variant:<label>}, {@code exploratory}), never pooled; every other record is listed with
 * its reason.
 */
public final class TelemetryJoin {
    private TelemetryJoin() {
    }

    /**
     * One turn's preflight outcome, as the preflight or turn record states it.
     *
     * @param condition {@code fresh}, {@code continued} or {@code unknown} as the session's SessionStart
     *                  said; {@code null} when the record does not say (a preflight file)
     */
    public record TurnVerdict(long turn, DriftStatus status, String variant, String condition) {
        public TurnVerdict(long turn, DriftStatus status, String variant) {
            this(turn, status, variant, null);
        }
    }

    /** The verdict of one session's turn, or {@code null} when it has none. */
    public interface Verdicts {
        TurnVerdict of(String sessionId, long turn);
    }

    /**
     * @param verdicts per turn index, whatever the session; a turn without one has no inventory snapshot and is void
     */
    public static Map<String, Object> join(TelemetryPin pin, List<UsageRecord> records, Map<Long, TurnVerdict> verdicts) {
        return join(pin, records, (session, turn) -> verdicts.get(turn));
    }

    /**
     * Verdicts from {@link TurnRecords} lines: each {@code turn} record's {@code inventory_drift} and
     * condition, by session id and turn index (a record without a drift verdict gives none).
     */
    public static Verdicts fromTurnRecords(List<Map<String, Object>> turnRecords) {
        Map<String, TurnVerdict> byKey = new java.util.HashMap<>();
        for (Map<String, Object> r : turnRecords) {
            if (TurnRecords.TURN.equals(r.get("phase")) && r.get("turn_index") instanceof Number n
                    && r.get("inventory_drift") instanceof String drift) {
                byKey.put(r.get("session_id") + "\n" + n.longValue(), new TurnVerdict(n.longValue(),
                        DriftStatus.valueOf(drift), (String) r.get("variant"),
                        r.get("condition") instanceof String c ? c : "unknown"));
            }
        }
        return (session, turn) -> byKey.get(session + "\n" + turn);
    }

    /**
     * @param verdicts per session and turn; a turn without one has no inventory snapshot and is void
     */
    public static Map<String, Object> join(TelemetryPin pin, List<UsageRecord> records, Verdicts verdicts) {
        List<Object> joined = new ArrayList<>();
        List<Object> excluded = new ArrayList<>();
        Map<String, List<Object>> cells = new TreeMap<>();
        for (UsageRecord r : records) {
            String reason = exclusion(pin, r, verdicts);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("source", r.source());
            entry.put("line", r.line());
            entry.put("session_id", r.sessionId());
            entry.put("turn", r.turn());
            entry.put("client", r.client());
            entry.put("client_version", r.clientVersion());
            entry.put("model", r.model());
            entry.put("usage", r.usage());
            if (reason != null) {
                entry.put("reason", reason);
                excluded.add(entry);
                continue;
            }
            TurnVerdict v = verdicts.of(r.sessionId(), r.turn());
            String cell = switch (v.status()) {
                case NONE -> "primary";
                case EXPECTED_VARIANT -> "variant:" + v.variant();
                default -> "exploratory";
            };
            entry.put("cell", cell);
            joined.add(entry);
            cells.computeIfAbsent(cell, k -> new ArrayList<>()).add(r.line());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("schema", "warden.telemetry.join/1");
        out.put("pin", pin.toJson());
        Map<String, Object> cellCounts = new LinkedHashMap<>();
        for (Map.Entry<String, List<Object>> e : cells.entrySet()) {
            cellCounts.put(e.getKey(), (long) e.getValue().size());
        }
        out.put("cells", cellCounts);
        out.put("joined", joined);
        out.put("excluded", excluded);
        return out;
    }

    private static String exclusion(TelemetryPin pin, UsageRecord r, Verdicts verdicts) {
        if (r.duplicateOf() != null) {
            return "duplicate_usage: repeats " + r.duplicateOf() + " (same message id)";
        }
        if (r.client() == null || !r.client().equals(pin.client())) {
            return "client_mismatch: " + r.client() + " is not the pinned " + pin.client();
        }
        if (r.clientVersion() == null || r.model() == null) {
            return "identity_unproven: the record does not state its " + (r.clientVersion() == null ? "client version" : "model");
        }
        if (!r.clientVersion().equals(pin.clientVersion())) {
            return "client_version_mismatch: " + r.clientVersion() + " is not the pinned " + pin.clientVersion();
        }
        if (!r.model().equals(pin.model())) {
            return "model_mismatch: " + r.model() + " is not the pinned " + pin.model();
        }
        TurnVerdict v = verdicts.of(r.sessionId(), r.turn());
        if (v == null) {
            return "no_preflight: turn " + r.turn() + " has no inventory verdict (missing manifest voids the turn)";
        }
        if (v.condition() != null && !v.condition().equals(pin.condition())) {
            return v.condition().equals("unknown")
                    ? "condition_unproven: no SessionStart record says whether turn " + r.turn() + " is fresh or continued"
                    : "condition_mismatch: turn " + r.turn() + " ran " + v.condition() + ", the pin is " + pin.condition();
        }
        if (v.status() == DriftStatus.INVALIDATING) {
            return "turn_voided: inventory_drift INVALIDATING on turn " + r.turn();
        }
        return null;
    }
}
