package dev.agentwarden.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The table an e2e run prints: one row per scenario with host, scenario, expected, observed and
 * the outcome, then the environment notes and a total wall-time line.
 *
 * <p>A row starts as FAIL ("not reached"): only a scenario that got through all its assertions
 * marks it PASS, and a scenario that could not run marks it SKIP with the reason, so nothing that
 * was not checked is reported as passing.
 *
 * <p>Every suite's {@link #render} also appends its rows to {@link #COMBINED} (the first append in a
 * JVM starts the file afresh), and {@link E2eSummaryPrinter} prints all suites' rows as one table,
 * host × scenario × result, when the test run ends.
 */
final class E2eSummary {
    /** Cells are cut to this many characters; full detail is in the assertion messages. */
    static final int CELL_CHARS = 110;
    /** Where every suite of this run appends its rows (tab-separated, one a line), unless {@code warden.e2e.summary} names a file. */
    static final Path COMBINED = Path.of("target", "e2e-summary.tsv");
    private static final Object COMBINED_LOCK = new Object();
    /** The file this JVM appends to, once its first suite has; null before. */
    private static Path combinedStarted;

    enum Status { PASS, FAIL, SKIP }

    /** One scenario's line. */
    static final class Row {
        private final String host;
        private final String scenario;
        private final String expected;
        private volatile String observed = "(not reached)";
        private volatile Status status = Status.FAIL;
        private volatile long millis = -1;
        private volatile long firstCallMillis = -1;
        private final long createdNanos = System.nanoTime();

        private Row(String host, String scenario, String expected) {
            this.host = host;
            this.scenario = scenario;
            this.expected = expected;
        }

        void observed(String text) {
            this.observed = text;
        }

        /** Records the host session's wall time, and when it made its first model call. */
        void timing(ClaudeRun run) {
            timing(run.process().millis(), run.firstModelCallMillis());
        }

        /** The same from raw figures, for hosts without a {@link ClaudeRun}; -1 when unknown. */
        void timing(long sessionMillis, long firstModelCallMillis) {
            this.millis = sessionMillis;
            this.firstCallMillis = firstModelCallMillis;
        }

        void pass() {
            status = Status.PASS;
        }

        void skip(String why) {
            status = Status.SKIP;
            observed = why;
        }

        Status status() {
            return status;
        }
    }

    private final long startNanos = System.nanoTime();
    /** The suite's start on the wall clock, for the span of suites that run side by side. */
    private final long startEpochMillis = System.currentTimeMillis();
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int rowsAppended;

    synchronized Row row(String host, String scenario, String expected) {
        Row row = new Row(host, scenario, expected);
        rows.add(row);
        return row;
    }

    /** An environment line printed under the table (host version, confinement, skips). */
    synchronized void note(String line) {
        notes.add(line);
    }

    /**
     * This suite's table. Also appends the rows not yet appended to {@link #COMBINED}, with one
     * {@code wall} line per host: the suite's wall time so far.
     */
    synchronized String render() {
        appendCombined();
        return table();
    }

