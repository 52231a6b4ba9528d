package dev.agentwarden.dispatch;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Values computed once per key: the first thread to ask computes, every later one waits for that
 * result (or its failure). The suites that observe one run of a golden case share it through this.
 */
final class OncePerKey<V> {
    private final Map<String, FutureTask<V>> tasks = new ConcurrentHashMap<>();

    V get(String key, Callable<V> compute) throws Exception {
        FutureTask<V> task = new FutureTask<>(compute);
        FutureTask<V> earlier = tasks.putIfAbsent(key, task);
        if (earlier == null) {
            task.run();
        } else {
            task = earlier;
        }
        try {
            return task.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
