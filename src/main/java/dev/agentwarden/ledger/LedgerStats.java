package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.ledger.LedgerLine.Key;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the ledger says about subagent dispatches, per agent type: starts and stops, the
 * return-envelope verdicts and return rate, duration percentiles, stop-loss arm counts, orphan
 * stops, unidentified and reaped counts; and the Phase-1 falsifier of seed 003.
 *
 * <p>The falsifier holds when the envelope return rate ({@code ok} stops over identified stops) is
 * at least 95% and no dispatch ran longer than twice its agent type's duration budget. It is
 * {@code broken} when either part fails (the dispatches over budget are listed), and
 * {@code undetermined} when there is no stop yet or some agent type with durations has no budget.
 */
public final class LedgerStats {
    /** The falsifier's minimum envelope return rate. */
    public static final double MIN_RETURN_RATE = 0.95;
    /** The falsifier's limit, as a multiple of the duration budget. */
    public static final long BUDGET_FACTOR = 2;
    /** Dispatches over budget kept in a report; the count covers all of them. */
    static final int MAX_LISTED = 100;
    static final String NO_TYPE = "(none)";

    private LedgerStats() {
    }

    /** Aggregates for one agent type (or for all). */
    static final class Tally {
        long starts;
        long stops;
        long orphanStops;
        long unidentified;
        long reaped;
        long envelopeOk;
        /** Stops per envelope verdict (listed by name). */
        final NameCounts envelope = new NameCounts();
        /** Stops per stop-loss arm exceeded (listed in the order first seen). */
        final NameCounts arms = new NameCounts();
        final Distribution durations = new Distribution();
        Set<String> sessions = new HashSet<>();
        /** The session added last: lines of one session come in runs, and a repeat needs no set lookup. */
        private String lastSession;

        void addSession(String session) {
            if (session != lastSession) {
                sessions.add(session);
                lastSession = session;
            }
        }

        Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("starts", starts);
            o.put("stops", stops);
            o.put("orphan_stops", orphanStops);
            o.put("unidentified", unidentified);
            o.put("reaped", reaped);
            o.put("sessions", (long) sessions.size());
            o.put("envelope", new LinkedHashMap<>(envelope.byName()));
            o.put("envelope_return_rate", rate());
            o.put("duration_n", durations.count());
            o.put("duration_p50_ms", durations.percentile(50));
            o.put("duration_p90_ms", durations.percentile(90));
            o.put("duration_p99_ms", durations.percentile(99));
            o.put("duration_max_ms", durations.max());
            o.put("stop_loss_arms_exceeded", arms.inOrder());
            return o;
        }

        Double rate() {
            return stops == 0 ? null : (double) envelopeOk / stops;
        }

