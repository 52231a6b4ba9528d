package dev.agentwarden.guard;

import static dev.agentwarden.ledger.LedgerLine.Key.ACTED;
import static dev.agentwarden.ledger.LedgerLine.Key.CALLER_REF;
import static dev.agentwarden.ledger.LedgerLine.Key.CANDIDATES;
import static dev.agentwarden.ledger.LedgerLine.Key.CONCURRENT_OPEN;
import static dev.agentwarden.ledger.LedgerLine.Key.CONCURRENT_SCOPE;
import static dev.agentwarden.ledger.LedgerLine.Key.DEPTH_BASIS;
import static dev.agentwarden.ledger.LedgerLine.Key.DEPTH_ESTIMATE;
import static dev.agentwarden.ledger.LedgerLine.Key.DEPTH_ESTIMATE_BASIS;
import static dev.agentwarden.ledger.LedgerLine.Key.DEPTH_USABLE_FOR_DERIVATION;
import static dev.agentwarden.ledger.LedgerLine.Key.ENFORCED;
import static dev.agentwarden.ledger.LedgerLine.Key.INVALID_OPEN_EXCLUDED;
import static dev.agentwarden.ledger.LedgerLine.Key.LEDGER_PRESENT;
import static dev.agentwarden.ledger.LedgerLine.Key.ON;
import static dev.agentwarden.ledger.LedgerLine.Key.POSTURE;
import static dev.agentwarden.ledger.LedgerLine.Key.SESSION_ID;
import static dev.agentwarden.ledger.LedgerLine.Key.SPAWN_DEPTH;
import static dev.agentwarden.ledger.LedgerLine.Key.STALE_OPEN_EXCLUDED;
import static dev.agentwarden.ledger.LedgerLine.Key.TOOL;
import static dev.agentwarden.ledger.LedgerLine.Key.WORKSPACE_OPEN;
import static dev.agentwarden.ledger.LedgerLine.Key.WOULD_DENY;

import dev.agentwarden.ledger.LedgerLine;
import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.OpenRecord;
import dev.agentwarden.ledger.OpenSet;
import dev.agentwarden.concern.Posture;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The spawn guard: on a subagent-dispatch tool call, reads the open-record set the ledger keeps,
 * evaluates every candidate, appends one line with what each would have done, and acts per posture:
 * shadow acts never, advisory adds one line of context, blocking denies; both act only when the
 * enforced candidate would deny.
 *
 * <p>The concurrency arm always decides. The depth arm decides only where lineage is real: the
 * caller's agent id is on the payload and its open record exists, so the new dispatch's depth is
 * the caller's + 1 ({@code depth_basis: caller-open-record}). Otherwise the line carries the
 * reference's estimate, the deepest open record + 1, flagged {@code depth_usable_for_derivation:
 * false}; that estimate is at least 2 whenever anything is open, nesting or not, so it decides
 * nothing.
 *
 * <p>Lines: {@code spawn_guard_shadow} in shadow posture, {@code spawn_guard} once the posture can
 * act (same fields plus {@code enforced} and {@code acted}); {@code warden guard derive} reads both.
 */
public final class SpawnGuard {

    /** What the guard does with the host. */
    public enum Action { NONE, CONTEXT, DENY }

    /**
     * One spawn attempt.
     *
     * @param toolName         the tool called
     * @param subagentDispatch the host adapter normalized the tool as one that starts a subagent
     * @param callerRef        ref of the agent calling the tool, or {@code null}
     * @param session   session label, or {@code null}
     */
    public record Request(String toolName, boolean subagentDispatch, String callerRef, String session) {
    }

    /**
     * The guard's decision.
     *
     * @param action        none, one line of context, or deny
     * @param message       the context or the refusal reason, or {@code null}
     * @param line          the ledger line (as appended, or as it would have been), or {@code null} for a
     *                      tool that does not spawn
     * @param recordProblem why the line could not be appended, or {@code null}
     */
    public record Outcome(Action action, String message, Map<String, Object> line, String recordProblem) {
        static final Outcome NOT_A_SPAWN = new Outcome(Action.NONE, null, null, null);
    }

    private SpawnGuard() {
    }

