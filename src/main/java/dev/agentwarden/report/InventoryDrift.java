package dev.agentwarden.report;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.inventory.DriftStatus;
import dev.agentwarden.inventory.TurnRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report's inventory drift per turn, from the per-turn inventory records
 * ({@link TurnRecords}, {@code .warden/state/inventory/turns/}): for each turn index, across sessions,
 * how many turns were classified under each {@link DriftStatus} against the preregistration
 * ({@code unclassified}: recorded without one), how many were incomplete snapshots, and how many
 * saw another inventory than the session's record before (same {@code inventory_sha256} or not).
 * A record taken before {@code since} is not counted but is still the baseline of the next one.
 */
final class InventoryDrift {
    /** Turn indexes shown one per row; later turns are summed into one row labelled {@code >= MAX_TURN_ROWS}. */
    static final int MAX_TURN_ROWS = 200;
    static final String UNCLASSIFIED = "unclassified";
    /** Columns counted per row, in order: each {@link DriftStatus}, then {@link #UNCLASSIFIED}. */
    static final List<String> STATUSES;

    static {
        List<String> s = new ArrayList<>();
        for (DriftStatus d : DriftStatus.values()) {
            s.add(d.name());
        }
        s.add(UNCLASSIFIED);
        STATUSES = List.copyOf(s);
    }

    /** Per row: turns, each status, incomplete, changed. */
    private static final int TURNS = 0;
    private static final int FIRST_STATUS = 1;
    private static final int INCOMPLETE = FIRST_STATUS + DriftStatus.values().length + 1;
    private static final int CHANGED = INCOMPLETE + 1;
    private static final int COLUMNS = CHANGED + 1;

    private final String sinceIso;
    private final Map<Long, long[]> byTurn = new TreeMap<>();
    private final long[] total = new long[COLUMNS];
    private long sessions;
    private long sessionStarts;
    private long changedAtStart;

    InventoryDrift(String sinceIso) {
        this.sinceIso = sinceIso;
    }

    /** Adds the records of the project at {@code root}. */
    void read(String root) throws IOException {
        List<Map<String, Object>> records = new TurnRecords(Path.of(root), WorkspaceRoot.stateHome(root)).readAll();
        String session = null;
        String previousHash = null;
        for (Map<String, Object> r : records) {
            String id = String.valueOf(r.get("session_id"));
            if (!id.equals(session)) {
                session = id;
                previousHash = null;
                sessions++;
            }
            String hash = r.get("inventory_sha256") instanceof String h ? h : null;
            boolean changed = previousHash != null && hash != null && !hash.equals(previousHash);
            if (hash != null) {
                previousHash = hash;
            }
            String taken = r.get("taken_at") instanceof String t ? t : null;
            if (sinceIso != null && (taken == null || taken.compareTo(sinceIso) < 0)) {
                continue;
            }
            if (!TurnRecords.TURN.equals(r.get("phase"))) {
                sessionStarts++;
                changedAtStart += changed ? 1 : 0;
                continue;
            }
            long index = r.get("turn_index") instanceof Long n ? n : -1;
            long[] row = byTurn.computeIfAbsent(index < 0 || index >= MAX_TURN_ROWS ? (long) MAX_TURN_ROWS : index,
                    k -> new long[COLUMNS]);
            int status = STATUSES.indexOf(r.get("inventory_drift") instanceof String s ? s : UNCLASSIFIED);
            for (long[] into : new long[][] {row, total}) {
                into[TURNS]++;
                into[FIRST_STATUS + (status < 0 ? STATUSES.size() - 1 : status)]++;
                into[INCOMPLETE] += Boolean.FALSE.equals(r.get("complete")) ? 1 : 0;
                into[CHANGED] += changed ? 1 : 0;
            }
        }
    }

    Map<String, Object> toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("sessions", sessions);
        o.put("session_starts", sessionStarts);
        o.put("changed_at_session_start", changedAtStart);
        o.put("total", row(null, total));
        List<Object> rows = new ArrayList<>();
        byTurn.forEach((turn, n) -> rows.add(row(turn, n)));
        o.put("per_turn", rows);
        o.put("max_turn_rows", (long) MAX_TURN_ROWS);
        return o;
    }

    private static Map<String, Object> row(Long turn, long[] n) {
        Map<String, Object> o = new LinkedHashMap<>();
        if (turn != null) {
            o.put("turn", turn == MAX_TURN_ROWS ? ">=" + MAX_TURN_ROWS + " or unnumbered" : String.valueOf(turn));
        }
        o.put("turns", n[TURNS]);
        for (int i = 0; i < STATUSES.size(); i++) {
            o.put(STATUSES.get(i), n[FIRST_STATUS + i]);
        }
        o.put("incomplete", n[INCOMPLETE]);
        o.put("changed", n[CHANGED]);
        return o;
    }
}
