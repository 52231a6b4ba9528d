package dev.agentwarden.dispatch;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;

/**
 * Runs a built-in concern that does file I/O on a worker thread and waits at most its
 * {@code timeout_ms}, as a process concern is waited for. Past the deadline the worker is
 * interrupted (which ends a ledger-lock wait and closes a file channel blocked in a read) and the
 * run counts as an error, so the fail mode decides; the host is answered either way.
 */
final class BoundedBuiltin implements Runnable {
    private final Concern concern;
    private final ConcernContext context;
    private volatile ConcernResult result;
    private volatile Throwable failure;

    private BoundedBuiltin(Concern concern, ConcernContext context) {
        this.concern = concern;
        this.context = context;
    }

    /** The concern's result, or an error result when it threw or did not finish within {@code timeoutMs}. */
    static ConcernResult run(Concern concern, ConcernContext context, int timeoutMs) {
        BoundedBuiltin task = new BoundedBuiltin(concern, context);
        Thread worker = new Thread(task, "warden-builtin-" + context.spec().name());
        worker.setDaemon(true);
        worker.start();
        try {
            worker.join(timeoutMs);
        } catch (InterruptedException e) {
            worker.interrupt();
            Thread.currentThread().interrupt();
            return ConcernResult.error("interrupted while waiting for the built-in");
        }
        if (worker.isAlive()) {
            worker.interrupt();
            return ConcernResult.error("timeout after " + timeoutMs + " ms (timeout_ms); the built-in was interrupted");
        }
        if (task.failure != null) {
            return ConcernResult.error("crashed: " + task.failure);
        }
        return task.result == null ? ConcernResult.allow() : task.result;
    }

    @Override
    public void run() {
        try {
            result = concern.evaluate(context);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            failure = e;
        }
    }
}