    /**
     * Evaluates one tool call. Appending the line is best effort: a failure is reported in the
     * outcome and does not change the decision.
     *
     * @param record append the line ({@code false} in replay mode)
     * @throws IOException when the open-record set cannot be read
     */
    public static Outcome evaluate(Request request, GuardSettings settings, Posture posture, LedgerStore store,
                                   boolean record) throws IOException {
        boolean spawns = settings.dispatchTools().isEmpty() ? request.subagentDispatch()
                : request.toolName() != null && settings.dispatchTools().contains(request.toolName());
        if (!spawns) {
            return Outcome.NOT_A_SPAWN;
        }
        OpenSet open = OpenSet.read(store.paths(), store.clock().millis(), settings.ttlMs());
        boolean sessionScoped = settings.sessionScope() && request.session() != null;
        long concurrent = sessionScoped ? open.countInSession(request.session()) : open.count();
        OpenRecord caller = request.callerRef() == null ? null : open.live(request.callerRef());
        Long spawnDepth = caller == null ? null : caller.depth() + 1;
        String depthBasis = caller != null ? "caller-open-record"
                : request.callerRef() == null ? "no-caller-agent-id" : "caller-not-open";

        List<Object> verdicts = new ArrayList<>();
        List<String> enforcedArms = List.of();
        for (Candidate c : settings.candidates()) {
            List<String> on = c.trippedArms(concurrent, spawnDepth);
            Map<String, Object> v = c.toJson();
            v.put(WOULD_DENY.wire(), !on.isEmpty());
            v.put(ON.wire(), on);
            verdicts.add(v);
            if (c.label().equals(settings.enforced().label())) {
                enforcedArms = on;
            }
        }
        boolean acting = posture != Posture.SHADOW && !enforcedArms.isEmpty();
        Action action = !acting ? Action.NONE : posture == Posture.BLOCKING ? Action.DENY : Action.CONTEXT;

        LedgerLine.Builder line = LedgerLine.of(posture == Posture.SHADOW ? Event.SPAWN_GUARD_SHADOW : Event.SPAWN_GUARD)
                .put(SESSION_ID, request.session())
                .put(TOOL, request.toolName())
                .put(POSTURE, posture.wire())
                .put(CONCURRENT_OPEN, concurrent)
                .put(CONCURRENT_SCOPE, sessionScoped ? "session" : "workspace")
                .put(WORKSPACE_OPEN, (long) open.count())
                .put(CALLER_REF, request.callerRef())
                .put(DEPTH_BASIS, depthBasis)
                .put(SPAWN_DEPTH, spawnDepth)
                .put(DEPTH_ESTIMATE, open.deepest() + 1)
                .put(DEPTH_ESTIMATE_BASIS, "deepest-open-record-plus-one")
                .put(DEPTH_USABLE_FOR_DERIVATION, spawnDepth != null)
                .put(LEDGER_PRESENT, open.ledgerPresent())
                .put(STALE_OPEN_EXCLUDED, (long) open.stale().size())
                .put(INVALID_OPEN_EXCLUDED, (long) open.invalid().size())
                .put(CANDIDATES, verdicts);
        if (posture != Posture.SHADOW) {
            line.put(ENFORCED, settings.enforced().label())
                    .put(ACTED, acting);
        }
        Map<String, Object> recorded = line.fields();
        String problem = null;
        try {
            if (record) {
                recorded = store.append(line.fields());
            }
        } catch (IOException | RuntimeException e) {
            problem = e.getMessage();
        }
        String message = acting ? message(action, settings.enforced(), enforcedArms, concurrent, spawnDepth,
                sessionScoped) : null;
        return new Outcome(action, message, recorded, problem);
    }

    private static String message(Action action, Candidate c, List<String> arms, long concurrent, Long depth,
                                  boolean sessionScoped) {
        List<String> parts = new ArrayList<>(2);
        String where = sessionScoped ? "in this session" : "in this workspace";
        if (arms.contains("concurrent")) {
            parts.add(concurrent + " subagent" + (concurrent == 1 ? " is" : "s are") + " already open " + where
                    + ", threshold max_concurrent=" + c.maxConcurrent());
        }
        if (arms.contains("depth")) {
            parts.add("the new subagent would run at depth " + depth + ", threshold max_depth=" + c.maxDepth());
        }
        String facts = String.join("; ", parts) + " (spawn-guard candidate " + c.label() + ")";
        return action == Action.DENY
                ? "spawn refused: " + facts + ". Wait for an open subagent to return, then spawn again."
                : "spawn-guard: " + facts + "; prefer waiting for an open subagent to return before spawning another.";
    }
}
