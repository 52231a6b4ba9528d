package dev.agentwarden.ledger;

import java.util.Arrays;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A counted distribution of integer observations with nearest-rank percentiles: the p-th
 * percentile is the smallest value with at least {@code ceil(p/100 · n)} observations at or below
 * it, so it is always an observed value (with fewer than 100 observations p99 is the maximum).
 *
 * <p>Observations are appended to a primitive buffer (no boxing, no hashing per observation); a
 * full buffer, and any question, folds it into the sorted distinct values and their counts. So
 * memory is bounded by the distinct values plus {@link #MAX_PENDING}, and two distributions of
 * parts of a read {@link #merge} into the one of the whole.
 */
public final class Distribution {
    /** Largest buffer of unfolded observations. */
    static final int MAX_PENDING = 1 << 16;

    private long[] pending = new long[256];
    private int pendingCount;
    private long[] keys = new long[0];
    private long[] counts = new long[0];
    private int distinct;
    private long n;
    private NavigableMap<Long, Long> sorted;

    public void add(long value) {
        if (pendingCount == pending.length) {
            if (pending.length < MAX_PENDING) {
                pending = Arrays.copyOf(pending, pending.length * 2);
            } else {
                fold();
            }
        }
        pending[pendingCount++] = value;
        n++;
        sorted = null;
    }

    /** Adds every observation of {@code other}. */
    public void merge(Distribution other) {
        other.fold();
        fold();
        mergeRuns(other.keys, other.counts, other.distinct);
        n += other.n;
        sorted = null;
    }

    public long count() {
        return n;
    }

    /** The nearest-rank percentile for {@code p} in (0, 100]; {@code null} when empty. */
    public Long percentile(double p) {
        if (n == 0) {
            return null;
        }
        fold();
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * n));
        long seen = 0;
        for (int i = 0; i < distinct; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return keys[i];
            }
        }
        return keys[distinct - 1];
    }

    /** The largest observation; {@code null} when empty. */
    public Long max() {
        if (n == 0) {
            return null;
        }
        fold();
        return keys[distinct - 1];
    }

    /** Observations at or above {@code threshold}. */
    public long atLeast(long threshold) {
        fold();
        long sum = 0;
        for (int i = distinct - 1; i >= 0 && keys[i] >= threshold; i--) {
            sum += counts[i];
        }
        return sum;
    }

    /** Value → number of observations, ascending. */
    public NavigableMap<Long, Long> histogram() {
        if (sorted == null) {
            fold();
            TreeMap<Long, Long> m = new TreeMap<>();
            for (int i = 0; i < distinct; i++) {
                m.put(keys[i], counts[i]);
            }
            sorted = Collections.unmodifiableNavigableMap(m);
        }
        return sorted;
    }

    /**
     * Sorts the buffer and merges it, run-length counted, into the distinct values; any question
     * does it too. A bulk reader calls it on the thread that read a part, before the parts merge.
     */
    public void fold() {
        if (pendingCount == 0) {
            return;
        }
        Arrays.sort(pending, 0, pendingCount);
        long[] runKeys = new long[pendingCount];
        long[] runCounts = new long[pendingCount];
        int runs = 0;
        for (int i = 0; i < pendingCount; i++) {
            if (runs > 0 && runKeys[runs - 1] == pending[i]) {
                runCounts[runs - 1]++;
            } else {
                runKeys[runs] = pending[i];
                runCounts[runs] = 1;
                runs++;
            }
        }
        pendingCount = 0;
        mergeRuns(runKeys, runCounts, runs);
    }

    private void mergeRuns(long[] otherKeys, long[] otherCounts, int otherDistinct) {
        if (otherDistinct == 0) {
            return;
        }
        long[] k = new long[distinct + otherDistinct];
        long[] c = new long[k.length];
        int i = 0;
        int j = 0;
        int out = 0;
        while (i < distinct || j < otherDistinct) {
            if (j == otherDistinct || i < distinct && keys[i] < otherKeys[j]) {
                k[out] = keys[i];
                c[out++] = counts[i++];
            } else if (i == distinct || otherKeys[j] < keys[i]) {
                k[out] = otherKeys[j];
                c[out++] = otherCounts[j++];
            } else {
                k[out] = keys[i];
                c[out++] = counts[i++] + otherCounts[j++];
            }
        }
        keys = k;
        counts = c;
        distinct = out;
    }
}
