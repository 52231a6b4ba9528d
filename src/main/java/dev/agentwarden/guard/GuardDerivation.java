package dev.agentwarden.guard;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.ledger.Distribution;
import dev.agentwarden.ledger.LedgerLine;
import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.ledger.LedgerLine.Key;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerProblem;
import dev.agentwarden.ledger.LedgerReader;
import dev.agentwarden.ledger.NameCounts;
import dev.agentwarden.ledger.PairwiseMerge;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code warden guard derive}: the spawn guard's threshold, derived from its own lines as the
 * activation policy prescribes. It reads every {@code spawn_guard_shadow} and {@code spawn_guard}
 * line (since a date) and reports the distribution of {@code concurrent_open} at spawn time and of
 * real spawn depth (only lines whose depth rests on the caller's open record), the threshold
 * p99 + 1 of each with its sample size, each recorded candidate's would-deny rate, and whether the
 * policy's measurable flip criteria hold: a window of at least 100 observations or 2 weeks, and
 * at most 1% false positives. Every observed spawn counts as legitimate, so a would-deny is a
 * false positive.
 */
public final class GuardDerivation {
    static final long MIN_OBSERVATIONS = 100;
    static final Duration MIN_WINDOW = Duration.ofDays(14);
    static final double MAX_FALSE_POSITIVE_RATE = 0.01;
    /** Criteria of the activation policy that no ledger can show; people check them. */
    static final List<String> UNCHECKED = List.of(
            "the failure was observed (a runaway fan-out or nesting actually happened)",
            "the cost it avoids exceeds the friction of a refusal",
            "the window includes at least one run of the targeted shape");

    private GuardDerivation() {
    }

    /** Would-deny counts of one candidate label. */
    static final class CandidateTally {
        long observations;
        long wouldDeny;
        Object maxDepth;
        Object maxConcurrent;

        double rate() {
            return observations == 0 ? 0 : (double) wouldDeny / observations;
        }
    }

    /** The derivation over one window. */
    public static final class Report {
        final Instant since;
        final Distribution concurrency = new Distribution();
        final Distribution depth = new Distribution();
        final Map<String, CandidateTally> candidates = new LinkedHashMap<>();
        /** Lines per posture (listed by name). */
        final NameCounts postures = new NameCounts();
        final List<LedgerProblem> problems = new ArrayList<>();
        long acted;
        long unreadable;
        Instant first;
        Instant last;

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

        Report(Instant since) {
            this.since = since;
        }

        /** Adds the derivation of {@code later}, over the lines after this one's. */
        void merge(Report later) {
            concurrency.merge(later.concurrency);
            depth.merge(later.depth);
            later.candidates.forEach((label, c) -> {
                CandidateTally t = candidates.computeIfAbsent(label, k -> new CandidateTally());
                t.observations += c.observations;
                t.wouldDeny += c.wouldDeny;
                t.maxDepth = c.maxDepth;
                t.maxConcurrent = c.maxConcurrent;
            });
            postures.addAll(later.postures);
            problems.addAll(later.problems);
            acted += later.acted;
            unreadable += later.unreadable;
            if (later.first != null && (first == null || later.first.isBefore(first))) {
                first = later.first;
            }
            if (later.last != null && (last == null || later.last.isAfter(last))) {
                last = later.last;
            }
        }

        public long observations() {
            return concurrency.count();
        }

        /** p99 + 1 of {@code concurrent_open}, or {@code null} without observations. */
        public Long concurrencyThreshold() {
            Long p99 = concurrency.percentile(99);
            return p99 == null ? null : p99 + 1;
        }

        /** p99 + 1 of real spawn depth, or {@code null} without usable depth observations. */
        public Long depthThreshold() {
            Long p99 = depth.percentile(99);
            return p99 == null ? null : p99 + 1;
        }

        public boolean windowHolds() {
            return observations() >= MIN_OBSERVATIONS
                    || first != null && Duration.between(first, last).compareTo(MIN_WINDOW) >= 0;
        }

        private double derivedFalsePositiveRate() {
            Long t = concurrencyThreshold();
            return t == null ? 0 : (double) concurrency.atLeast(t) / observations();
        }

        public Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("since", since == null ? null : since.toString());
            o.put("observations", observations());
            o.put("first", first == null ? null : first.toString());
            o.put("last", last == null ? null : last.toString());
            o.put("postures", new LinkedHashMap<>(postures.byName()));
            o.put("acted", acted);
            o.put("concurrent_open", distribution(concurrency, concurrencyThreshold()));
            o.put("spawn_depth", distribution(depth, depthThreshold()));
            Map<String, Object> cands = new LinkedHashMap<>();
            candidates.forEach((label, c) -> {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("max_depth", c.maxDepth);
                x.put("max_concurrent", c.maxConcurrent);
                x.put("observations", c.observations);
                x.put("would_deny", c.wouldDeny);
                x.put("would_deny_rate", c.rate());
                x.put("flip_criteria_hold", windowHolds() && c.rate() <= MAX_FALSE_POSITIVE_RATE);
                cands.put(label, x);
            });
            o.put("candidates", cands);
            Map<String, Object> flip = new LinkedHashMap<>();
            flip.put("window_holds", windowHolds());
            flip.put("min_observations", MIN_OBSERVATIONS);
            flip.put("min_window_days", MIN_WINDOW.toDays());
            flip.put("max_false_positive_rate", MAX_FALSE_POSITIVE_RATE);
            flip.put("derived_false_positive_rate", derivedFalsePositiveRate());
            flip.put("derived_threshold_ready", observations() > 0 && windowHolds()
                    && derivedFalsePositiveRate() <= MAX_FALSE_POSITIVE_RATE);
            flip.put("unchecked", UNCHECKED);
            o.put("flip", flip);
            o.put("skipped_lines", (long) problems.size());
            o.put("unreadable_ts", unreadable);
            return o;
        }

        private static Map<String, Object> distribution(Distribution d, Long threshold) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("n", d.count());
            Map<String, Object> hist = new LinkedHashMap<>();
            d.histogram().forEach((v, n) -> hist.put(String.valueOf(v), n));
            o.put("histogram", hist);
            o.put("p50", d.percentile(50));
            o.put("p90", d.percentile(90));
            o.put("p99", d.percentile(99));
            o.put("max", d.max());
            o.put("threshold_p99_plus_1", threshold);
            return o;
        }

        public void printText(PrintWriter out) {
            out.printf("spawn-guard observations: %d%s%s%n", observations(),
                    since == null ? "" : " since " + since,
                    first == null ? "" : " (" + first + " .. " + last + ")");
            if (observations() == 0) {
                out.println("no spawn_guard lines yet: bind spawn-guard (posture: shadow) and let agents spawn subagents");
                return;
            }
            out.println("postures seen: " + postures.byName() + (acted > 0 ? ", acted on " + acted : ""));
            if (!problems.isEmpty()) {
                out.println((problems.size() - unreadSegments().size()) + " ledger line(s) skipped as torn, "
                        + unreadSegments().size() + " segment(s) NOT READ; see `warden ledger verify`");
            }
            out.println();
            printDistribution(out, "concurrent_open at spawn time", concurrency, concurrencyThreshold());
            printDistribution(out, "real spawn depth (caller's open record)", depth, depthThreshold());
            out.println("candidates (would-deny rate = false positives, every observed spawn counted legitimate):");
            candidates.forEach((label, c) -> out.printf(Locale.ROOT, "  %-10s max_depth=%-4s max_concurrent=%-4s %5d of %5d  %6.2f%%  %s%n",
                    label, c.maxDepth, c.maxConcurrent, c.wouldDeny, c.observations, c.rate() * 100,
                    c.rate() <= MAX_FALSE_POSITIVE_RATE ? "fp ok" : "fp over 1%"));
            out.println();
            out.printf("flip criteria: window %s (%d observations, needs >= %d or >= %d days)%n",
                    windowHolds() ? "holds" : "not yet", observations(), MIN_OBSERVATIONS, MIN_WINDOW.toDays());
            out.printf(Locale.ROOT, "               false positives at the derived threshold %.2f%% (<= 1%%)%n",
                    derivedFalsePositiveRate() * 100);
            out.println("               not checkable from the ledger: " + String.join("; ", UNCHECKED));
            out.println();
            out.println((windowHolds() ? "to enforce the derived threshold" : "once the window holds, to enforce")
                    + ", set in the manifest:");
            out.println("  spawn-guard:");
            out.println("    posture: blocking");
            out.println("    candidates:");
            Long d = depthThreshold();
            out.println("      - {label: derived, " + (d == null ? "" : "max_depth: " + d + ", ")
                    + "max_concurrent: " + concurrencyThreshold() + "}");
            out.println("    enforce: derived");
        }

        private static void printDistribution(PrintWriter out, String title, Distribution d, Long threshold) {
            out.println(title + ": n=" + d.count());
            if (d.count() == 0) {
                out.println("  (none: no caller agent_id with an open record; depth arm decides nothing)");
                out.println();
                return;
            }
            long max = d.histogram().values().stream().mapToLong(Long::longValue).max().orElse(1);
            d.histogram().forEach((v, n) -> out.printf(Locale.ROOT, "  %4d | %-40s %d%n", v,
                    "#".repeat((int) Math.max(1, n * 40 / max)), n));
            out.printf("  p50=%d p90=%d p99=%d max=%d  ->  threshold p99+1 = %d (n=%d)%n%n", d.percentile(50),
                    d.percentile(90), d.percentile(99), d.max(), threshold, d.count());
        }
    }

    /**
     * Derives from the ledger.
     *
     * @param since only lines at or after this instant, or {@code null} for all
     */
    public static Report derive(LedgerPaths paths, Instant since) throws IOException {
        return derive(paths, since, ReadProgress.NONE);
    }

    /** {@link #derive(LedgerPaths, Instant)}, showing {@code progress} while the ledger is read. */
    public static Report derive(LedgerPaths paths, Instant since, ReadProgress progress) throws IOException {
        return combine(since, LedgerReader.scanInParts(paths, progress, () -> part(since)));
    }

    /**
     * A visitor that derives from one chunk of the ledger, for a reader that reads the ledger once
     * for several views ({@code warden report}); {@link #combine} joins such parts, in chain order.
     */
    public static LedgerReader.LineVisitor part(Instant since) {
        return new Part(new Report(since));
    }

    /** The derivation of {@code parts} (made by {@link #part} with the same {@code since}, in chain order). */
    public static Report combine(Instant since, List<? extends LedgerReader.LineVisitor> parts) {
        List<Report> level = new ArrayList<>(parts.size() + 1);
        level.add(new Report(since));
        for (LedgerReader.LineVisitor part : parts) {
            level.add(((Part) part).report);
        }
        return PairwiseMerge.inChainOrder(level, Report::merge);
    }

    /** The derivation over one chunk of the ledger. */
    private static final class Part implements LedgerReader.LineVisitor {
        final Report report;

        Part(Report report) {
            this.report = report;
        }

        @Override
        public void entry(String segment, long number, LedgerLine.View e, byte[] bytes, int from, int to) {
            if (!e.is(Event.SPAWN_GUARD_SHADOW) && !e.is(Event.SPAWN_GUARD)) {
                return;
            }
            Instant ts;
            try {
                ts = e.instant(Key.TS);
            } catch (DateTimeParseException ex) {
                report.unreadable++;
                return;
            }
            Long concurrent = e.integer(Key.CONCURRENT_OPEN);
            if (report.since != null && ts.isBefore(report.since) || concurrent == null) {
                return;
            }
            add(report, e, ts, concurrent);
        }

        @Override
        public void problem(LedgerProblem problem) {
            report.problems.add(problem);
        }

        @Override
        public void partRead() {
            report.concurrency.fold();
            report.depth.fold();
        }
    }

    private static void add(Report report, LedgerLine.View e, Instant ts, long concurrent) {
        report.concurrency.add(concurrent);
        Long depth = e.integer(Key.SPAWN_DEPTH);
        if (e.isTrue(Key.DEPTH_USABLE_FOR_DERIVATION) && depth != null) {
            report.depth.add(depth);
        }
        report.postures.add(String.valueOf(e.string(Key.POSTURE)), 1);
        if (e.isTrue(Key.ACTED)) {
            report.acted++;
        }
        if (report.first == null || ts.isBefore(report.first)) {
            report.first = ts;
        }
        if (report.last == null || ts.isAfter(report.last)) {
            report.last = ts;
        }
        List<LedgerLine.View> candidates = e.objects(Key.CANDIDATES);
        for (int i = 0; i < candidates.size(); i++) {
            LedgerLine.View c = candidates.get(i);
            String label = c.string(Key.LABEL);
            if (label == null) {
                continue;
            }
            CandidateTally t = report.candidates.get(label);
            if (t == null) {
                t = new CandidateTally();
                report.candidates.put(label, t);
            }
            t.observations++;
            if (c.isTrue(Key.WOULD_DENY)) {
                t.wouldDeny++;
            }
            t.maxDepth = c.value(Key.MAX_DEPTH);
            t.maxConcurrent = c.value(Key.MAX_CONCURRENT);
        }
    }
}
