package dev.agentwarden.dispatch;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.InProcessDispatch;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A process of concurrent refused dispatches for {@link StrikeConcurrencyTest}: {@code <project>
 * <manifest> <cache> <session> <threads> <events per thread>}; each event is a {@code rm} the
 * manifest refuses, through the whole dispatch path. Exits 0 when every dispatch refused it, else 1.
 */
public final class StrikeDispatchWorker {
    private StrikeDispatchWorker() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), args[3], Integer.parseInt(args[4]),
                Integer.parseInt(args[5])) ? 0 : 1);
    }

    /** Runs {@code threads × events} refused dispatches at once; whether each was refused with no strike lost. */
    static boolean run(Path project, Path manifest, Path cache, String session, int threads, int events) throws Exception {
        Clock clock = Clock.fixed(Instant.parse("2026-12-07T14:00:00Z"), ZoneOffset.UTC);
        String payload = "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"" + session + "\",\"cwd\":"
                + Json.write(project.toString()) + ",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf x\"}}";
        boolean[] ok = new boolean[threads];
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread thread = new Thread(() -> {
                InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
                boolean good = true;
                for (int i = 0; i < events; i++) {
                    InProcessDispatch.Response r = dispatch.run("claude", payload, "--native-event", "PreToolUse",
                            "--manifest", manifest.toString());
                    good &= r.stdout().contains("\"deny\"") && !r.stderr().contains("strike not recorded");
                    if (!good) {
                        System.err.println("dispatch " + i + ": " + r.stdout() + " " + r.stderr());
                    }
                }
                ok[me] = good;
            });
            thread.start();
            all.add(thread);
        }
        boolean good = true;
        for (int t = 0; t < threads; t++) {
            all.get(t).join();
            good &= ok[t];
        }
        return good;
    }
}
