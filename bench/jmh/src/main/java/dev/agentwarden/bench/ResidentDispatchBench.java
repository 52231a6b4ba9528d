package dev.agentwarden.bench;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.host.HostResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One whole dispatch of the captured PreToolUse Bash event as the resident serves it
 * ({@code WardenServer}: {@link DispatchRuntime#respond} of a long-lived runtime, which holds the
 * open decision-log segments and the kept manifests), under a manifest that extends the shipped default, with no rule ({@code NONE},
 * the default chain) or with one {@code builtin:rule} of {@link RuleCases} on pre_tool_use. The
 * rule is compiled when the manifest is first loaded, not per event. The decision log is off
 * ({@code WARDEN_DECISION_LOG=off}), so a run does not fill the disk and the rows differ only by
 * the rule.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ResidentDispatchBench {
    @Param({"NONE", "FIELD", "MEMBERSHIP", "REGEX", "REWRITE"})
    public String rule;

    private Path work;
    private DispatchRequest.Route route;
    private Caller caller;
    private byte[] payload;
    private final DispatchRuntime runtime = DispatchRuntime.longLived(Clock.systemUTC());

    @Setup
    public void setUp() throws Exception {
        work = Files.createTempDirectory("warden-jmh-dispatch");
        Path project = Files.createDirectories(work.resolve("project"));
        Map<String, String> env = new HashMap<>();
        env.put("HOME", work.toString());
        env.put("WARDEN_CACHE_DIR", work.resolve("cache").toString());
        env.put("WARDEN_DECISION_LOG", "off");
        caller = Caller.thisProcess(env);
        RuleCases bound = "NONE".equals(rule) ? null : RuleCases.valueOf(rule);
        Path manifest = work.resolve("manifest.yaml");
        Files.writeString(manifest, bound == null ? "schema_version: 1\nextends: default\n" : bound.manifest());
        payload = RuleCases.payload();
        route = DispatchRequest.Route.parse(new String[] {"--host", "claude", "--native-event", "PreToolUse",
                "--manifest", manifest.toString(), "--project-dir", project.toString()});
        HostResponse first = dispatch();
        String said = first.stdout() + first.stderr();
        boolean fired = said.contains("bench rule") || said.contains("--dry-run");
        if (first.exitCode() != 0 || fired != (bound != null && bound.firesOnPayload())
                || (bound == RuleCases.REWRITE && !first.stdout().contains("echo hello --dry-run"))) {
            throw new IllegalStateException(rule + ": exit " + first.exitCode() + ", stdout " + first.stdout()
                    + ", stderr " + first.stderr());
        }
        // the resident keeps a resolved manifest only once its files have been unchanged for a second
        Thread.sleep(1_200);
        dispatch();
    }

    @TearDown
    public void tearDown() throws IOException {
        runtime.close();
        RuleCases.delete(work);
    }

    @Benchmark
    public HostResponse dispatch() {
        return runtime.respond(DispatchRequest.of(route, payload, caller, DispatchRequest.Transport.SERVE));
    }
}
