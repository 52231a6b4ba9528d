package dev.agentwarden.report;

import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.guard.GuardDerivation;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerReader;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStats;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code warden report}: the decision log and the ledger of one or more projects read once each,
 * streamed ({@link DecisionReader#readFields} in chunks on several threads; the ledger likewise, each
 * line read in place once for both {@link LedgerStats} and {@link GuardDerivation}: {@link LedgerPass}),
 * and summed up as one
 * JSON-shaped model ({@link #toJson}) that the terminal summary ({@link ReportText}) and the HTML page
 * ({@link ReportHtml}) render.
 */
public final class Report {
    /** Rows kept of each ranked list (most refused, busiest sessions). */
    static final int TOP = 20;
    /** Hour buckets shown as such up to this many; beyond, decisions over time are shown per day. */
    static final int MAX_HOURS = 72;
    /** Views the data on disk does not support yet, each with why. */
    static final List<String> MISSING = List.of();

    private final Map<String, Object> json;

    private Report(Map<String, Object> json) {
        this.json = json;
    }

    /**
     * Reads {@code roots}' decision logs (from {@code sinceIso} on, all when {@code null}) and ledgers.
     *
     * @param progress where long reads report how far they are (a bar on a terminal)
     */
    public static Report read(List<String> roots, String sinceIso, Clock clock, ReadProgress progress) throws IOException {
        DecisionStats stats = new DecisionStats(sinceIso);
        long unreadable = 0;
        List<Object> subagents = new ArrayList<>();
        List<Object> guard = new ArrayList<>();
        InventoryDrift drift = new InventoryDrift(sinceIso);
        for (String root : roots) {
            drift.read(root);
            DecisionReader reader = new DecisionReader(root);
            for (DecisionStats part : reader.readFields(sinceIso == null ? null : sinceIso.substring(0, 7), progress,
                    DecisionStats.TOP_KEYS, DecisionStats.CONCERN_KEYS, () -> new DecisionStats(sinceIso))) {
                stats.merge(part);
            }
            unreadable += reader.unreadable();
            LedgerPaths paths = LedgerPaths.forRoot(root);
            Instant since = sinceIso == null ? null : Instant.parse(sinceIso);
            List<LedgerPass> passes = LedgerReader.scanInParts(paths, progress,
                    () -> new LedgerPass(paths, LedgerSettings.DEFAULTS, since));
            List<LedgerReader.LineVisitor> statsParts = new ArrayList<>();
            List<LedgerReader.LineVisitor> guardParts = new ArrayList<>();
            for (LedgerPass pass : passes) {
                statsParts.add(pass.stats);
                guardParts.add(pass.guard);
            }
            Map<String, Object> ledger = LedgerStats.combine(paths, LedgerSettings.DEFAULTS, clock, statsParts).toJson();
            ledger.put("project", root);
            subagents.add(ledger);
            Map<String, Object> derived = GuardDerivation.combine(since, guardParts).toJson();
            derived.put("project", root);
            guard.add(derived);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("generated", clock.instant().toString());
        o.put("since", sinceIso);
        o.put("projects", new ArrayList<>(roots));
        o.put("decisions", decisions(stats, unreadable));
        o.put("subagents", subagents);
        o.put("spawn_guard", guard);
        o.put("inventory_drift", drift.toJson());
        o.put("missing", MISSING);
        return new Report(o);
    }

    /** The model: plain maps, lists, strings and numbers. */
    public Map<String, Object> toJson() {
        return json;
    }

    /** The decisions view of {@code s} (package-private: tests build it from a full parse of each line). */
    static Map<String, Object> decisions(DecisionStats s, long unreadable) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("total", s.decisions);
        d.put("first", s.first);
        d.put("last", s.last);
        d.put("unreadable_lines", unreadable);
        d.put("over_time", overTime(s));
        List<Object> concerns = new ArrayList<>();
        s.concerns.forEach((name, n) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", name);
            for (int i = 0; i < DecisionStats.OUTCOMES.size(); i++) {
                row.put(DecisionStats.OUTCOMES.get(i), n[i]);
            }
            concerns.add(row);
        });
        d.put("concerns", concerns);
        List<Map.Entry<String, long[]>> refused = new ArrayList<>(s.refused.entrySet());
        refused.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Long.compare(b.getValue()[0], a.getValue()[0])
                : a.getKey().compareTo(b.getKey()));
        List<Object> most = new ArrayList<>();
        for (Map.Entry<String, long[]> e : refused.subList(0, Math.min(TOP, refused.size()))) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("asked", e.getKey());
            row.put("count", e.getValue()[0]);
            most.add(row);
        }
        d.put("most_refused", most);
        d.put("sessions", sessions(s));
        List<Object> latency = new ArrayList<>();
        s.latency.forEach((key, dist) -> {
            String[] he = key.split("\t", 2);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("host", he[0]);
            row.put("event", he[1]);
            row.put("n", dist.count());
            row.put("p50_us", dist.percentile(50));
            row.put("p90_us", dist.percentile(90));
            row.put("p99_us", dist.percentile(99));
            row.put("max_us", dist.max());
            latency.add(row);
        });
        d.put("latency", latency);
        Map<String, Object> integrity = new LinkedHashMap<>();
        integrity.put("HALT_CORRUPT", 0L);
        integrity.put("UNKNOWN_HALT", 0L);
        s.integrity.forEach((k, n) -> integrity.put(k, n[0]));
        d.put("integrity", integrity);
        return d;
    }

    private static Map<String, Object> overTime(DecisionStats s) {
        boolean daily = s.perHour.size() > MAX_HOURS;
        Map<String, long[]> buckets = new java.util.TreeMap<>();
        s.perHour.forEach((hour, n) -> {
            long[] into = buckets.computeIfAbsent(daily ? hour.substring(0, 10) : hour + ":00Z",
                    k -> new long[n.length]);
            for (int i = 0; i < n.length; i++) {
                into[i] += n[i];
            }
        });
        List<Object> rows = new ArrayList<>();
        buckets.forEach((t, n) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("t", t);
            for (int i = 0; i < DecisionStats.VERDICTS.size(); i++) {
                row.put(DecisionStats.VERDICTS.get(i), n[i]);
            }
            row.put("other", n[DecisionStats.VERDICTS.size()]);
            rows.add(row);
        });
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("bucket", daily ? "day" : "hour");
        o.put("rows", rows);
        return o;
    }

    private static Map<String, Object> sessions(DecisionStats s) {
        long withBlock = 0;
        long withHalt = 0;
        List<Map.Entry<String, DecisionStats.Session>> all = new ArrayList<>(s.sessions.entrySet());
        for (Map.Entry<String, DecisionStats.Session> e : all) {
            withBlock += e.getValue().counts[1 + 2] > 0 ? 1 : 0;
            withHalt += e.getValue().counts[1 + 3] > 0 ? 1 : 0;
        }
        all.sort((a, b) -> a.getValue().counts[0] != b.getValue().counts[0]
                ? Long.compare(b.getValue().counts[0], a.getValue().counts[0]) : a.getKey().compareTo(b.getKey()));
        List<Object> top = new ArrayList<>();
        for (Map.Entry<String, DecisionStats.Session> e : all.subList(0, Math.min(TOP, all.size()))) {
            Map<String, Object> row = new LinkedHashMap<>();
            long[] n = e.getValue().counts;
            row.put("session", e.getKey());
            row.put("decisions", n[0]);
            for (int i = 0; i < DecisionStats.VERDICTS.size(); i++) {
                row.put(DecisionStats.VERDICTS.get(i), n[1 + i]);
            }
            row.put("outcome", n[4] > 0 ? "halted" : n[3] > 0 ? "refused" : n[2] > 0 ? "warned" : "clean");
            row.put("first", e.getValue().first);
            row.put("last", e.getValue().last);
            top.add(row);
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("total", (long) s.sessions.size());
        o.put("with_block", withBlock);
        o.put("with_halt", withHalt);
        o.put("top", top);
        struck(s, o);
        return o;
    }

    /**
     * Sessions with strikes (docs/escalation.md): how many, how many escalated, and the top ones by
     * escalations then strikes, each with the most strikes a line of it recorded.
     */
    private static void struck(DecisionStats s, Map<String, Object> o) {
        List<Map.Entry<String, DecisionStats.Session>> struck = new ArrayList<>();
        long escalated = 0;
        for (Map.Entry<String, DecisionStats.Session> e : s.sessions.entrySet()) {
            if (e.getValue().strikes > 0 || e.getValue().escalations > 0) {
                struck.add(e);
                escalated += e.getValue().escalations > 0 ? 1 : 0;
            }
        }
        struck.sort((a, b) -> a.getValue().escalations != b.getValue().escalations
                ? Long.compare(b.getValue().escalations, a.getValue().escalations)
                : a.getValue().strikes != b.getValue().strikes ? Long.compare(b.getValue().strikes, a.getValue().strikes)
                : a.getKey().compareTo(b.getKey()));
        List<Object> rows = new ArrayList<>();
        for (Map.Entry<String, DecisionStats.Session> e : struck.subList(0, Math.min(TOP, struck.size()))) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("session", e.getKey());
            row.put("strikes", e.getValue().strikes);
            row.put("escalations", e.getValue().escalations);
            row.put("first", e.getValue().first);
            row.put("last", e.getValue().last);
            rows.add(row);
        }
        o.put("with_strikes", (long) struck.size());
        o.put("with_escalation", escalated);
        o.put("struck", rows);
    }
}
