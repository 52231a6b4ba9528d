package dev.agentwarden.policytest;

import java.util.ArrayList;
import java.util.List;

/**
 * A case and what dispatch answered.
 *
 * @param failures what did not match, in words; empty when the case passed
 */
public record CaseResult(PolicyCase testCase, EventRun.Outcome outcome, List<String> failures) {

    public boolean passed() {
        return failures.isEmpty();
    }

    /** Compares {@code outcome} with what {@code c} expects. */
    public static CaseResult of(PolicyCase c, EventRun.Outcome outcome) {
        List<String> failures = new ArrayList<>();
        if (!c.verdict().equals(outcome.verdict())) {
            failures.add("expected " + c.verdict() + ", got " + outcome.verdict());
        }
        if (c.reasonContains() != null && (outcome.reason() == null || !outcome.reason().contains(c.reasonContains()))) {
            failures.add("reason does not contain \"" + c.reasonContains() + "\"");
        }
        if (c.output() != null && !c.output().strip().equals(outcome.response().stdout().strip())) {
            failures.add("host output differs: expected " + c.output().strip() + ", got "
                    + (outcome.response().stdout().isBlank() ? "(nothing)" : outcome.response().stdout().strip()));
        }
        return new CaseResult(c, outcome, List.copyOf(failures));
    }
}
