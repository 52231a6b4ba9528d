package dev.agentwarden.ledger;

import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A counted distribution of integer observations with nearest-rank percentiles: the p-th
 * percentile is the smallest value with at least {@code ceil(p/100 · n)} observations at or below
 * it, so it is always an observed value (with fewer than 100 observations p99 is the maximum).
 */
public final class Distribution {
    private final TreeMap<Long, Long> counts = new TreeMap<>();
    private long n;

    public void add(long value) {
        counts.merge(value, 1L, Long::sum);
        n++;
    }

    public long count() {
        return n;
    }

    /** The nearest-rank percentile for {@code p} in (0, 100]; {@code null} when empty. */
    public Long percentile(double p) {
        if (n == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * n));
        long seen = 0;
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
            seen += e.getValue();
            if (seen >= rank) {
                return e.getKey();
            }
        }
        return counts.lastKey();
    }

    public Long max() {
        return n == 0 ? null : counts.lastKey();
    }

    /** Observations at or above {@code threshold}. */
    public long atLeast(long threshold) {
        return counts.tailMap(threshold, true).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Value → number of observations, ascending. */
    public NavigableMap<Long, Long> histogram() {
        return Collections.unmodifiableNavigableMap(counts);
    }
}
