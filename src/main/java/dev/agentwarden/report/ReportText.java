package dev.agentwarden.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** The terminal summary of a {@link Report}. */
public final class ReportText {
    private ReportText() {
    }

    @SuppressWarnings("unchecked")
    public static void print(Report report, PrintWriter out) {
        Map<String, Object> r = report.toJson();
        Map<String, Object> d = (Map<String, Object>) r.get("decisions");
        out.printf("warden report: %d project(s)%s%n", ((List<?>) r.get("projects")).size(),
                r.get("since") == null ? "" : ", since " + r.get("since"));
        out.printf("%d decisions%s%n", (Long) d.get("total"),
                d.get("first") == null ? "" : " from " + d.get("first") + " to " + d.get("last"));
        long[] verdicts = new long[DecisionStats.VERDICTS.size()];
        for (Object o : (List<Object>) ((Map<String, Object>) d.get("over_time")).get("rows")) {
            Map<String, Object> row = (Map<String, Object>) o;
            for (int i = 0; i < verdicts.length; i++) {
                verdicts[i] += (Long) row.get(DecisionStats.VERDICTS.get(i));
            }
        }
        StringBuilder v = new StringBuilder();
        for (int i = 0; i < verdicts.length; i++) {
            v.append(i == 0 ? "" : "  ").append(DecisionStats.VERDICTS.get(i)).append('=').append(verdicts[i]);
        }
        out.println("verdicts: " + v);
        Map<String, Object> sessions = (Map<String, Object>) d.get("sessions");
        out.printf("sessions: %d (%d with a refusal, %d halted)%n", sessions.get("total"), sessions.get("with_block"),
                sessions.get("with_halt"));
        out.printf("strikes: %d session(s) with strikes, %d escalated%n", sessions.get("with_strikes"),
                sessions.get("with_escalation"));
        for (Object o : (List<Object>) sessions.get("struck")) {
            Map<String, Object> row = (Map<String, Object>) o;
            out.printf("  %-40s %3d strikes %3d escalations  last %s%n", oneLine((String) row.get("session"), 40),
                    row.get("strikes"), row.get("escalations"), row.get("last"));
        }
        out.println();
        out.println("MOST REFUSED");
        List<Object> refused = (List<Object>) d.get("most_refused");
        if (refused.isEmpty()) {
            out.println("  (none)");
        }
        for (Object o : refused.subList(0, Math.min(10, refused.size()))) {
            Map<String, Object> row = (Map<String, Object>) o;
            out.printf("  %6d  %s%n", row.get("count"), oneLine((String) row.get("asked"), 100));
        }
        out.println();
        out.printf("%-28s %7s %7s %7s %7s %7s %11s%n", "CONCERN", "ALLOW", "WARN", "BLOCK", "HALT", "ERROR", "WOULD BLOCK");
        for (Object o : (List<Object>) d.get("concerns")) {
            Map<String, Object> c = (Map<String, Object>) o;
            out.printf("%-28s %7d %7d %7d %7d %7d %11d%n", c.get("name"), c.get("allow"), c.get("warn"), c.get("block"),
                    c.get("halt"), (Long) c.get("error") + (Long) c.get("timeout"), c.get("would_block"));
        }
        out.println();
        out.printf("%-10s %-22s %8s %9s %9s %9s%n", "HOST", "EVENT", "HOOKS", "P50 ms", "P90 ms", "P99 ms");
        for (Object o : (List<Object>) d.get("latency")) {
            Map<String, Object> l = (Map<String, Object>) o;
            out.printf("%-10s %-22s %8d %9s %9s %9s%n", l.get("host"), l.get("event"), l.get("n"), ms(l.get("p50_us")),
                    ms(l.get("p90_us")), ms(l.get("p99_us")));
        }
        out.println();
        out.println("integrity: " + d.get("integrity"));
        for (Object o : (List<Object>) r.get("subagents")) {
            Map<String, Object> s = (Map<String, Object>) o;
            Map<String, Object> all = (Map<String, Object>) s.get("all");
            Map<String, Object> open = (Map<String, Object>) s.get("open_now");
            out.printf("subagents (%s): %d started, %d stopped, %d never returned (reaped), %d open (%d stale); "
                            + "duration p50/p90/p99 %s/%s/%s ms%n", s.get("project"), all.get("starts"), all.get("stops"),
                    all.get("reaped"), (Long) open.get("live") + (Long) open.get("stale"), open.get("stale"),
                    all.get("duration_p50_ms"), all.get("duration_p90_ms"), all.get("duration_p99_ms"));
        }
        for (Object o : (List<Object>) r.get("spawn_guard")) {
            Map<String, Object> g = (Map<String, Object>) o;
            Map<String, Object> conc = (Map<String, Object>) g.get("concurrent_open");
            out.printf("spawn guard (%s): %d observations; derived concurrency p99+1 = %s%n", g.get("project"),
                    g.get("observations"), conc == null ? "-" : conc.get("threshold_p99_plus_1"));
            Map<String, Object> candidates = (Map<String, Object>) g.get("candidates");
            if (candidates != null) {
                candidates.forEach((label, c) -> out.printf("  %-12s would deny %5.1f%%%n", label,
                        100 * ((Number) ((Map<String, Object>) c).get("would_deny_rate")).doubleValue()));
            }
        }
        inventoryDrift(out, (Map<String, Object>) r.get("inventory_drift"));
        for (Object m : (List<Object>) r.get("missing")) {
            out.println("not in this report: " + m);
        }
    }

