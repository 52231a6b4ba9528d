import dev.agentwarden.decision.ChainResult;
import dev.agentwarden.decision.DecisionDraft;
import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.dispatch.Dispatcher;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostAdapters;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the decision log costs inside a warm dispatch (the resident's case): in-process
 * {@code warden dispatch --host claude} on bench/pretooluse-bash.json with the default manifest,
 * in blocks of 1,000 alternating {@code WARDEN_DECISION_LOG=off} and on, 10,000 dispatches each
 * way after a warm-up; prints the median µs per dispatch of each and the difference; then
 * {@code DecisionLog.append} alone (building the line and appending it) for the same event, timed
 * call by call, so the figure does not drown in the whole dispatch's variance on a loaded machine.
 *
 * <pre>
 *   mvn -B -q -DskipTests package
 *   java -cp target/warden.jar bench/DecisionLogBench.java [BLOCKS]     # default 10 blocks of 1,000
 * </pre>
 *
 * <p>{@code cold on|off}: one dispatch in this fresh JVM, printing its µs (the own-JVM case without
 * the JVM start, which bench/decision-log.sh runs many times each way).
 */
public final class DecisionLogBench {
    static final int BLOCK = 1000;

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("cold")) {
            cold(args[1].equals("on"));
            return;
        }
        int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        byte[] payload = Files.readAllBytes(Path.of("bench/pretooluse-bash.json"));
        Path project = Files.createTempDirectory("warden-decision-bench");
        Map<String, String> on = new LinkedHashMap<>();
        on.put("WARDEN_CACHE_DIR", Files.createDirectories(project.resolve("cache")).toString());
        on.put("CLAUDE_PROJECT_DIR", project.toString());
        Map<String, String> off = new LinkedHashMap<>(on);
        off.put("WARDEN_DECISION_LOG", "off");
        for (int i = 0; i < 3; i++) {
            block(payload, on);
            block(payload, off);
        }
        List<Double> onUs = new ArrayList<>();
        List<Double> offUs = new ArrayList<>();
        for (int b = 0; b < blocks; b++) {
            offUs.add(block(payload, off));
            onUs.add(block(payload, on));
        }
        List<Double> appendUs = new ArrayList<>();
        for (int b = 0; b < blocks + 3; b++) {
            double us = appendBlock(payload, project, on);
            if (b >= 3) {
                appendUs.add(us);
            }
        }
        double mOn = median(onUs);
        double mOff = median(offUs);
        System.out.printf("java %s, %d cores, %d x %d dispatches each way%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), blocks, BLOCK);
        System.out.printf("%-44s %10.1f%n", "dispatch, decision log off (us/dispatch)", mOff);
        System.out.printf("%-44s %10.1f%n", "dispatch, decision log on (us/dispatch)", mOn);
        System.out.printf("%-44s %10.1f%n", "decision log cost (us/dispatch)", mOn - mOff);
        System.out.printf("%-44s %10.1f%n", "DecisionLog.append alone (us/call)", median(appendUs));
        System.out.printf("%-44s %10d%n", "lines written",
                Files.readAllLines(project.resolve(".warden/state/decisions").toFile().listFiles()[0].toPath()).size());
    }

    /** One dispatch in a fresh JVM, timed inside it; the project is a fresh temp dir. */
    static void cold(boolean on) throws Exception {
        byte[] payload = Files.readAllBytes(Path.of("bench/pretooluse-bash.json"));
        Path project = Files.createTempDirectory("warden-decision-cold");
        Map<String, String> env = new LinkedHashMap<>(System.getenv());
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        if (!on) {
            env.put("WARDEN_DECISION_LOG", "off");
        }
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        long t0 = System.nanoTime();
        DispatchRuntime.oneShot(Clock.systemUTC()).respond(DispatchRequest.read(DispatchRequest.Route.parse(new String[] {"dispatch", "--host", "claude"}),
                new ByteArrayInputStream(payload), Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM));
        long us = (System.nanoTime() - t0) / 1000;
        System.out.println(us);
    }

    /** Mean µs of {@code DecisionLog.append} for the bench event, over one block of calls. */
    static double appendBlock(byte[] payload, Path project, Map<String, String> env) throws Exception {
        String root = project.toString();
        Manifest manifest = ManifestLoader.load(ManifestLoader.locate(null, root), env);
        HostAdapter adapter = HostAdapters.forId("claude");
        HookEvent event = adapter.normalize("PreToolUse", EventName.PRE_TOOL_USE, Json.parseObject(new String(payload)),
                payload, root);
        ChainResult result = new Dispatcher(manifest, Clock.systemUTC(), env).dispatch(event, "");
        HostResponse response = adapter.render("PreToolUse", result.verdict());
        long total = 0;
        for (int i = 0; i < BLOCK; i++) {
            DecisionDraft d = new DecisionDraft(DecisionLog.OWN_JVM, System.currentTimeMillis(), System.nanoTime());
            d.host("claude");
            d.at(root, "PreToolUse", "");
            d.manifest(manifest);
            d.event("pre_tool_use", "PreToolUse");
            d.ran(event, result, adapter, response);
            long t0 = System.nanoTime();
            DecisionLog.append(d, response, env, null);
            total += System.nanoTime() - t0;
        }
        return total / 1000.0 / BLOCK;
    }

    /** Mean µs per dispatch over one block. */
    static double block(byte[] payload, Map<String, String> env) {
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        String[] argv = {"dispatch", "--host", "claude"};
        long t0 = System.nanoTime();
        for (int i = 0; i < BLOCK; i++) {
            DispatchRuntime.oneShot(Clock.systemUTC()).respond(DispatchRequest.read(DispatchRequest.Route.parse(argv),
                new ByteArrayInputStream(payload), Caller.thisProcess(env), DispatchRequest.Transport.OWN_JVM));
        }
        return (System.nanoTime() - t0) / 1000.0 / BLOCK;
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
