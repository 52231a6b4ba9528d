package dev.agentwarden.cli;

import dev.agentwarden.cli.DoctorCommand.Finding;
import dev.agentwarden.cli.DoctorCommand.Section;
import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.decision.DecisionReader;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Doctor's check of the decision log: the last decisions, and the errors among them; an error younger
 * than {@link #ERROR_WINDOW} and not acknowledged ({@link ErrorAck}) is a problem, an older one a note.
 */
final class RecentDecisionsCheck {
    /** Decisions and errors shown from the log. */
    static final int RECENT = 5;
    /** Errors younger than this are problems; older ones are shown as notes. */
    static final Duration ERROR_WINDOW = Duration.ofHours(24);

    /** The clock recent errors are judged by. */
    private final Clock clock;

    RecentDecisionsCheck(Clock clock) {
        this.clock = clock;
    }

    /** The last decisions and errors from the newest segment(s) of the decision log. */
    record Recent(Section section, ArrayDeque<Map<String, Object>> decisions,
                          ArrayDeque<Map<String, Object>> errors) {
    }

    Recent run(String root) {
        List<Finding> found = new ArrayList<>();
        Section section = new Section("decision log: " + DecisionLog.dir(root), found);
        ArrayDeque<Map<String, Object>> last = new ArrayDeque<>();
        ArrayDeque<Map<String, Object>> errors = new ArrayDeque<>();
        DecisionReader reader = new DecisionReader(root);
        try {
            List<String> months = DecisionReader.months(root);
            if (months.isEmpty()) {
                found.add(Finding.note("no decisions recorded yet"));
                return new Recent(section, last, errors);
            }
            // the newest two segments: the last decisions, whatever day of the month it is
            reader.read(months.get(Math.max(0, months.size() - 2)), d -> {
                keep(last, d);
                if (isError(d)) {
                    keep(errors, d);
                }
            });
        } catch (IOException | RuntimeException e) {
            found.add(Finding.problem("cannot read the decision log: " + e.getMessage(),
                    "check " + DecisionLog.dir(root) + " (it must be a directory of this user's, not a link)"));
            return new Recent(section, last, errors);
        }
        found.add(Finding.ok("last " + last.size() + " decision(s) (all: `warden log`)"));
        if (reader.unreadable() > 0) {
            found.add(Finding.note(reader.unreadable() + " unreadable line(s) skipped"));
        }
        String since = clock.instant().minus(ERROR_WINDOW).toString();
        ErrorAck.Read acked = ErrorAck.read(Path.of(root));
        if (acked.problem() != null) {
            found.add(Finding.note(acked.problem()));
        }
        int recentErrors = 0;
        for (Map<String, Object> d : errors) {
            String ts = String.valueOf(d.get("ts"));
            boolean isAcked = ErrorAck.covers(acked.upTo(), ts);
            boolean fresh = ts.compareTo(since) >= 0 && !isAcked;
            recentErrors += fresh ? 1 : 0;
            String text = "error at " + d.get("ts") + " on " + d.get("host") + " " + d.get("native_event") + ": " + errorOf(d)
                    + (isAcked ? " (acknowledged)" : "");
            found.add(fresh ? Finding.problem(text, "warden log --since 24h shows them; fix the concern or setting named,"
                    + " then `warden doctor --ack`") : Finding.note(text));
        }
        if (errors.isEmpty()) {
            found.add(Finding.ok("no errors among the recent decisions"));
        } else if (recentErrors == 0) {
            found.add(Finding.note("no errors in the last " + ERROR_WINDOW.toHours() + " h"));
        }
        return new Recent(section, last, errors);
    }

    private static void keep(ArrayDeque<Map<String, Object>> q, Map<String, Object> d) {
        if (q.size() == RECENT) {
            q.removeFirst();
        }
        q.addLast(d);
    }

    /** A decision where something failed: a concern erred or timed out, Warden had a problem, or a fail mode decided. */
    static boolean isError(Map<String, Object> d) {
        if (d.get("problem") != null || d.get("fail_mode") != null) {
            return true;
        }
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c && ("error".equals(c.get("outcome")) || "timeout".equals(c.get("outcome")))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String errorOf(Map<String, Object> d) {
        List<String> parts = new ArrayList<>();
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c && ("error".equals(c.get("outcome")) || "timeout".equals(c.get("outcome")))) {
                    parts.add("concern " + c.get("name") + " " + c.get("outcome"));
                }
            }
        }
        if (d.get("problem") != null) {
            parts.add(String.valueOf(d.get("problem")));
        }
        if (d.get("fail_mode") != null) {
            parts.add("fail mode " + d.get("fail_mode") + " decided");
        }
        return String.join(", ", parts);
    }
}
