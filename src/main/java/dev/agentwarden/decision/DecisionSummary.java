package dev.agentwarden.decision;

import dev.agentwarden.json.FieldScanner;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code warden log --summary}: decisions counted per host × event × verdict, each concern's
 * outcomes, and for shadow concerns how often they would have blocked.
 *
 * <p>Without a filter, a line the reader scanned in place is counted from its scanned fields
 * ({@link #acceptScanned}), with no map built, when its counted fields are strings, null or absent;
 * any other line is counted from its map ({@link #accept}), with the same result.
 */
public final class DecisionSummary implements DecisionReader.ScannedSink {
    private final DecisionFilter filter;
    private final boolean unfiltered;
    private long decisions;
    private final Map<String, long[]> byHostEventVerdict = new TreeMap<>();
    private final Map<String, Map<String, long[]>> byConcern = new TreeMap<>();
    private final Map<String, long[]> shadow = new TreeMap<>();
    /** Counters of {@link #byHostEventVerdict} by host, then event, then verdict. */
    private final Map<String, Map<String, Map<String, long[]>>> counters = new HashMap<>();
    /** Counters of {@link #byConcern} by concern, then outcome. */
    private final Map<String, Map<String, long[]>> outcomeCounters = new HashMap<>();
    private final Map<String, long[]> shadowCounters = new HashMap<>();
    private String[] names = new String[8];
    private String[] outcomes = new String[8];
    private boolean[] shadows = new boolean[8];
    private boolean[] wouldBlock = new boolean[8];

    public DecisionSummary(DecisionFilter filter) {
        this.filter = filter;
        this.unfiltered = DecisionFilter.ALL.equals(filter);
    }

    @Override
    public void accept(Map<String, Object> d) {
        if (!filter.matches(d)) {
            return;
        }
        decisions++;
        counter(String.valueOf(d.get("host")),
                String.valueOf(d.get("native_event") != null ? d.get("native_event") : d.get("event")),
                String.valueOf(d.get("verdict")))[0]++;
        for (Map<String, Object> c : DecisionFilter.concerns(d)) {
            String name = String.valueOf(c.get("name"));
            String outcome = String.valueOf(c.get("outcome"));
            count(name, outcome, "shadow".equals(c.get("posture")), Boolean.TRUE.equals(c.get("would_block")));
        }
    }

    @Override
    public boolean acceptScanned(FieldScanner top, FieldScanner concern) {
        if (!unfiltered) {
            return false;
        }
        String host = text(top, DecisionReader.HOST);
        byte nativeKind = top.kind(DecisionReader.NATIVE_EVENT);
        String event = nativeKind == FieldScanner.NULL || nativeKind == FieldScanner.ABSENT
                ? text(top, DecisionReader.EVENT) : text(top, DecisionReader.NATIVE_EVENT);
        String verdict = text(top, DecisionReader.VERDICT);
        if (host == null || event == null || verdict == null) {
            return false;
        }
        int n = 0;
        int list = DecisionReader.CONCERNS;
        if (top.kind(list) == FieldScanner.ARRAY) {
            byte[] b = top.bytes();
            int end = top.end(list) - 1;
            int p = top.start(list) + 1;
            boolean objects = true;
            while ((p = FieldScanner.nextElement(b, p, end)) < end) {
                byte c = b[p];
                if (c != '{' || !objects) {
                    objects = false;
                    p = FieldScanner.valueEnd(b, p, end);
                    continue;
                }
                p = concern.scanObject(b, p, end);
                if (p < 0) {
                    return false;
                }
                String name = text(concern, DecisionReader.NAME);
                String outcome = text(concern, DecisionReader.OUTCOME);
                if (name == null || outcome == null) {
                    return false;
                }
                if (n == names.length) {
                    grow();
                }
                names[n] = name;
                outcomes[n] = outcome;
                shadows[n] = concern.stringIs(DecisionReader.POSTURE, SHADOW);
                wouldBlock[n] = concern.kind(DecisionReader.WOULD_BLOCK) == FieldScanner.TRUE;
                n++;
            }
            if (!objects) {
                n = 0;
            }
        }
        decisions++;
        counter(host, event, verdict)[0]++;
        for (int i = 0; i < n; i++) {
            count(names[i], outcomes[i], shadows[i], wouldBlock[i]);
        }
        return true;
    }

    private static final String NULL = "null";
    private static final byte[] SHADOW = {'s', 'h', 'a', 'd', 'o', 'w'};

    /** A string field's value, {@code "null"} for JSON null or absent (as {@code String.valueOf} gives), or {@code null} for any other kind. */
    private static String text(FieldScanner s, int key) {
        byte kind = s.kind(key);
        if (kind == FieldScanner.STRING) {
            return s.sharedString(key);
        }
        return kind == FieldScanner.NULL || kind == FieldScanner.ABSENT ? NULL : null;
    }

    private void grow() {
        names = Arrays.copyOf(names, names.length * 2);
        outcomes = Arrays.copyOf(outcomes, outcomes.length * 2);
        shadows = Arrays.copyOf(shadows, shadows.length * 2);
        wouldBlock = Arrays.copyOf(wouldBlock, wouldBlock.length * 2);
    }

    private long[] counter(String host, String event, String verdict) {
        Map<String, long[]> byVerdict = counters.computeIfAbsent(host, k -> new HashMap<>())
                .computeIfAbsent(event, k -> new HashMap<>());
        long[] c = byVerdict.get(verdict);
        if (c == null) {
            c = byHostEventVerdict.computeIfAbsent(host + "\t" + event + "\t" + verdict, k -> new long[1]);
            byVerdict.put(verdict, c);
        }
        return c;
    }

    private void count(String name, String outcome, boolean isShadow, boolean blocks) {
        Map<String, long[]> mine = outcomeCounters.get(name);
        if (mine == null) {
            mine = new HashMap<>();
            outcomeCounters.put(name, mine);
        }
        long[] c = mine.get(outcome);
        if (c == null) {
            c = byConcern.computeIfAbsent(name, k -> new TreeMap<>()).computeIfAbsent(outcome, k -> new long[1]);
            mine.put(outcome, c);
        }
        c[0]++;
        if (isShadow && !"skipped".equals(outcome)) {
            long[] s = shadowCounters.get(name);
            if (s == null) {
                s = shadow.computeIfAbsent(name, k -> new long[2]);
                shadowCounters.put(name, s);
            }
            s[0]++;
            if (blocks) {
                s[1]++;
            }
        }
    }

    /** Adds the counts of {@code other}, the summary of other decisions under the same filter. */
    public void merge(DecisionSummary other) {
        decisions += other.decisions;
        other.byHostEventVerdict.forEach((k, n) -> byHostEventVerdict.computeIfAbsent(k, x -> new long[1])[0] += n[0]);
        other.byConcern.forEach((name, outcomes) -> {
            Map<String, long[]> mine = byConcern.computeIfAbsent(name, x -> new TreeMap<>());
            outcomes.forEach((o, n) -> mine.computeIfAbsent(o, x -> new long[1])[0] += n[0]);
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
        byConcern.forEach((name, outcomes) -> {
            Map<String, Object> counts = new LinkedHashMap<>();
            outcomes.forEach((o, n) -> counts.put(o, n[0]));
            concerns.put(name, counts);
        });
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
            outcomes.forEach((o, n) -> sb.append(sb.length() == 0 ? "" : "  ").append(o).append('=').append(n[0]));
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
