package dev.agentwarden.decision;

import dev.agentwarden.verdict.Verdict;
import java.util.List;

/**
 * What one run of the concern chain decided: the combined verdict and each concern's outcome, in
 * chain order. Made by the dispatcher, recorded by the decision log.
 */
public record ChainResult(Verdict verdict, List<ConcernOutcome> outcomes) {
}
