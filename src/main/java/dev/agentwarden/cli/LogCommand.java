package dev.agentwarden.cli;

import dev.agentwarden.decision.DecisionFilter;
import dev.agentwarden.decision.DecisionPrune;
import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.decision.DecisionSummary;
import dev.agentwarden.decision.DecisionTail;
import dev.agentwarden.decision.ProjectRegistry;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
            description = "Only decisions since today (midnight, local time), an age ago (90s, 30m, 2h, 7d), a date "
                    + "(2026-11-01, local midnight) or an ISO instant.")
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

    @Option(names = "--utc", description = "Times in UTC (default: local time); dates of --since at UTC midnight.")
    boolean utc;

    @Option(names = "--all-projects", description = "Every project this user's Warden has written decisions for "
            + "(the registry under Warden's user state), not only this one.")
    boolean allProjects;

    @Option(names = "--follow", description = "After the last decisions, print new ones as they are written, until interrupted (Ctrl-C).")
    boolean follow;

    /** The clock --since ages count back from. */
    Clock clock = Clock.systemUTC();
    /** The zone times are shown in without --utc. */
    ZoneId zone = ZoneId.systemDefault();
    /** How often --follow looks for new decisions. */
    Duration followEvery = Duration.ofMillis(250);

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> env = WardenCli.env(spec);
        ZoneId shown = utc ? ZoneOffset.UTC : zone;
        DecisionFilter filter;
        try {
            filter = new DecisionFilter(since == null ? null : sinceIso(since, clock, shown), session, event, verdict,
                    concern, shadow);
        } catch (IllegalArgumentException e) {
            err.println("warden log: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        if (verdict != null && !List.of("allow", "warn", "block", "halt").contains(verdict)) {
            err.println("warden log: --verdict is allow, warn, block or halt, not '" + verdict + "'");
            return ExitCode.UNREADABLE.code();
        }
        List<String> roots;
        try {
            roots = projects(allProjects, project, env);
        } catch (IOException e) {
            err.println("warden log: cannot read the project registry " + ProjectRegistry.file(env) + ": " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        long unreadable = 0;
        if (summary) {
            DecisionSummary s = new DecisionSummary(filter);
            for (String root : roots) {
                DecisionReader reader = new DecisionReader(root);
                for (DecisionSummary part : reader.readSummaryFields(filter.fromMonth(),
                        ReadProgress.onStderr("warden log: reading decisions"), () -> new DecisionSummary(filter))) {
                    s.merge(part);
                }
                unreadable += reader.unreadable();
            }
            if (output.json) {
                Map<String, Object> json = s.toJson();
                json.put("unreadable_lines", unreadable);
                out.println(Json.write(json));
            } else {
                s.printText(out);
            }
        } else {
            int keep = Math.max(1, limit);
            // tails first: a decision written while the history is read is then shown twice at worst, never missed
            List<DecisionTail> tails = new ArrayList<>();
            if (follow) {
                for (String root : roots) {
                    tails.add(DecisionTail.atEnd(root));
                }
            }
            List<Map<String, Object>> last = new ArrayList<>();
            for (String root : roots) {
                DecisionReader reader = new DecisionReader(root);
                last.addAll(lastMatching(reader, filter, keep, allProjects ? root : null));
                unreadable += reader.unreadable();
            }
            if (roots.size() > 1) {
                last.sort(Comparator.comparing(d -> String.valueOf(d.get("ts"))));
                last = new ArrayList<>(last.subList(Math.max(0, last.size() - keep), last.size()));
            }
            Table table = new Table(shown, allProjects);
            if (output.json && !follow) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("decisions", last);
                json.put("unreadable_lines", unreadable);
                out.println(Json.write(json));
            } else if (output.json) {
                for (Map<String, Object> d : last) {
                    out.println(Json.write(d));
                }
            } else {
                table.print(out, last);
                if (last.isEmpty() && !follow) {
                    out.println("no decisions" + (!filter.equals(DecisionFilter.ALL) ? " match"
                            : allProjects ? " recorded in any registered project (" + ProjectRegistry.file(env) + ")"
                            : " recorded under " + dev.agentwarden.decision.DecisionLog.dir(roots.get(0))));
                }
            }
            if (follow) {
                out.flush();
                follow(tails, filter, table, out, last);
            }
        }
        if (unreadable > 0 && !output.json) {
            err.println("warden log: skipped " + unreadable + " unreadable line(s)");
        }
        return ExitCode.OK.code();
    }

    /** The roots a command reads: this project, or every registered one that still has a decision log. */
    static List<String> projects(boolean all, ProjectDirOption project, Map<String, String> env) throws IOException {
        if (!all) {
            return List.of(project.root(env));
        }
        List<String> roots = new ArrayList<>();
        for (String root : ProjectRegistry.roots(env)) {
            if (Files.isDirectory(dev.agentwarden.decision.DecisionLog.dir(root), LinkOption.NOFOLLOW_LINKS)) {
                roots.add(root);
            }
        }
        return roots;
    }

    /** The newest {@code keep} decisions of {@code reader} that match, oldest first; each tagged with its project when {@code root} is given. */
    private static List<Map<String, Object>> lastMatching(DecisionReader reader, DecisionFilter filter, int keep, String root)
            throws IOException {
        ArrayDeque<Map<String, Object>> last = new ArrayDeque<>(Math.min(keep, 1024));
        reader.read(filter.fromMonth(), d -> {
            if (filter.matches(d)) {
                if (last.size() == keep) {
                    last.removeFirst();
                }
                if (root != null) {
                    d.put("project", root);
                }
                last.addLast(d);
            }
        });
        return new ArrayList<>(last);
    }

    /** Prints each new matching decision of {@code roots} as it is written, until the thread is interrupted. */
    private void follow(List<DecisionTail> tails, DecisionFilter filter, Table table, PrintWriter out,
                        List<Map<String, Object>> shown) throws IOException {
        boolean first = true;
        while (!Thread.currentThread().isInterrupted()) {
            for (DecisionTail tail : tails) {
                boolean firstPoll = first;
                tail.poll(d -> {
                    if (!filter.matches(d)) {
                        return;
                    }
                    if (firstPoll && (shown.contains(d) || allProjects && shown.contains(withProject(d, tail.root())))) {
                        return;
                    }
                    if (allProjects) {
                        d.put("project", tail.root());
                    }
                    if (output.json) {
                        out.println(Json.write(d));
                    } else {
                        table.print(out, List.of(d));
                    }
                });
            }
            out.flush();
            first = false;
            try {
                Thread.sleep(followEvery.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Map<String, Object> withProject(Map<String, Object> d, String root) {
        Map<String, Object> copy = new LinkedHashMap<>(d);
        copy.put("project", root);
        return copy;
    }

    /** The decision table of {@code decisions}, times in local time. */
    static void printTable(PrintWriter out, Iterable<Map<String, Object>> decisions) {
        new Table(ZoneId.systemDefault(), false).print(out, decisions);
    }

    /** The decision table; its header is printed before the first row it prints. */
    static final class Table {
        private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        /** Widest {@code asked} shown in the table (--json has it whole). */
        static final int ASKED_WIDTH = 48;
        private final ZoneId zone;
        private final boolean projects;
        private boolean header;

        Table(ZoneId zone, boolean projects) {
            this.zone = zone;
            this.projects = projects;
        }

        void print(PrintWriter out, Iterable<Map<String, Object>> decisions) {
            for (Map<String, Object> d : decisions) {
                if (!header) {
                    out.printf("%-19s %s%-7s %-18s %-10s %-7s %-8s %-" + ASKED_WIDTH + "s %s%n",
                            "TIME (" + (zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId()) + ")",
                            projects ? String.format("%-16s ", "PROJECT") : "", "HOST", "EVENT", "TOOL", "VERDICT",
                            "EMITTED", "ASKED", "CHAIN (concern=outcome)");
                    header = true;
                }
                out.printf("%-19s %s%-7s %-18s %-10s %-7s %-8s %-" + ASKED_WIDTH + "s %s%n", time(d.get("ts"), zone),
                        projects ? String.format("%-16s ", projectName(d.get("project"))) : "", d.get("host"),
                        d.get("native_event") != null ? d.get("native_event") : d.get("event"),
                        d.get("tool") == null ? "-" : d.get("tool"), d.get("verdict"), d.get("emitted"),
                        asked(d.get("asked")), chain(d));
            }
        }

        /** A log timestamp in {@code zone}, to the second; as written when it is not an instant. */
        static String time(Object ts, ZoneId zone) {
            if (!(ts instanceof String s)) {
                return String.valueOf(ts);
            }
            try {
                return LOCAL.format(Instant.parse(s).atZone(zone));
            } catch (DateTimeParseException e) {
                return s;
            }
        }

        /** {@code asked} on one line, cut to {@link #ASKED_WIDTH}; {@code -} when absent. */
        static String asked(Object asked) {
            if (!(asked instanceof String s) || s.isEmpty()) {
                return "-";
            }
            StringBuilder sb = new StringBuilder(Math.min(s.length(), ASKED_WIDTH));
            for (int i = 0; i < s.length() && sb.length() < ASKED_WIDTH; i++) {
                char c = s.charAt(i);
                sb.append(c < ' ' || c == 0x7f ? ' ' : c);
            }
            if (s.length() > ASKED_WIDTH) {
                sb.setLength(ASKED_WIDTH - 1);
                sb.append('…');
            }
            return sb.toString();
        }

        private static String projectName(Object root) {
            if (root == null) {
                return "-";
            }
            Path name = Path.of(root.toString()).getFileName();
            String s = name == null ? root.toString() : name.toString();
            return s.length() > 16 ? s.substring(0, 15) + "…" : s;
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
        if (d.get("strikes") instanceof Number n) {
            sb.append(sb.length() == 0 ? "" : " ").append("[strike ").append(n)
                    .append(d.get("escalated") == null ? "" : ", escalated to " + d.get("escalated")).append(']');
        }
        if (d.get("problem") != null) {
            sb.append(sb.length() == 0 ? "" : " ").append("[").append(d.get("problem"))
                    .append(d.get("fail_mode") == null ? "" : ", fail " + d.get("fail_mode")).append("]");
        }
        return sb.length() == 0 ? "(nothing bound)" : sb.toString();
    }

    /** {@link #sinceIso(String, Clock, ZoneId)} with dates at UTC midnight. */
    static String sinceIso(String since, Clock clock) {
        return sinceIso(since, clock, ZoneOffset.UTC);
    }

    /**
     * {@code --since}: {@code today} (midnight in {@code zone}), an age back from now ({@code 2h}), a date
     * (midnight in {@code zone}) or an instant, as a log timestamp.
     */
    static String sinceIso(String since, Clock clock, ZoneId zone) {
        String s = since.trim();
        Instant at;
        try {
            if (s.equals("today")) {
                at = LocalDate.now(clock.withZone(zone)).atStartOfDay(zone).toInstant();
            } else if (s.equals("yesterday")) {
                at = LocalDate.now(clock.withZone(zone)).minusDays(1).atStartOfDay(zone).toInstant();
            } else if (s.length() >= 2 && Character.isDigit(s.charAt(0)) && "smhd".indexOf(s.charAt(s.length() - 1)) >= 0
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
                at = LocalDate.parse(s).atStartOfDay(zone).toInstant();
            } else {
                at = Instant.parse(s);
            }
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("--since is today, an age (90s, 30m, 2h, 7d), a date (2026-11-01) "
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

        @Option(names = "--before", paramLabel = "DATE",
                description = "A date (2026-11-01) or month (2026-11): segments of earlier months are removed whole."
                        + " Default: the managed retention (retention in /etc/agent-warden/settings.json).")
        String before;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            dev.agentwarden.managed.ManagedLayer.State managed = dev.agentwarden.managed.ManagedLayer.load();
            int retention = managed.settings().retentionDays();
            if (before == null) {
                if (retention == 0) {
                    spec.commandLine().getErr().println("warden log prune: name --before DATE (no managed retention is set)");
                    return ExitCode.UNREADABLE.code();
                }
                before = dev.agentwarden.decision.DecisionLog.cutoffMonth(System.currentTimeMillis(), retention);
            } else if (retention > 0) {
                String cutoff = dev.agentwarden.decision.DecisionLog.cutoffMonth(System.currentTimeMillis(), retention);
                if (cutoff.compareTo(before.length() >= 7 ? before.substring(0, 7) : before) > 0) {
                    out.println("the managed retention (" + retention + " days) removes segments before " + cutoff
                            + ", later than " + before);
                    before = cutoff;
                }
            }
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
