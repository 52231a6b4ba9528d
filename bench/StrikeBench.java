import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.strike.Strikes;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a strike costs: {@code Strikes.record} alone (an append; a compaction every
 * {@code COMPACT_AT - MAX_STRIKES} strikes), and a whole in-process {@code warden dispatch}
 * of a refused PreToolUse with a session id (one strike recorded) side by side with the same event
 * without one (no strike), under a one-concern manifest.
 *
 * <pre>
 *   mvn -B -q -DskipTests package
 *   java -cp target/warden.jar bench/StrikeBench.java [ROUNDS] [EVENTS]     # default 7 rounds of 500
 * </pre>
 *
 * Prints medians over rounds (after two warm-up rounds) of the per-round mean, in µs.
 */
public final class StrikeBench {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        int events = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        Path project = Files.createTempDirectory("warden-strike-bench");
        Path cache = Files.createTempDirectory("warden-strike-bench-cache");
        Path manifest = Files.writeString(project.resolve("policy.yaml"), """
                schema_version: 1
                concerns:
                  no-rm:
                    script: builtin:deny-pattern
                    patterns:
                      - {match: '^rm ', reason: 'rm refused'}
                platforms:
                  claude:
                    pre_tool_use: [no-rm]
                """);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("WARDEN_CACHE_DIR", cache.toString());
        env.put("WARDEN_DECISION_LOG", "off");
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        List<Double> record = new ArrayList<>();
        List<Double> struck = new ArrayList<>();
        List<Double> unstruck = new ArrayList<>();
        long t0 = Clock.systemUTC().millis();
        for (int round = 0; round < rounds + 2; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < events; i++) {
                Strikes.record(project.resolve(".warden"), "bench-" + round + "-" + (i % 10), t0 + i);
            }
            double r = (System.nanoTime() - start) / 1000.0 / events;
            double on = dispatch(project, manifest, env, sink, "\"session_id\":\"bench-d" + round + "\",", events);
            double off = dispatch(project, manifest, env, sink, "", events);
            if (round >= 2) {
                record.add(r);
                struck.add(on);
                unstruck.add(off);
            }
        }
        System.out.printf("java %s, %d cores, %d rounds of %d (medians of per-round means, µs)%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), rounds, events);
        System.out.printf("%-58s %10.1f%n", "Strikes.record (locked read-modify-write, append)", median(record));
        System.out.printf("%-58s %10.1f%n", "dispatch, refused, with a session id (records a strike)", median(struck));
        System.out.printf("%-58s %10.1f%n", "dispatch, refused, no session id (no strike)", median(unstruck));
        long dispatched = Strikes.count(project.resolve(".warden"), "bench-d" + (rounds + 1), Clock.systemUTC().millis(),
                Strikes.DEFAULT_WINDOW_MS);
        System.out.printf("(strikes the last round's session holds: %d of %d events, at most %d counted)%n", dispatched,
                events, Strikes.MAX_STRIKES);
    }

    private static double dispatch(Path project, Path manifest, Map<String, String> env, PrintStream sink, String session,
                                   int events) {
        byte[] payload = ("{\"hook_event_name\":\"PreToolUse\"," + session + "\"cwd\":\"" + project
                + "\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf x\"}}").getBytes(StandardCharsets.UTF_8);
        String[] argv = {"dispatch", "--host", "claude", "--native-event", "PreToolUse", "--manifest", manifest.toString()};
        long start = System.nanoTime();
        for (int i = 0; i < events; i++) {
            DispatchRuntime.oneShot(Clock.systemUTC()).respond(DispatchRequest.read(DispatchRequest.Route.parse(argv),
                new ByteArrayInputStream(payload), Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM));
        }
        return (System.nanoTime() - start) / 1000.0 / events;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
