package dev.agentwarden.cli;

import dev.agentwarden.decision.DecisionFilter;
import dev.agentwarden.decision.DecisionPrune;
import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.decision.DecisionSummary;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warden log}: what Warden decided, from the decision log ({@code .warden/state/decisions/}). */
@Command(name = "log", description = "Show what Warden decided: the last decisions with each concern's outcome, "
        + "or --summary counts; from .warden/state/decisions/.", subcommands = LogCommand.Prune.class)
final class LogCommand implements Callable<Integer> {
    /** Decisions shown when no --limit is given. */
    static final int DEFAULT_LIMIT = 50;

    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption output;

    @Mixin
    ProjectDirOption project;

    @Option(names = "--since", paramLabel = "AGE|DATE",
            description = "Only decisions since an age ago (90s, 30m, 2h, 7d) or a date (2026-11-01, or an ISO instant).")
    String since;

    @Option(names = "--session", paramLabel = "ID", description = "Only this session_id.")
    String session;

    @Option(names = "--event", paramLabel = "E", description = "Only this event, canonical (pre_tool_use) or native (PreToolUse).")
    String event;

    @Option(names = "--verdict", paramLabel = "V", description = "Only this verdict: allow, warn, block or halt.")
    String verdict;

    @Option(names = "--concern", paramLabel = "NAME", description = "Only decisions in which this concern ran.")
    String concern;

    @Option(names = "--shadow", description = "Only decisions in which a shadow concern would have blocked.")
    boolean shadow;

    @Option(names = "--summary", description = "Counts per host x event x verdict, per concern outcome, and shadow would-block rates.")
    boolean summary;

    @Option(names = "--limit", paramLabel = "N", description = "How many of the newest matching decisions to show (default: 50).")
    int limit = DEFAULT_LIMIT;

