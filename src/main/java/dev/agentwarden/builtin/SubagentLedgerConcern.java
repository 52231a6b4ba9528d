package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;

/**
 * Built-in {@code subagent-ledger}: records subagent starts and stops in the project's ledger
 * ({@link SubagentLedger}), from the host's subagent events or, on a host without them, from the
 * subagent tool's pre- and post-tool events ({@link #bracketsSubagents}). Capture only: it never blocks, including on a malformed payload and
 * an unwritable disk, since a measurement must never disturb the agent; but it is never
 * silent either: an event it could not record, or could only spool, comes back as an error outcome,
 * which the dispatcher turns into a stderr note (fail-open). It waits for the ledger lock for three
 * quarters of its {@code timeout_ms}, leaving the rest to spool the event. Settings:
 * {@link LedgerSettings}. With {@code WARDEN_REPLAY=1} (or agent-config's {@code AGENT_CONFIG_REPLAY=1})
 * it writes nothing.
 */
final class SubagentLedgerConcern implements Concern {
    private final LedgerSettings settings;

    SubagentLedgerConcern(LedgerSettings settings) {
        this.settings = settings;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        EventName event = context.event().event();
        SubagentLedger.Kind kind = event == EventName.SUBAGENT_START ? SubagentLedger.Kind.START
                : event == EventName.SUBAGENT_STOP ? SubagentLedger.Kind.STOP : null;
        boolean bracket = kind == null && bracketsSubagents(context.event());
        if (bracket) {
            kind = event == EventName.PRE_TOOL_USE ? SubagentLedger.Kind.START : SubagentLedger.Kind.STOP;
        }
        if (kind == null || Replay.active(context.env())) {
            return ConcernResult.allow();
        }
        try {
            LedgerStore store = new LedgerStore(new LedgerPaths(context.stateHome()), context.clock(),
                    lockWaitMs(context.spec().timeoutMs()));
            if (bracket) {
                SubagentLedger.recordBracket(kind, context.event(), settings, store);
            } else {
                SubagentLedger.record(kind, context.event(), settings, store);
            }
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            return ConcernResult.error("ledger not written: " + e.getMessage());
        }
        return ConcernResult.allow();
    }

    /**
     * Whether {@code e} is the call or result of a subagent tool on a host that sends no subagent
     * events of its own (Gemini CLI's {@code invoke_agent}): the ledger then brackets the subagent
     * between the two ({@code basis: tool_bracket}). On a host with subagent events those record it.
     */
    static boolean bracketsSubagents(HookEvent e) {
        if ((e.event() != EventName.PRE_TOOL_USE && e.event() != EventName.POST_TOOL_USE)
                || e.toolKind() != ToolKind.SUBAGENT_DISPATCH) {
            return false;
        }
        Host host = Hosts.byId(e.host());
        return host != null && !host.defaultAliases().containsValue(EventName.SUBAGENT_START);
    }

    /** The lock wait within a concern's budget: three quarters of it, the rest left to spool the event. */
    static long lockWaitMs(int timeoutMs) {
        return Math.max(1, timeoutMs * 3L / 4);
    }
}
