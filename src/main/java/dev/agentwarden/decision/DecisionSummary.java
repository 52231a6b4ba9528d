package dev.agentwarden.decision;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code warden log --summary}: decisions counted per host × event × verdict, each concern's
 * outcomes, and for shadow concerns how often they would have blocked.
 */
public final class DecisionSummary implements DecisionReader.Sink {
    private final DecisionFilter filter;
    private long decisions;
    private final Map<String, long[]> byHostEventVerdict = new TreeMap<>();
    private final Map<String, Map<String, Long>> byConcern = new TreeMap<>();
    private final Map<String, long[]> shadow = new TreeMap<>();

    public DecisionSummary(DecisionFilter filter) {
        this.filter = filter;
    }

    @Override
    public void accept(Map<String, Object> d) {
        if (!filter.matches(d)) {
            return;
        }
        decisions++;
        String key = d.get("host") + "\t" + (d.get("native_event") != null ? d.get("native_event") : d.get("event"))
                + "\t" + d.get("verdict");
        byHostEventVerdict.computeIfAbsent(key, k -> new long[1])[0]++;
        for (Map<String, Object> c : DecisionFilter.concerns(d)) {
            String name = String.valueOf(c.get("name"));
            byConcern.computeIfAbsent(name, k -> new TreeMap<>()).merge(String.valueOf(c.get("outcome")), 1L, Long::sum);
            if ("shadow".equals(c.get("posture")) && !"skipped".equals(c.get("outcome"))) {
                long[] s = shadow.computeIfAbsent(name, k -> new long[2]);
                s[0]++;
                if (Boolean.TRUE.equals(c.get("would_block"))) {
                    s[1]++;
                }
            }
        }
    }

    /** Adds the counts of {@code other}, the summary of other decisions under the same filter. */
    public void merge(DecisionSummary other) {
        decisions += other.decisions;
        other.byHostEventVerdict.forEach((k, n) -> byHostEventVerdict.computeIfAbsent(k, x -> new long[1])[0] += n[0]);
        other.byConcern.forEach((name, outcomes) -> {
            Map<String, Long> mine = byConcern.computeIfAbsent(name, x -> new TreeMap<>());
            outcomes.forEach((o, n) -> mine.merge(o, n, Long::sum));
        });
        other.shadow.forEach((name, s) -> {
            long[] mine = shadow.computeIfAbsent(name, x -> new long[2]);
            mine[0] += s[0];
            mine[1] += s[1];
        });
    }

    public long decisions() {
        return decisions;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("decisions", decisions);
        List<Object> rows = new ArrayList<>();
        byHostEventVerdict.forEach((k, n) -> {
            String[] p = k.split("\t", -1);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("host", p[0]);
            row.put("event", p[1]);
            row.put("verdict", p[2]);
            row.put("count", n[0]);
            rows.add(row);
        });
        out.put("by_host_event_verdict", rows);
        Map<String, Object> concerns = new LinkedHashMap<>();
        byConcern.forEach((name, outcomes) -> concerns.put(name, new LinkedHashMap<>(outcomes)));
        out.put("by_concern", concerns);
        Map<String, Object> shadows = new LinkedHashMap<>();
        shadow.forEach((name, s) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("runs", s[0]);
            row.put("would_block", s[1]);
            row.put("would_block_rate", s[0] == 0 ? 0.0 : (double) s[1] / s[0]);
            shadows.put(name, row);
        });
        out.put("shadow", shadows);
        return out;
    }

    public void printText(PrintWriter out) {
        out.println(decisions + " decisions");
        out.println();
        out.printf("%-10s %-22s %-7s %8s%n", "HOST", "EVENT", "VERDICT", "COUNT");
        byHostEventVerdict.forEach((k, n) -> {
            String[] p = k.split("\t", -1);
            out.printf("%-10s %-22s %-7s %8d%n", p[0], p[1], p[2], n[0]);
        });
        out.println();
        out.printf("%-28s %s%n", "CONCERN", "OUTCOMES");
        byConcern.forEach((name, outcomes) -> {
            StringBuilder sb = new StringBuilder();
            outcomes.forEach((o, n) -> sb.append(sb.length() == 0 ? "" : "  ").append(o).append('=').append(n));
            out.printf("%-28s %s%n", name, sb);
        });
        if (!shadow.isEmpty()) {
            out.println();
            out.printf("%-28s %6s %12s %6s%n", "SHADOW CONCERN", "RUNS", "WOULD BLOCK", "RATE");
            shadow.forEach((name, s) -> out.printf("%-28s %6d %12d %5.1f%%%n", name, s[0], s[1],
                    s[0] == 0 ? 0.0 : 100.0 * s[1] / s[0]));
        }
    }
}
