package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.guard.GuardSettings;
import dev.agentwarden.guard.SpawnGuard;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.event.ToolKind;
import dev.agentwarden.ledger.SubagentFields;
import java.io.IOException;

/**
 * Built-in {@code spawn-guard} on {@code pre_tool_use} for subagent-dispatch tools
 * ({@link SpawnGuard}). Posture comes from the manifest. In shadow and advisory posture a failure
 * lets the tool call proceed, reported as an error outcome (a stderr note, fail-open), as is a line
 * that could not be recorded or was only spooled; in blocking posture a failure to read the open set
 * propagates, so the concern's {@code fail_closed} setting decides. Settings: {@link GuardSettings}.
 */
final class SpawnGuardConcern implements Concern {
    private final GuardSettings settings;

    SpawnGuardConcern(GuardSettings settings) {
        this.settings = settings;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) throws IOException {
        Posture posture = context.spec().posture();
        SpawnGuard.Outcome outcome;
        try {
            SpawnGuard.Request request = new SpawnGuard.Request(context.event().toolName(),
                    context.event().toolKind() == ToolKind.SUBAGENT_DISPATCH, SubagentFields.callerRef(context.event()),
                    SubagentFields.sessionLabel(context.event().sessionId()));
            outcome = SpawnGuard.evaluate(request, settings, posture,
                    new LedgerStore(new LedgerPaths(context.stateHome()), context.clock(),
                            SubagentLedgerConcern.lockWaitMs(context.spec().timeoutMs())), !Replay.active(context.env()));
        } catch (IOException | RuntimeException e) {
            if (posture == Posture.BLOCKING) {
                throw e;
            }
            return ConcernResult.error("spawn guard could not run: " + e.getMessage());
        }
        if (outcome.recordProblem() != null && outcome.action() == SpawnGuard.Action.NONE) {
            return ConcernResult.error("spawn-guard line not recorded: " + outcome.recordProblem());
        }
        switch (outcome.action()) {
            case DENY:
                return ConcernResult.block(outcome.message());
            case CONTEXT:
                return ConcernResult.allowWithContext(outcome.message());
            case NONE:
            default:
                return ConcernResult.allow();
        }
    }
}