    /** The clock --since ages count back from. */
    Clock clock = Clock.systemUTC();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DecisionFilter filter;
        try {
            filter = new DecisionFilter(since == null ? null : sinceIso(since, clock), session, event, verdict,
                    concern, shadow);
        } catch (IllegalArgumentException e) {
            err.println("warden log: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        if (verdict != null && !List.of("allow", "warn", "block", "halt").contains(verdict)) {
            err.println("warden log: --verdict is allow, warn, block or halt, not '" + verdict + "'");
            return ExitCode.UNREADABLE.code();
        }
        String root = project.root();
        DecisionReader reader = new DecisionReader(root);
        if (summary) {
            DecisionSummary s = new DecisionSummary(filter);
            for (DecisionSummary part : reader.readSummaryFields(filter.fromMonth(),
                    ReadProgress.onStderr("warden log: reading decisions"), () -> new DecisionSummary(filter))) {
                s.merge(part);
            }
            if (output.json) {
                Map<String, Object> json = s.toJson();
                json.put("unreadable_lines", reader.unreadable());
                out.println(Json.write(json));
            } else {
                s.printText(out);
            }
        } else {
            int keep = Math.max(1, limit);
            ArrayDeque<Map<String, Object>> last = new ArrayDeque<>(Math.min(keep, 1024));
            reader.read(filter.fromMonth(), d -> {
                if (filter.matches(d)) {
                    if (last.size() == keep) {
                        last.removeFirst();
                    }
                    last.addLast(d);
                }
            });
            if (output.json) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("decisions", new ArrayList<Object>(last));
                json.put("unreadable_lines", reader.unreadable());
                out.println(Json.write(json));
            } else {
                printTable(out, last);
                if (last.isEmpty()) {
                    out.println("no decisions" + (filter.equals(DecisionFilter.ALL) ? " recorded under "
                            + dev.agentwarden.decision.DecisionLog.dir(root) : " match"));
                }
            }
        }
        if (reader.unreadable() > 0 && !output.json) {
            err.println("warden log: skipped " + reader.unreadable() + " unreadable line(s)");
        }
        return ExitCode.OK.code();
    }

    static void printTable(PrintWriter out, Iterable<Map<String, Object>> decisions) {
        boolean header = false;
        for (Map<String, Object> d : decisions) {
            if (!header) {
                out.printf("%-24s %-7s %-18s %-10s %-7s %-8s %s%n", "TIME (UTC)", "HOST", "EVENT", "TOOL", "VERDICT",
                        "EMITTED", "CHAIN (concern=outcome)");
                header = true;
            }
            out.printf("%-24s %-7s %-18s %-10s %-7s %-8s %s%n", d.get("ts"), d.get("host"),
                    d.get("native_event") != null ? d.get("native_event") : d.get("event"),
                    d.get("tool") == null ? "-" : d.get("tool"), d.get("verdict"), d.get("emitted"), chain(d));
        }
    }

    @SuppressWarnings("unchecked")
    private static String chain(Map<String, Object> d) {
        StringBuilder sb = new StringBuilder();
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof Map)) {
                    continue;
                }
                Map<String, Object> c = (Map<String, Object>) o;
                sb.append(sb.length() == 0 ? "" : " ").append(c.get("name")).append('=').append(c.get("outcome"));
                if ("skipped".equals(c.get("outcome")) && c.get("skipped") != null) {
                    sb.append('(').append(c.get("skipped")).append(')');
                } else if ("shadow".equals(c.get("posture"))) {
                    sb.append(Boolean.TRUE.equals(c.get("would_block")) ? "(shadow: would block)" : "(shadow)");
                } else if (c.get("effective") != null && !c.get("effective").equals(c.get("outcome"))) {
                    sb.append("→").append(c.get("effective"));
                }
            }
        }
        if (d.get("problem") != null) {
            sb.append(sb.length() == 0 ? "" : " ").append("[").append(d.get("problem"))
                    .append(d.get("fail_mode") == null ? "" : ", fail " + d.get("fail_mode")).append("]");
        }
        return sb.length() == 0 ? "(nothing bound)" : sb.toString();
    }

    /** {@code --since}: an age back from now ({@code 2h}) or a date or instant, as a log timestamp. */
    static String sinceIso(String since, Clock clock) {
        String s = since.trim();
        Instant at;
        try {
            if (s.length() >= 2 && Character.isDigit(s.charAt(0)) && "smhd".indexOf(s.charAt(s.length() - 1)) >= 0
                    && s.substring(0, s.length() - 1).chars().allMatch(Character::isDigit)) {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                Duration age = switch (s.charAt(s.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
                at = clock.instant().minus(age);
            } else if (s.length() == 10) {
                at = LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            } else {
                at = Instant.parse(s);
            }
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--since is an age (90s, 30m, 2h, 7d) or a date (2026-11-01) "
                    + "or an ISO instant (2026-11-01T12:00:00Z), not '" + since + "'");
        }
        return dev.agentwarden.ledger.UtcTime.iso(at.toEpochMilli());
    }

    /** {@code warden log prune --before DATE}. */
    @Command(name = "prune", description = "Remove the monthly decision-log segments that lie wholly before DATE.")
    static final class Prune implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ProjectDirOption project;

        @Option(names = "--before", required = true, paramLabel = "DATE",
                description = "A date (2026-11-01) or month (2026-11): segments of earlier months are removed whole.")
        String before;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            LocalDate date;
            try {
                date = LocalDate.parse(before.length() == 7 ? before + "-01" : before);
            } catch (DateTimeParseException e) {
                spec.commandLine().getErr().println("warden log prune: --before is a date (2026-11-01) or a month "
                        + "(2026-11), not '" + before + "'");
                return ExitCode.UNREADABLE.code();
            }
            String month = date.toString().substring(0, 7);
            DecisionPrune.Result r = DecisionPrune.before(project.root(), month, date.getDayOfMonth() == 1);
            out.println(r.removed().isEmpty() ? "no segment lies wholly before " + date
                    : "removed " + String.join(", ", r.removed()));
            if (r.keptPartial() != null) {
                out.println("kept " + r.keptPartial() + ".jsonl whole: it also holds decisions on or after " + date
                        + " (segments are removed a month at a time)");
            }
            return ExitCode.OK.code();
        }
    }
}
