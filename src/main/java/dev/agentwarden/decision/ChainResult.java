package dev.agentwarden.decision;

import dev.agentwarden.verdict.Verdict;
import java.util.List;

/**
 * What one run of the concern chain decided: the combined verdict and each concern's outcome, in
 * chain order. Made by the dispatcher, recorded by the decision log.
 *
 * @param strikes   the session's strikes once this event is counted (docs/escalation.md), when the
 *                  run touched the strike store (the event was refused, or an escalation was
 *                  checked); else 0
 * @param escalated the step an escalation turned a refusal into ({@code ask} or {@code halt}), or {@code null}
 */
public record ChainResult(Verdict verdict, List<ConcernOutcome> outcomes, int strikes, String escalated) {
    /** A run that touched no strike. */
    public ChainResult(Verdict verdict, List<ConcernOutcome> outcomes) {
        this(verdict, outcomes, 0, null);
    }
}
