package dev.agentwarden.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs {@code warden dispatch} in-process, exactly as the command line does, with a test clock and cache. */
public final class InProcessDispatch {
    private final Clock clock;
    private final Map<String, String> env;

    /** What the host would see. */
    public record Response(int exitCode, String stdout, String stderr) {
    }

    public InProcessDispatch(Path cacheDir, Clock clock) {
        this(cacheDir, clock, Map.of());
    }

    /** With extra environment variables for the dispatch. */
    public InProcessDispatch(Path cacheDir, Clock clock, Map<String, String> extraEnv) {
        this.clock = clock;
        Map<String, String> e = new HashMap<>(extraEnv);
        e.put("WARDEN_CACHE_DIR", cacheDir.toString());
        e.putIfAbsent("XDG_STATE_HOME", TestTrust.stateHome(cacheDir));
        this.env = Map.copyOf(e);
    }

    /** Trusts {@code project}'s {@code .warden/manifest.yaml} in this dispatch's trust store, as {@code warden trust} would. */
    public void trust(Path project) {
        TestTrust.trust(project, env);
    }

    public Response run(String host, String stdin, String... extraArgs) {
        List<String> argv = new ArrayList<>(List.of("dispatch", "--host", host));
        argv.addAll(List.of(extraArgs));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(argv.toArray(String[]::new),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, clock);
        return new Response(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