        /** Adds the counts of {@code later}, a tally of the lines after this one's. */
        void merge(Tally later) {
            starts += later.starts;
            stops += later.stops;
            orphanStops += later.orphanStops;
            unidentified += later.unidentified;
            reaped += later.reaped;
            envelopeOk += later.envelopeOk;
            envelope.addAll(later.envelope);
            arms.addAll(later.arms);
            durations.merge(later.durations);
            if (later.sessions.size() > sessions.size()) {
                Set<String> fewer = sessions;
                sessions = later.sessions;
                later.sessions = fewer;
            }
            sessions.addAll(later.sessions);
        }
    }

    /**
     * One dispatch that ran longer than twice its budget.
     *
     * @param ts         when it stopped
     * @param ref        its ref
     * @param session    its session label
     * @param agentType  its agent type
     * @param durationMs how long it ran
     * @param budgetMs   its type's budget
     */
    public record OverBudget(String ts, String ref, String session, String agentType, long durationMs, long budgetMs) {
        Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("ts", ts);
            o.put("ref", ref);
            o.put("session_id", session);
            o.put("agent_type", agentType);
            o.put("duration_ms", durationMs);
            o.put("budget_ms", budgetMs);
            return o;
        }
    }

    /** The stats of one ledger. */
    public static final class Report {
        final LedgerPaths paths;
        final LedgerSettings settings;
        final Map<String, Tally> byType = new TreeMap<>();
        final Tally all = new Tally();
        final List<OverBudget> overBudget = new ArrayList<>();
        final Set<String> unbudgeted = new TreeSet<>();
        final List<LedgerProblem> problems = new ArrayList<>();
        long overBudgetCount;
        long chainLines;
        /** {@code ledger_gap} lines: losses the chain itself records. */
        long gaps;
        /** Events waiting in the spool, not yet in the chain (so not in any count here). */
        long spooled;
        OpenSet open;

        Report(LedgerPaths paths, LedgerSettings settings) {
            this.paths = paths;
            this.settings = settings;
        }

        /** Adds the stats of {@code later}, the report of the lines after this one's. */
        void merge(Report later) {
            later.byType.forEach((type, t) -> byType.computeIfAbsent(type, k -> new Tally()).merge(t));
            all.merge(later.all);
            for (OverBudget b : later.overBudget) {
                if (overBudget.size() < MAX_LISTED) {
                    overBudget.add(b);
                }
            }
            overBudgetCount += later.overBudgetCount;
            unbudgeted.addAll(later.unbudgeted);
            problems.addAll(later.problems);
            chainLines += later.chainLines;
            gaps += later.gaps;
        }

        /** {@code holds}, {@code broken} or {@code undetermined}. */
        public String falsifier() {
            Double rate = all.rate();
            if (overBudgetCount > 0 || rate != null && rate < MIN_RETURN_RATE) {
                return "broken";
            }
            return rate == null || !unbudgeted.isEmpty() ? "undetermined" : "holds";
        }

        public List<OverBudget> overBudget() {
            return overBudget;
        }

        /** Segments that could not be read at all: the report leaves their lines out, so it is partial. */
        public List<LedgerProblem> unreadSegments() {
            List<LedgerProblem> out = new ArrayList<>();
            for (LedgerProblem p : problems) {
                if (p.error()) {
                    out.add(p);
                }
            }
            return out;
        }

        public Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("ledger_dir", paths.ledgerDir().toString());
            o.put("ledger_present", open.ledgerPresent());
            o.put("chain_lines", chainLines);
            o.put("torn_lines", problems.stream().filter(p -> !p.error()).count());
            o.put("unreadable_segments", problems.stream().filter(LedgerProblem::error).count());
            o.put("gaps", gaps);
            o.put("spooled", spooled);
            Map<String, Object> openNow = new LinkedHashMap<>();
            openNow.put("live", (long) open.live().size());
            openNow.put("stale", (long) open.stale().size());
            openNow.put("invalid", (long) open.invalid().size());
            o.put("open_now", openNow);
            Map<String, Object> types = new LinkedHashMap<>();
            byType.forEach((type, t) -> types.put(type, t.toJson()));
            o.put("by_agent_type", types);
            o.put("all", all.toJson());
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("verdict", falsifier());
            f.put("envelope_return_rate", all.rate());
            f.put("min_return_rate", MIN_RETURN_RATE);
            f.put("budget_factor", BUDGET_FACTOR);
            f.put("budgets_ms", new TreeMap<>(settings.budgetsMs()));
            f.put("over_budget_count", overBudgetCount);
            f.put("over_budget", overBudget.stream().map(OverBudget::toJson).toList());
            f.put("unbudgeted_types", new ArrayList<>(unbudgeted));
            o.put("falsifier", f);
            return o;
        }

        public void printText(PrintWriter out) {
            out.printf("ledger: %s (%d chain lines%s)%n", paths.ledgerDir(), chainLines,
                    problems.isEmpty() ? "" : "; " + (problems.size() - unreadSegments().size()) + " torn line(s) skipped, "
                    + unreadSegments().size() + " segment(s) NOT READ, see `warden ledger verify`");
            if (!open.ledgerPresent()) {
                out.println("no ledger yet: no subagent event has been recorded in this project");
            }
            if (gaps > 0) {
                out.printf("LOSS: %d ledger_gap line(s): the ledger lost lines or the head; counts below may be wrong"
                        + " (see `warden ledger verify`)%n", gaps);
            }
            if (spooled > 0) {
                out.printf("%d event(s) wait in the spool and are not counted yet; the next ledger write folds them in%n",
                        spooled);
            }
            out.printf("open now: %d live, %d stale, %d invalid%n%n", open.live().size(), open.stale().size(),
                    open.invalid().size());
            List<String> armLabels = new ArrayList<>(settings.armLabels());
            all.arms.inOrder().keySet().stream().filter(a -> !armLabels.contains(a)).forEach(armLabels::add);
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-20s %6s %6s %6s %6s %6s %9s %8s %8s %8s",
                    "agent type", "starts", "stops", "orphan", "unid", "reaped", "envelope", "p50", "p90", "p99"));
            armLabels.forEach(a -> header.append(String.format(Locale.ROOT, " %5s", ">" + a)));
            out.println(header);
            byType.forEach((type, t) -> out.println(row(type, t, armLabels)));
            out.println(row("(all)", all, armLabels));
            out.println();
            out.println("envelope verdicts (all): " + (all.envelope.isEmpty() ? "none" : all.envelope.byName()));
            out.println();
            Double rate = all.rate();
            out.println("Phase-1 falsifier: " + falsifier().toUpperCase(Locale.ROOT));
            out.printf("  envelope return rate %s (%d ok of %d stops), needs >= %.0f%%%n",
                    rate == null ? "n/a" : percent(rate), all.envelopeOk, all.stops, MIN_RETURN_RATE * 100);
            out.printf("  dispatches over %dx their budget: %d%n", BUDGET_FACTOR, overBudgetCount);
            for (OverBudget b : overBudget) {
                out.printf("    %s  ref %s  %s  ran %s, budget %s (limit %s)  session %s%n", b.ts(), b.ref(),
                        b.agentType() == null ? NO_TYPE : b.agentType(), DurationText.human(b.durationMs()),
                        DurationText.human(b.budgetMs()), DurationText.human(b.budgetMs() * BUDGET_FACTOR), b.session());
            }
            if (overBudgetCount > overBudget.size()) {
                out.printf("    … and %d more (see --json)%n", overBudgetCount - overBudget.size());
            }
            if (!unbudgeted.isEmpty()) {
                out.println("  no duration budget for: " + String.join(", ", unbudgeted)
                        + " (set subagent-ledger duration_budgets in the manifest)");
            }
        }

        private static String row(String type, Tally t, List<String> armLabels) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-20s %6d %6d %6d %6d %6d %9s %8s %8s %8s",
                    type.length() > 20 ? type.substring(0, 19) + "…" : type, t.starts, t.stops, t.orphanStops,
                    t.unidentified, t.reaped, t.rate() == null ? "-" : percent(t.rate()),
                    human(t.durations.percentile(50)), human(t.durations.percentile(90)), human(t.durations.percentile(99))));
            armLabels.forEach(a -> sb.append(String.format(Locale.ROOT, " %5d", t.arms.get(a))));
            return sb.toString();
        }

        private static String human(Long ms) {
            return ms == null ? "-" : DurationText.human(ms);
        }

        private static String percent(double r) {
            return String.format(Locale.ROOT, "%.1f%%", r * 100);
        }
    }

    /**
     * Merges {@code reports} (in chain order) into the first, pairwise in a tree, so that each
     * distribution is merged into a growing one about log2(parts) times rather than once per part.
     */
    static Report mergeAll(List<Report> reports) {
        return PairwiseMerge.inChainOrder(reports, Report::merge);
    }

    /** Reads the whole ledger and the open set now. */
    public static Report compute(LedgerPaths paths, LedgerSettings settings, Clock clock) throws IOException {
        return compute(paths, settings, clock, ReadProgress.NONE);
    }

    /** {@link #compute(LedgerPaths, LedgerSettings, Clock)}, showing {@code progress} while the ledger is read. */
    public static Report compute(LedgerPaths paths, LedgerSettings settings, Clock clock, ReadProgress progress)
            throws IOException {
        return combine(paths, settings, clock, LedgerReader.scanInParts(paths, progress, () -> part(paths, settings)));
    }

    /**
     * A visitor that tallies one chunk of the ledger, for a reader that reads the ledger once for
     * several views ({@code warden report}); {@link #combine} joins such parts, in chain order.
     */
    public static LedgerReader.LineVisitor part(LedgerPaths paths, LedgerSettings settings) {
        return new Part(new Report(paths, settings));
    }

    /** The report of {@code parts} (made by {@link #part}, in chain order), with the open set and spool as of now. */
    public static Report combine(LedgerPaths paths, LedgerSettings settings, Clock clock,
                                 List<? extends LedgerReader.LineVisitor> parts) throws IOException {
        List<Report> reports = new ArrayList<>(parts.size() + 1);
        reports.add(new Report(paths, settings));
        for (LedgerReader.LineVisitor part : parts) {
            reports.add(((Part) part).report);
        }
        Report report = mergeAll(reports);
        report.open = OpenSet.read(paths, clock.millis(), settings.ttlMs());
        report.spooled = Spool.pending(paths).size();
        return report;
    }

    /** The stats of one chunk of the ledger. */
    private static final class Part implements LedgerReader.LineVisitor {
        final Report report;
        /** The line's agent type's tally and the tally of all: each line counts in both. */
        private final Tally[] pair = new Tally[2];
        /** The agent type of the line before, and its tally (lines of one type come in runs). */
        private String lastType;
        private Tally lastTally;
        /** The agent type last found without a budget. */
        private String lastUnbudgeted;

        Part(Report report) {
            this.report = report;
            pair[1] = report.all;
        }

        @Override
        public void entry(String segment, long number, LedgerLine.View e, byte[] bytes, int from, int to) {
            report.chainLines++;
            if (e.is(Event.LEDGER_GAP)) {
                report.gaps++;
            }
            if (e.isSubagentEvent()) {
                add(e);
            }
        }

        @Override
        public void problem(LedgerProblem problem) {
            report.problems.add(problem);
        }

        @Override
        public void partRead() {
            report.all.durations.fold();
            for (Tally t : report.byType.values()) {
                t.durations.fold();
            }
        }

        /** Counts a {@code subagent_*} line. */
        private void add(LedgerLine.View e) {
            String type = e.string(Key.AGENT_TYPE);
            String key = type == null ? NO_TYPE : type;
            Tally t = key == lastType ? lastTally : report.byType.get(key);
            if (t == null) {
                t = new Tally();
                report.byType.put(key, t);
            }
            lastType = key;
            lastTally = t;
            pair[0] = t;
            String session = e.string(Key.SESSION_ID);
            boolean unidentified = e.isTrue(Key.UNIDENTIFIED);
            boolean stop = e.is(Event.SUBAGENT_STOP);
            boolean start = !stop && e.is(Event.SUBAGENT_START);
            boolean reaped = !stop && !start && e.is(Event.SUBAGENT_REAPED);
            boolean timed = stop && e.isInteger(Key.DURATION_MS);
            long duration = timed ? e.integerValue(Key.DURATION_MS) : 0;
            String verdict = null;
            boolean orphan = false;
            List<String> arms = List.of();
            if (stop && !unidentified) {
                verdict = e.string(Key.ENVELOPE_PARSE);
                orphan = e.isFalse(Key.START_SEEN);
                if (e.has(Key.STOP_LOSS_ARMS_EXCEEDED)) {
                    arms = e.strings(Key.STOP_LOSS_ARMS_EXCEEDED);
                }
            }
            boolean ok = verdict != null && verdict.equals(ReturnEnvelope.Verdict.OK.wire());
            for (int i = 0; i < pair.length; i++) {
                Tally x = pair[i];
                if (session != null) {
                    x.addSession(session);
                }
                if (unidentified) {
                    x.unidentified++;
                } else if (start) {
                    x.starts++;
                } else if (reaped) {
                    x.reaped++;
                } else if (stop) {
                    x.stops++;
                    if (orphan) {
                        x.orphanStops++;
                    }
                    if (verdict != null) {
                        x.envelope.add(verdict, 1);
                        if (ok) {
                            x.envelopeOk++;
                        }
                    }
                    if (timed) {
                        x.durations.add(duration);
                    }
                    for (int a = 0; a < arms.size(); a++) {
                        x.arms.add(arms.get(a), 1);
                    }
                }
            }
            if (timed) {
                Long budget = report.settings.budgetFor(type);
                if (budget == null) {
                    if (key != lastUnbudgeted) {
                        report.unbudgeted.add(key);
                        lastUnbudgeted = key;
                    }
                } else if (duration > budget * BUDGET_FACTOR) {
                    report.overBudgetCount++;
                    if (report.overBudget.size() < MAX_LISTED) {
                        report.overBudget.add(new OverBudget(e.string(Key.TS), e.string(Key.REF), session, type, duration,
                                budget));
                    }
                }
            }
        }
    }
}
