import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.digest.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * In-process costs, µs per operation, median of ROUNDS rounds after warm-up (a plain loop that
 * bench/run-all.sh runs against the jar; the rule benchmarks use JMH, bench/jmh):
 *   - the default chain: DispatchMain.respond on the captured Claude Code PreToolUse Bash payload,
 *     decision log on (a project directory of its own) and off;
 *   - the same as a server runs it (warden serve, the resident): its decision-log segment kept open
 *     and the manifest in force kept ({@link OpenSegments}, {@link ResolvedManifests});
 *   - RFC 8785 (JCS) canonicalization of a 1 MB JSON document;
 *   - SHA-256 (Warden's own, no security providers) of an 83 KB agent file.
 *
 *   java -cp target/warden.jar bench/HotPathBench.java [ROUNDS]
 */
public final class HotPathBench {
    public static void main(String[] a) throws Exception {
        int rounds = a.length > 0 ? Integer.parseInt(a[0]) : 7;
        byte[] payload = Files.readAllBytes(Path.of("bench/pretooluse-bash.json"));
        Path work = Files.createTempDirectory("warden-hotpath");
        Path project = Files.createDirectories(work.resolve("project"));
        Map<String, String> on = new HashMap<>();
        on.put("WARDEN_CACHE_DIR", work.resolve("cache").toString());
        on.put("HOME", work.toString());
        Map<String, String> off = new HashMap<>(on);
        off.put("WARDEN_DECISION_LOG", "off");
        DispatchRequest.Route route = DispatchRequest.Route.parse(new String[] {"--host", "claude", "--native-event",
                "PreToolUse", "--project-dir", project.toString()});
        DispatchRuntime oneShot = DispatchRuntime.oneShot(Clock.systemUTC());
        byte[] doc = document(1 << 20);
        byte[] agent = new byte[83 * 1024];
        for (int i = 0; i < agent.length; i++) {
            agent[i] = (byte) ("# Coordinator agent\nYou route work to the squad.\n".charAt(i % 48));
        }
        System.out.printf("rounds %d; cores %d; load %s; %s%n", rounds, Runtime.getRuntime().availableProcessors(),
                Files.readString(Path.of("/proc/loadavg")).strip(), System.getProperty("java.vm.version"));
        System.out.printf("%-52s %10s%n", "", "µs/op p50");
        System.out.printf("%-52s %10.1f%n", "default chain, decision log on", median(rounds, 2000, () ->
                oneShot.respond(DispatchRequest.of(route, payload, Caller.thisProcess(on), DispatchRequest.Transport.SERVE))));
        System.out.printf("%-52s %10.1f%n", "default chain, decision log off", median(rounds, 2000, () ->
                oneShot.respond(DispatchRequest.of(route, payload, Caller.thisProcess(off), DispatchRequest.Transport.SERVE))));
        DispatchRuntime longLived = DispatchRuntime.longLived(Clock.systemUTC());
        Caller server = Caller.thisProcess(on);
        Runnable served = () -> longLived.respond(DispatchRequest.of(route, payload, server, DispatchRequest.Transport.SERVE));
        served.run();
        // the compiled manifest just written is kept only once it has been unchanged for a second
        Thread.sleep(1_200);
        System.out.printf("%-52s %10.1f%n", "default chain as a server runs it, decision log on", median(rounds, 2000, served));
        System.out.printf("%-52s %10.1f%n", "RFC 8785 canonicalization, " + doc.length + " bytes", median(rounds, 5, () -> Jcs.canonicalize(doc)));
        System.out.printf("%-52s %10.1f%n", "SHA-256, " + agent.length + " bytes", median(rounds, 200, () -> Sha256.hex(agent)));
    }

    /** A JSON object of about {@code size} bytes: records with strings, numbers and nesting. */
    private static byte[] document(int size) {
        StringBuilder b = new StringBuilder(size + 256).append("{\"records\":[");
        for (int i = 0; b.length() < size; i++) {
            b.append(i == 0 ? "" : ",").append("{\"z\":").append(i * 1.5).append(",\"id\":\"agent-").append(i)
                    .append("\",\"tags\":[\"a\",\"\\u00e9\",").append(i).append("],\"nested\":{\"b\":true,\"a\":null}}");
        }
        return b.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static double median(int rounds, int ops, Runnable op) {
        for (int i = 0; i < ops * 2; i++) {
            op.run();
        }
        double[] r = new double[rounds];
        for (int k = 0; k < rounds; k++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                op.run();
            }
            r[k] = (System.nanoTime() - t0) / 1e3 / ops;
        }
        Arrays.sort(r);
        return r[rounds / 2];
    }
}
