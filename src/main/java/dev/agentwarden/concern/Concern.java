package dev.agentwarden.concern;

/** A policy check that runs in-process on one event. Implementations must be cheap to construct. */
public interface Concern {

    /**
     * Evaluates one event. May throw: the dispatcher turns any exception into the concern's
     * defined failure outcome (allow, or block when fail_closed).
     */
    ConcernResult evaluate(ConcernContext context) throws Exception;
}
