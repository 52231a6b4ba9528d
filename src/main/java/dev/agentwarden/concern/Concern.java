package dev.agentwarden.concern;

/**
 * A policy check that runs in-process on one event. One instance runs every event its manifest
 * binds it to, concurrently in a resident: an implementation keeps what an event needs in the
 * {@link ConcernContext} and local variables, never in its own fields.
 */
public interface Concern {

    /**
     * Evaluates one event. May throw: the dispatcher turns any exception into the concern's
     * defined failure outcome (allow, or block when fail_closed).
     */
    ConcernResult evaluate(ConcernContext context) throws Exception;
}