    private String table() {
        String[] header = {"host", "scenario", "expected", "observed", "result", "host session"};
        List<String[]> lines = new ArrayList<>();
        lines.add(header);
        int pass = 0;
        int fail = 0;
        int skip = 0;
        for (Row r : rows) {
            lines.add(new String[] {r.host, r.scenario, cut(r.expected), cut(r.observed), r.status.name(),
                    r.millis < 0 ? "-" : String.format(Locale.ROOT, "%.1f s (1st call %.1f s)", r.millis / 1000.0,
                            r.firstCallMillis / 1000.0)});
            switch (r.status) {
                case PASS:
                    pass++;
                    break;
                case SKIP:
                    skip++;
                    break;
                case FAIL:
                default:
                    fail++;
                    break;
            }
        }
        int[] widths = new int[header.length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder out = new StringBuilder("\n=== Warden end-to-end: real hosts, real verdicts ===\n");
        for (int n = 0; n < lines.size(); n++) {
            out.append('|');
            for (int i = 0; i < header.length; i++) {
                out.append(' ').append(pad(lines.get(n)[i], widths[i])).append(" |");
            }
            out.append('\n');
            if (n == 0) {
                out.append('|');
                for (int w : widths) {
                    out.append("-".repeat(w + 2)).append('|');
                }
                out.append('\n');
            }
        }
        for (String note : notes) {
            out.append("  ").append(note).append('\n');
        }
        double wall = (System.nanoTime() - startNanos) / 1e9;
        out.append(String.format(Locale.ROOT, "e2e total wall time: %.1f s (%d scenarios: %d passed, %d failed, %d skipped)%n",
                wall, rows.size(), pass, fail, skip));
        return out.toString();
    }

    private void appendCombined() {
        StringBuilder out = new StringBuilder();
        for (int i = rowsAppended; i < rows.size(); i++) {
            Row r = rows.get(i);
            out.append(String.join("\t", "row", tsv(r.host), tsv(r.scenario), r.status.name(),
                    Long.toString(r.millis), tsv(cut(r.observed)))).append('\n');
        }
        for (Map.Entry<String, Long> wall : wallMillisByHost().entrySet()) {
            out.append(String.join("\t", "wall", tsv(wall.getKey()), "", "", Long.toString(wall.getValue()), "")).append('\n');
        }
        out.append(String.join("\t", "span", "", "", "", Long.toString(startEpochMillis),
                Long.toString(System.currentTimeMillis()))).append('\n');
        synchronized (COMBINED_LOCK) {
            try {
                Path file = Path.of(System.getProperty("warden.e2e.summary", COMBINED.toString())).toAbsolutePath();
                if (!file.equals(combinedStarted)) {
                    Files.createDirectories(file.getParent());
                    Files.deleteIfExists(file);
                    combinedStarted = file;
                }
                Files.writeString(file, out, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                rowsAppended = rows.size();
            } catch (IOException e) {
                System.err.println("e2e summary: could not append to the combined table: " + e);
            }
        }
    }

    /**
     * Each host's share of this suite's wall time: from the suite's start (the first host) or the
     * host's first row (a later host of the same suite) to the next host's first row, or now.
     */
    private Map<String, Long> wallMillisByHost() {
        Map<String, Long> firstRow = new LinkedHashMap<>();
        for (Row r : rows) {
            firstRow.putIfAbsent(r.host, firstRow.isEmpty() ? startNanos : r.createdNanos);
        }
        Map<String, Long> out = new LinkedHashMap<>();
        List<String> hosts = new ArrayList<>(firstRow.keySet());
        for (int i = 0; i < hosts.size(); i++) {
            long end = i + 1 < hosts.size() ? firstRow.get(hosts.get(i + 1)) : System.nanoTime();
            out.put(hosts.get(i), (end - firstRow.get(hosts.get(i))) / 1_000_000);
        }
        return out;
    }

    /** The file the suites of this JVM have appended rows to, or null when none has. */
    static Path combinedWritten() {
        synchronized (COMBINED_LOCK) {
            return combinedStarted;
        }
    }

    /** Forgets the combined file, as a fresh JVM would (for tests of this class). */
    static void forgetCombined() {
        synchronized (COMBINED_LOCK) {
            combinedStarted = null;
        }
    }

    /**
     * The one table of every suite's rows in {@link #COMBINED}: host, scenario, result and session
     * time, then per host its counts, the sum of its session times and its suite's wall time, and
     * the time from the first suite's start to the last one's end (suites run side by side, so
     * less than the sum of their wall times).
     */
    static String renderCombined(List<String> lines) {
        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"host", "scenario", "result", "host session"});
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Long> sessionMillis = new LinkedHashMap<>();
        Map<String, Long> wall = new LinkedHashMap<>();
        long firstStart = Long.MAX_VALUE;
        long lastEnd = Long.MIN_VALUE;
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length < 5) {
                continue;
            }
            long millis = parse(f[4]);
            if (f[0].equals("span")) {
                long end = f.length > 5 ? parse(f[5]) : -1;
                if (millis >= 0 && end >= millis) {
                    firstStart = Math.min(firstStart, millis);
                    lastEnd = Math.max(lastEnd, end);
                }
                continue;
            }
            if (f[0].equals("wall")) {
                wall.merge(f[1], millis, Math::max);
                continue;
            }
            table.add(new String[] {f[1], f[2], f[3], millis < 0 ? "-" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0)});
            int[] c = counts.computeIfAbsent(f[1], h -> new int[3]);
            c[f[3].equals("PASS") ? 0 : f[3].equals("SKIP") ? 2 : 1]++;
            sessionMillis.merge(f[1], Math.max(0, millis), Long::sum);
        }
        StringBuilder out = new StringBuilder("\n=== Warden end-to-end, every host: host x scenario x result ===\n");
        int[] widths = new int[4];
        for (String[] row : table) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (int n = 0; n < table.size(); n++) {
            out.append('|');
            for (int i = 0; i < widths.length; i++) {
                out.append(' ').append(pad(table.get(n)[i], widths[i])).append(" |");
            }
            out.append('\n');
            if (n == 0) {
                out.append('|');
                for (int w : widths) {
                    out.append("-".repeat(w + 2)).append('|');
                }
                out.append('\n');
            }
        }
        Set<String> hosts = new LinkedHashSet<>(counts.keySet());
        int[] total = new int[3];
        for (String host : hosts) {
            int[] c = counts.get(host);
            for (int i = 0; i < 3; i++) {
                total[i] += c[i];
            }
            out.append(String.format(Locale.ROOT, "  %s: %d passed, %d failed, %d skipped; host sessions %.1f s; suite wall %s%n",
                    host, c[0], c[1], c[2], sessionMillis.get(host) / 1000.0,
                    wall.containsKey(host) ? String.format(Locale.ROOT, "%.1f s", wall.get(host) / 1000.0) : "-"));
        }
        out.append(String.format(Locale.ROOT, "all hosts: %d passed, %d failed, %d skipped%n", total[0], total[1], total[2]));
        if (firstStart <= lastEnd) {
            long sum = 0;
            for (long w : wall.values()) {
                sum += w;
            }
            out.append(String.format(Locale.ROOT, "e2e wall time, first suite's start to last suite's end: %.1f s"
                    + " (suite wall times add up to %.1f s)%n", (lastEnd - firstStart) / 1000.0, sum / 1000.0));
        }
        return out.toString();
    }

    private static long parse(String number) {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String tsv(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    private static String cut(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= CELL_CHARS ? one : one.substring(0, CELL_CHARS - 1) + "…";
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
