package dev.agentwarden.decision;

import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.verdict.Verdict;
import java.util.Map;

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
 * @param updatedInput the tool input this run would have the host run instead (its raw rewrite, unless its
 *                   posture or a rewrite earlier in the chain set it aside), or {@code null}
 */
public record ConcernOutcome(String concern, ConcernResult raw, Verdict.Kind effective, String message,
                             long durationUs, String note, Map<String, Object> updatedInput)
        implements Verdict.Contribution {

    /** An outcome that rewrites nothing. */
    public ConcernOutcome(String concern, ConcernResult raw, Verdict.Kind effective, String message,
                          long durationUs, String note) {
        this(concern, raw, effective, message, durationUs, note, null);
    }

    @Override
    public String name() {
        return concern;
    }

    /** Wall time of the run, in whole milliseconds. */
    public long durationMs() {
        return durationUs / 1000;
    }
}
