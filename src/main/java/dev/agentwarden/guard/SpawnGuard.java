package dev.agentwarden.guard;

import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.OpenRecord;
import dev.agentwarden.ledger.OpenSet;
import dev.agentwarden.concern.Posture;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
     * @param toolName  the tool called
     * @param callerRef ref of the agent calling the tool ({@code agent_id} on the payload), or {@code null}
     * @param session   session label, or {@code null}
     */
    public record Request(String toolName, String callerRef, String session) {
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
        if (request.toolName() == null || !settings.dispatchTools().contains(request.toolName())) {
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
            v.put("would_deny", !on.isEmpty());
            v.put("on", on);
            verdicts.add(v);
            if (c.label().equals(settings.enforced().label())) {
                enforcedArms = on;
            }
        }
        boolean acting = posture != Posture.SHADOW && !enforcedArms.isEmpty();
        Action action = !acting ? Action.NONE : posture == Posture.BLOCKING ? Action.DENY : Action.CONTEXT;

        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", posture == Posture.SHADOW ? "spawn_guard_shadow" : "spawn_guard");
        line.put("session_id", request.session());
        line.put("tool", request.toolName());
        line.put("posture", posture.wire());
        line.put("concurrent_open", concurrent);
        line.put("concurrent_scope", sessionScoped ? "session" : "workspace");
        line.put("workspace_open", (long) open.count());
        line.put("caller_ref", request.callerRef());
        line.put("depth_basis", depthBasis);
        line.put("spawn_depth", spawnDepth);
        line.put("depth_estimate", open.deepest() + 1);
        line.put("depth_estimate_basis", "deepest-open-record-plus-one");
        line.put("depth_usable_for_derivation", spawnDepth != null);
        line.put("ledger_present", open.ledgerPresent());
        line.put("stale_open_excluded", (long) open.stale().size());
        line.put("invalid_open_excluded", (long) open.invalid().size());
        line.put("candidates", verdicts);
        if (posture != Posture.SHADOW) {
            line.put("enforced", settings.enforced().label());
            line.put("acted", acting);
        }
        Map<String, Object> recorded = line;
        String problem = null;
        try {
            if (record) {
                recorded = store.append(line);
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
