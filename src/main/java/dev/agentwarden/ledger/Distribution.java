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
 * <p>Counts live in an open-addressed table of primitive longs (one slot per distinct value, no
 * boxing per observation); the sorted view is built when first asked for and kept until the next
 * {@link #add}.
 */
public final class Distribution {
    private long[] values = new long[64];
    private long[] counts = new long[64];
    private boolean[] used = new boolean[64];
    private int distinct;
    private long n;
    private NavigableMap<Long, Long> sorted;

    public void add(long value) {
        int mask = values.length - 1;
        int slot = mix(value) & mask;
        while (used[slot]) {
            if (values[slot] == value) {
                counts[slot]++;
                n++;
                sorted = null;
                return;
            }
            slot = (slot + 1) & mask;
        }
        used[slot] = true;
        values[slot] = value;
        counts[slot] = 1;
        n++;
        sorted = null;
        if (++distinct * 2 > values.length) {
            grow();
        }
    }

    private static int mix(long v) {
        long h = v * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private void grow() {
        long[] oldValues = values;
        long[] oldCounts = counts;
        boolean[] oldUsed = used;
        values = new long[oldValues.length * 2];
        counts = new long[oldValues.length * 2];
        used = new boolean[oldValues.length * 2];
        int mask = values.length - 1;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldUsed[i]) {
                int slot = mix(oldValues[i]) & mask;
                while (used[slot]) {
                    slot = (slot + 1) & mask;
                }
                used[slot] = true;
                values[slot] = oldValues[i];
                counts[slot] = oldCounts[i];
            }
        }
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
        NavigableMap<Long, Long> h = histogram();
        for (java.util.Map.Entry<Long, Long> e : h.entrySet()) {
            seen += e.getValue();
            if (seen >= rank) {
                return e.getKey();
            }
        }
        return h.lastKey();
    }

    public Long max() {
        return n == 0 ? null : histogram().lastKey();
    }

    /** Observations at or above {@code threshold}. */
    public long atLeast(long threshold) {
        long sum = 0;
        for (long c : histogram().tailMap(threshold, true).values()) {
            sum += c;
        }
        return sum;
    }

    /** Value → number of observations, ascending. */
    public NavigableMap<Long, Long> histogram() {
        if (sorted == null) {
            long[] keys = new long[distinct];
            int k = 0;
            for (int i = 0; i < values.length; i++) {
                if (used[i]) {
                    keys[k++] = values[i];
                }
            }
            Arrays.sort(keys);
            TreeMap<Long, Long> m = new TreeMap<>();
            for (long key : keys) {
                m.put(key, countOf(key));
            }
            sorted = Collections.unmodifiableNavigableMap(m);
        }
        return sorted;
    }

    private long countOf(long value) {
        int mask = values.length - 1;
        int slot = mix(value) & mask;
        while (values[slot] != value || !used[slot]) {
            slot = (slot + 1) & mask;
        }
        return counts[slot];
    }
}
