package dev.agentwarden.ledger;

import dev.agentwarden.testing.TestLedger;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A separate writer process for {@link LedgerMultiProcessTest}: prints {@code ready}, waits for a
 * line on stdin (so all writers start together), then records {@code events} subagent events
 * (start and stop of {@code events / 2} subagents) in the project's ledger; a spooled event is
 * not lost (the next write folds it in), so it is only reported.
 *
 * <p>Usage: {@code LedgerAppendMain <project-dir> <worker-id> <events>}
 */
public final class LedgerAppendMain {
    private LedgerAppendMain() {
    }

    public static void main(String[] args) throws Exception {
        String project = args[0];
        String worker = args[1];
        int events = Integer.parseInt(args[2]);
        LedgerStore store = new LedgerStore(LedgerPaths.forRoot(project), Clock.systemUTC());
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (int i = 0; i < events / 2; i++) {
            for (SubagentLedger.Kind kind : SubagentLedger.Kind.values()) {
                Map<String, Object> payload = new LinkedHashMap<>();
                payload.put("agent_id", "worker-" + worker + "-agent-" + i);
                payload.put("agent_type", "type-" + worker);
                try {
                    TestLedger.record(kind, payload, "session-" + worker, LedgerSettings.DEFAULTS, store);
                } catch (LedgerException e) {
                    if (!"ledger_event_spooled".equals(e.code())) {
                        throw e;
                    }
                    System.err.println(e.getMessage());
                }
            }
        }
    }
}
