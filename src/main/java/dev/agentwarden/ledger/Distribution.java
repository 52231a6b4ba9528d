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
    private long[] sortedKeys;
    private long[] sortedCounts;

    public void add(long value) {
        int mask = values.length - 1;
        int slot = mix(value) & mask;
        while (used[slot]) {
            if (values[slot] == value) {
                counts[slot]++;
                n++;
                sorted = null;
                sortedKeys = null;
                return;
            }
            slot = (slot + 1) & mask;
        }
        used[slot] = true;
        values[slot] = value;
        counts[slot] = 1;
        n++;
        sorted = null;
        sortedKeys = null;
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
        sort();
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * n));
        long seen = 0;
        for (int i = 0; i < sortedKeys.length; i++) {
            seen += sortedCounts[i];
            if (seen >= rank) {
                return sortedKeys[i];
            }
        }
        return sortedKeys[sortedKeys.length - 1];
    }

    public Long max() {
        if (n == 0) {
            return null;
        }
        sort();
        return sortedKeys[sortedKeys.length - 1];
    }

    /** Observations at or above {@code threshold}. */
    public long atLeast(long threshold) {
        sort();
        long sum = 0;
        for (int i = sortedKeys.length - 1; i >= 0 && sortedKeys[i] >= threshold; i--) {
            sum += sortedCounts[i];
        }
        return sum;
    }

    /** Value → number of observations, ascending. */
    public NavigableMap<Long, Long> histogram() {
        if (sorted == null) {
            sort();
            TreeMap<Long, Long> m = new TreeMap<>();
            for (int i = 0; i < sortedKeys.length; i++) {
                m.put(sortedKeys[i], sortedCounts[i]);
            }
            sorted = Collections.unmodifiableNavigableMap(m);
        }
        return sorted;
    }

    /** The distinct values ascending, with their counts, once per change. */
    private void sort() {
        if (sortedKeys != null) {
            return;
        }
        long[] keys = new long[distinct];
        int k = 0;
        for (int i = 0; i < values.length; i++) {
            if (used[i]) {
                keys[k++] = values[i];
            }
        }
        Arrays.sort(keys);
        long[] c = new long[keys.length];
        for (int i = 0; i < keys.length; i++) {
            c[i] = countOf(keys[i]);
        }
        sortedKeys = keys;
        sortedCounts = c;
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
