package dev.agentwarden.concern;

import dev.agentwarden.event.EventName;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;

/**
 * Built-in {@code subagent-ledger}: records subagent starts and stops in the project's ledger
 * ({@link SubagentLedger}). Capture only: it allows on every path, including a malformed payload,
 * bad settings and an unwritable disk, since a measurement must never disturb the agent. Settings:
 * {@link LedgerSettings}. With {@code WARDEN_REPLAY=1} (or agent-config's {@code AGENT_CONFIG_REPLAY=1})
 * it writes nothing.
 */
final class SubagentLedgerConcern implements Concern {

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        EventName event = context.event().event();
        SubagentLedger.Kind kind = event == EventName.SUBAGENT_START ? SubagentLedger.Kind.START
                : event == EventName.SUBAGENT_STOP ? SubagentLedger.Kind.STOP : null;
        if (kind == null || Replay.active(context.env())) {
            return ConcernResult.allow();
        }
        try {
            SubagentLedger.record(kind, context.event().payload(), context.event().sessionId(),
                    LedgerSettings.from(context.spec().settings()),
                    new LedgerStore(new LedgerPaths(context.stateHome()), context.clock()));
        } catch (Exception | StackOverflowError | OutOfMemoryError capturedOnly) {
            // capture only: a lost measurement is the whole cost of a failure here
        }
        return ConcernResult.allow();
    }
}
