package dev.agentwarden.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table an e2e run prints: one row per scenario with host, scenario, expected, observed and
 * the outcome, then the environment notes and a total wall-time line.
 *
 * <p>A row starts as FAIL ("not reached"): only a scenario that got through all its assertions
 * marks it PASS, and a scenario that could not run marks it SKIP with the reason, so nothing that
 * was not checked is reported as passing.
 */
final class E2eSummary {
    /** Cells are cut to this many characters; full detail is in the assertion messages. */
    static final int CELL_CHARS = 110;

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
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    synchronized Row row(String host, String scenario, String expected) {
        Row row = new Row(host, scenario, expected);
        rows.add(row);
        return row;
    }

    /** An environment line printed under the table (host version, confinement, skips). */
    synchronized void note(String line) {
        notes.add(line);
    }

    synchronized String render() {
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

    private static String cut(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= CELL_CHARS ? one : one.substring(0, CELL_CHARS - 1) + "…";
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
