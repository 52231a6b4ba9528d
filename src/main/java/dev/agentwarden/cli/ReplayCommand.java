package dev.agentwarden.cli;

import dev.agentwarden.host.Hosts;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.policytest.CaseFile;
import dev.agentwarden.policytest.CapturedEvent;
import dev.agentwarden.policytest.Captures;
import dev.agentwarden.policytest.EventRun;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code warden replay DIR|FILE.jsonl [--manifest M]}: what-if. Recorded events (a
 * {@code WARDEN_CAPTURE_DIR}, or a session file) run through dispatch, writing no state
 * ({@link EventRun}), under the manifest in force and under {@code M}; per event both verdicts,
 * then what changes.
 */
@Command(name = "replay", description = "Replay captured events (WARDEN_CAPTURE_DIR, or a session .jsonl) through "
        + "dispatch, writing no state: the verdict of the manifest in force and the one --manifest M would give.")
final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    JsonOption output;

    @Mixin
    CwdProjectOption project;

    @Parameters(paramLabel = "DIR|FILE.jsonl", description = "A capture directory (<host>-<event>-<time>.json files) "
            + "or a session file of {\"native_event\", \"payload\"} lines.")
    Path source;

    @Option(names = "--manifest", paramLabel = "M", description = "The manifest to try beside the one in force.")
    Path manifest;

    @Option(names = "--host", paramLabel = "H", description = "The host of session-file lines that name none (default: claude).")
    String host = Hosts.assumed().id();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path root = project.root();
        Map<String, String> env = WardenCli.env(spec);
        String notInForce = NotInForce.line(root, env);
        if (notInForce != null) {
            (output.json ? err : out).println(notInForce);
        }
        List<CapturedEvent> events;
        try {
            events = Captures.read(source, host, root);
        } catch (CaseFile.Invalid e) {
            err.println("warden replay: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        if (events.isEmpty()) {
            err.println("warden replay: no events in " + source);
            return ExitCode.UNREADABLE.code();
        }
        String whatIf = manifest == null ? null : manifest.toAbsolutePath().toString();
        List<Object> rows = new ArrayList<>();
        Map<String, Integer> changes = new TreeMap<>();
        Map<String, Integer> verdicts = new TreeMap<>();
        String inForceSource = null;
        String whatIfSource = null;
        int changed = 0;
        for (CapturedEvent e : events) {
            EventRun.Outcome now = EventRun.run(root, e.host(), e.nativeEvent(), e.payload(), null, null, null, env,
                    Clock.systemUTC());
            inForceSource = inForceSource != null ? inForceSource : now.manifest();
            EventRun.Outcome then = whatIf == null ? null : EventRun.run(root, e.host(), e.nativeEvent(), e.payload(),
                    whatIf, null, null, env, Clock.systemUTC());
            if (then != null) {
                whatIfSource = whatIfSource != null ? whatIfSource : then.manifest();
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("source", e.label());
            row.put("host", e.host());
            row.put("event", e.nativeEvent());
            row.put("tool", toolOf(e.payload()));
            row.put("in_force", now.verdict());
            row.put("in_force_reason", now.reason());
            verdicts.merge(now.verdict(), 1, Integer::sum);
            if (then != null) {
                row.put("what_if", then.verdict());
                row.put("what_if_reason", then.reason());
                boolean differs = !now.verdict().equals(then.verdict());
                row.put("changed", differs);
                if (differs) {
                    changed++;
                    changes.merge(now.verdict() + " → " + then.verdict(), 1, Integer::sum);
                }
            }
            rows.add(row);
        }
        if (output.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("in_force", inForceSource);
            json.put("what_if", whatIfSource);
            json.put("events", rows);
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("events", (long) events.size());
            summary.put("in_force_verdicts", new LinkedHashMap<String, Object>(verdicts));
            if (whatIf != null) {
                summary.put("changed", (long) changed);
                summary.put("changes", new LinkedHashMap<String, Object>(changes));
            }
            json.put("summary", summary);
            out.println(Json.write(json));
            return ExitCode.OK.code();
        }
        out.println("in force: " + inForceSource + (whatIf == null ? "" : "\nwhat if:  " + whatIfSource));
        out.printf("%-4s %-7s %-20s %-12s %-9s %s%n", "#", "HOST", "EVENT", "TOOL", "IN FORCE", whatIf == null ? "REASON" : "WHAT IF");
        int n = 0;
        for (Object o : rows) {
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) o;
            String last = whatIf == null ? clip(String.valueOf(row.get("in_force_reason") == null ? "" : row.get("in_force_reason")))
                    : row.get("what_if") + (Boolean.TRUE.equals(row.get("changed")) ? "   <- changes"
                    + (row.get("what_if_reason") == null ? "" : ": " + clip((String) row.get("what_if_reason"))) : "");
            out.printf("%-4d %-7s %-20s %-12s %-9s %s%n", ++n, row.get("host"), row.get("event"),
                    row.get("tool") == null ? "" : row.get("tool"), row.get("in_force"), last);
        }
        if (whatIf == null) {
            out.println(events.size() + " event(s): " + counts(verdicts) + " (pass --manifest M to compare)");
        } else {
            out.println(events.size() + " event(s), " + changed + " would change" + (changed == 0 ? "" : ": " + counts(changes)));
        }
        return ExitCode.OK.code();
    }

    private static String counts(Map<String, Integer> m) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Integer> e : m.entrySet()) {
            parts.add(e.getKey() + " " + e.getValue());
        }
        return String.join(", ", parts);
    }

    private static String toolOf(byte[] payload) {
        try {
            Object o = Json.parse(new String(payload, StandardCharsets.UTF_8), JsonLimits.LENIENT);
            return o instanceof Map<?, ?> m && m.get("tool_name") instanceof String s ? s : null;
        } catch (JsonException e) {
            return null;
        }
    }

    private static String clip(String s) {
        String flat = s.replace('\n', ' ');
        return flat.length() <= 100 ? flat : flat.substring(0, 99) + "…";
    }
}
