package dev.agentwarden.decision;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.verdict.Verdict;

/**
 * One concern's run within a dispatch, after posture and fail mode were applied.
 *
 * @param concern    concern name
 * @param raw        what the concern itself returned
 * @param effective  the decision that counts toward the verdict
 * @param message    the text it contributes (reason or context), or {@code null}
 * @param durationUs wall time of the run, in microseconds
 * @param note       how the raw result became the effective one (e.g. "timeout after 10000 ms;
 *                   fail-open"), or {@code null} when unchanged
 */
public record ConcernOutcome(String concern, ConcernResult raw, Verdict.Kind effective, String message,
                             long durationUs, String note)
        implements Verdict.Contribution {

    /** Wall time of the run, in whole milliseconds. */
    public long durationMs() {
        return durationUs / 1000;
    }
}
