import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostAdapters;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * In-process ledger throughput and the ledger's cost inside one dispatch.
 *
 * <pre>
 *   mvn -B -q -DskipTests package
 *   java -cp target/warden.jar bench/LedgerBench.java [ROUNDS]     # default 9 rounds
 * </pre>
 *
 * Prints medians over rounds (after two warm-up rounds):
 * <ul>
 *   <li>appends/s of {@code LedgerStore.append} (one locked transaction per line), 1 and 4 threads;
 *   <li>events/s of {@code SubagentLedger.record} (start + stop pairs: open record, reaping, counts);
 *   <li>µs per event of a full in-process {@code warden dispatch --host claude} on SubagentStart,
 *       SubagentStop and PreToolUse Agent with the default manifest, side by side with the same
 *       events under a manifest that binds nothing to them: the difference is what the ledger and
 *       the spawn guard cost inside a dispatch (the JVM start of a real hook process excluded;
 *       see bench/ledger-dispatch.sh for whole processes).
 * </ul>
 * Temporary projects live under {@code java.io.tmpdir} (the same disk as a real project's .warden).
 */
public final class LedgerBench {
    static final int APPENDS = 2000;
    static final int EVENTS = 1000;
    static final int DISPATCHES = 300;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        List<Double> single = new ArrayList<>();
        List<Double> four = new ArrayList<>();
        List<Double> record = new ArrayList<>();
        List<Double> start = new ArrayList<>();
        List<Double> startOff = new ArrayList<>();
        List<Double> stop = new ArrayList<>();
        List<Double> stopOff = new ArrayList<>();
        List<Double> agent = new ArrayList<>();
        List<Double> agentOff = new ArrayList<>();
        for (int round = 0; round < rounds + 2; round++) {
            boolean keep = round >= 2;
            add(keep, single, appendsPerSecond(1));
            add(keep, four, appendsPerSecond(4));
            add(keep, record, recordsPerSecond());
            double[] on = dispatchMicros(false);
            double[] off = dispatchMicros(true);
            add(keep, start, on[0]);
            add(keep, stop, on[1]);
            add(keep, agent, on[2]);
            add(keep, startOff, off[0]);
            add(keep, stopOff, off[1]);
            add(keep, agentOff, off[2]);
        }
        System.out.printf("java %s, %d cores, %d rounds (medians)%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), rounds);
        System.out.printf("%-52s %12s%n", "in-process ledger", "median");
        System.out.printf("%-52s %12.0f%n", "LedgerStore.append, 1 thread (appends/s)", median(single));
        System.out.printf("%-52s %12.0f%n", "LedgerStore.append, 4 threads (appends/s)", median(four));
        System.out.printf("%-52s %12.0f%n", "SubagentLedger.record start/stop (events/s)", median(record));
        System.out.println();
        System.out.printf("%-30s %14s %14s %12s%n", "in-process dispatch (us/event)", "ledger bound", "nothing bound", "ledger cost");
        row("SubagentStart", start, startOff);
        row("SubagentStop", stop, stopOff);
        row("PreToolUse Agent (spawn-guard)", agent, agentOff);
    }

    static void row(String name, List<Double> on, List<Double> off) {
        System.out.printf("%-30s %14.0f %14.0f %12.0f%n", name, median(on), median(off), median(on) - median(off));
    }

    static void add(boolean keep, List<Double> to, double value) {
        if (keep) {
            to.add(value);
        }
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static double appendsPerSecond(int threads) throws Exception {
        Path project = Files.createTempDirectory("ledger-bench");
        try {
            LedgerStore store = new LedgerStore(LedgerPaths.forRoot(project.toString()), Clock.systemUTC());
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            long t0 = System.nanoTime();
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < APPENDS / threads; i++) {
                        Map<String, Object> line = new LinkedHashMap<>();
                        line.put("event", "bench");
                        line.put("i", (long) i);
                        store.append(line);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            long elapsed = System.nanoTime() - t0;
            pool.shutdown();
            return APPENDS / (elapsed / 1e9);
        } finally {
            delete(project.toFile());
        }
    }

    static double recordsPerSecond() throws Exception {
        Path project = Files.createTempDirectory("ledger-bench");
        try {
            String root = project.toString();
            LedgerStore store = new LedgerStore(LedgerPaths.forRoot(root), Clock.systemUTC());
            HostAdapter claude = HostAdapters.forId("claude");
            long t0 = System.nanoTime();
            for (int i = 0; i < EVENTS / 2; i++) {
                Map<String, Object> payload = Map.of("session_id", "s", "agent_id", "agent-" + i,
                        "agent_type", "general-purpose");
                HookEvent start = claude.normalize("SubagentStart", EventName.SUBAGENT_START, payload, new byte[0], root);
                HookEvent stop = claude.normalize("SubagentStop", EventName.SUBAGENT_STOP, payload, new byte[0], root);
                SubagentLedger.record(SubagentLedger.Kind.START, start, LedgerSettings.DEFAULTS, store);
                SubagentLedger.record(SubagentLedger.Kind.STOP, stop, LedgerSettings.DEFAULTS, store);
            }
            return EVENTS / ((System.nanoTime() - t0) / 1e9);
        } finally {
            delete(project.toFile());
        }
    }

    /** Microseconds per dispatch of SubagentStart, SubagentStop and PreToolUse Agent. */
    static double[] dispatchMicros(boolean nothingBound) throws Exception {
        Path project = Files.createTempDirectory("ledger-bench");
        Path cache = Files.createTempDirectory("ledger-bench-cache");
        try {
            Map<String, String> env = Map.of("WARDEN_CACHE_DIR", cache.toString());
            String[] argv = nothingBound
                    ? new String[] {"dispatch", "--host", "claude", "--manifest", writeEmptyManifest(project).toString()}
                    : new String[] {"dispatch", "--host", "claude"};
            PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
            String cwd = project.toString();
            long startNanos = 0;
            long stopNanos = 0;
            long agentNanos = 0;
            for (int i = 0; i < DISPATCHES; i++) {
                String id = "agent-" + i;
                long t0 = System.nanoTime();
                dispatch(argv, sink, env, "{\"session_id\":\"s\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"PreToolUse\","
                        + "\"tool_name\":\"Agent\",\"tool_input\":{\"prompt\":\"p\",\"subagent_type\":\"general-purpose\"}}");
                long t1 = System.nanoTime();
                dispatch(argv, sink, env, "{\"session_id\":\"s\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"SubagentStart\","
                        + "\"agent_id\":\"" + id + "\",\"agent_type\":\"general-purpose\"}");
                long t2 = System.nanoTime();
                dispatch(argv, sink, env, "{\"session_id\":\"s\",\"cwd\":\"" + cwd + "\",\"hook_event_name\":\"SubagentStop\","
                        + "\"agent_id\":\"" + id + "\",\"agent_type\":\"general-purpose\",\"stop_hook_active\":false,"
                        + "\"last_assistant_message\":\"done\"}");
                long t3 = System.nanoTime();
                agentNanos += t1 - t0;
                startNanos += t2 - t1;
                stopNanos += t3 - t2;
            }
            return new double[] {startNanos / 1e3 / DISPATCHES, stopNanos / 1e3 / DISPATCHES, agentNanos / 1e3 / DISPATCHES};
        } finally {
            delete(project.toFile());
            delete(cache.toFile());
        }
    }

    static void dispatch(String[] argv, PrintStream sink, Map<String, String> env, String payload) {
        DispatchRuntime.oneShot(Clock.systemUTC()).respond(DispatchRequest.read(DispatchRequest.Route.parse(argv),
                new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM));
    }

    static Path writeEmptyManifest(Path project) throws Exception {
        Path file = project.resolve("unbound.yaml");
        Files.writeString(file, """
                schema_version: 1
                concerns:
                  block-no-verify: {script: builtin:block-no-verify, tools: [Bash]}
                platforms:
                  claude:
                    pre_tool_use: [block-no-verify]
                native_event_aliases:
                  claude: {PreToolUse: pre_tool_use, SubagentStart: subagent_start, SubagentStop: subagent_stop}
                """);
        return file;
    }

    static void delete(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                delete(c);
            }
        }
        f.delete();
    }
}