    @SuppressWarnings("unchecked")
    private static void inventoryDrift(PrintWriter out, Map<String, Object> drift) {
        Map<String, Object> total = (Map<String, Object>) drift.get("total");
        out.printf("inventory drift: %d turn(s) recorded in %d session(s)%n", total.get("turns"), drift.get("sessions"));
        if ((Long) total.get("turns") == 0) {
            return;
        }
        StringBuilder header = new StringBuilder(String.format("  %-8s %6s", "TURN", "TURNS"));
        for (String s : InventoryDrift.STATUSES) {
            header.append(String.format(" %16s", s));
        }
        out.println(header.append(String.format(" %10s %8s", "INCOMPLETE", "CHANGED")));
        List<Object> rows = new java.util.ArrayList<>((List<Object>) drift.get("per_turn"));
        rows.add(withTurn(total, "(all)"));
        int shown = 0;
        for (Object o : rows) {
            Map<String, Object> row = (Map<String, Object>) o;
            if (shown++ == 20 && rows.size() > 21) {
                out.printf("  … %d more turn rows (see --json or --html)%n", rows.size() - 21);
            }
            if (shown > 20 && shown < rows.size()) {
                continue;
            }
            StringBuilder line = new StringBuilder(String.format("  %-8s %6d", oneLine((String) row.get("turn"), 8),
                    (Long) row.get("turns")));
            for (String s : InventoryDrift.STATUSES) {
                line.append(String.format(" %16d", (Long) row.get(s)));
            }
            out.println(line.append(String.format(" %10d %8d", (Long) row.get("incomplete"), (Long) row.get("changed"))));
        }
    }

    private static Map<String, Object> withTurn(Map<String, Object> row, String turn) {
        Map<String, Object> o = new java.util.LinkedHashMap<>();
        o.put("turn", turn);
        o.putAll(row);
        return o;
    }

    static String ms(Object us) {
        return us == null ? "-" : String.format("%.1f", ((Number) us).longValue() / 1000.0);
    }

    static String oneLine(String s, int max) {
        String t = s == null ? "-" : s.replace('\n', ' ').replace('\r', ' ');
        return t.length() > max ? t.substring(0, max - 1) + "…" : t;
    }
}
