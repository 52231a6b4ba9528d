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
 * full buffer, and any question, folds it into a run: the sorted distinct values with their
 * cumulative counts. {@link #merge} takes the other distribution's runs as they are, without
 * merging them into this one's (a read in parts merges its parts' distributions on one thread,
 * after the parts are read): a percentile, a maximum or {@link #atLeast} is answered by binary
 * search over the runs, and only {@link #histogram} merges them into one. So memory is bounded
 * by the runs' distinct values (at most {@link #MAX_RUNS} runs before they are merged) plus
 * {@link #MAX_PENDING}.
 */
public final class Distribution {
    /** Largest buffer of unfolded observations. */
    static final int MAX_PENDING = 1 << 16;
    /** Most runs kept apart; one more merges them into one. */
    static final int MAX_RUNS = 64;
    private static final long[] NONE = new long[0];

    private long[] pending = new long[256];
    private int pendingCount;
    /**
     * The runs: of run {@code r}, the sorted distinct values {@code keys[r][0, distinct[r])} and
     * {@code cumulative[r][i]}, the observations at or below {@code keys[r][i]}. Run 0 takes the
     * folds; the others came from {@link #merge}. A run's arrays are never written once made, so
     * another distribution may share them.
     */
    private long[][] keys = {NONE};
    private long[][] cumulative = {NONE};
    private int[] distinct = {0};
    private int runs = 1;
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

    /** Adds every observation of {@code other} (which stays as it is). */
    public void merge(Distribution other) {
        other.fold();
        int otherRuns = other.runs;
        for (int r = 0; r < otherRuns; r++) {
            if (other.distinct[r] == 0) {
                continue;
            }
            if (runs == keys.length) {
                keys = Arrays.copyOf(keys, runs * 2);
                cumulative = Arrays.copyOf(cumulative, runs * 2);
                distinct = Arrays.copyOf(distinct, runs * 2);
            }
            keys[runs] = other.keys[r];
            cumulative[runs] = other.cumulative[r];
            distinct[runs] = other.distinct[r];
            runs++;
        }
        n += other.n;
        sorted = null;
        if (runs > MAX_RUNS) {
            mergeRuns();
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
        fold();
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * n));
        if (runs == 1) {
            int i = firstAtLeast(cumulative[0], distinct[0], rank);
            return keys[0][Math.min(i, distinct[0] - 1)];
        }
        // The smallest value with at least rank observations at or below it: one the runs hold.
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int r = 0; r < runs; r++) {
            if (distinct[r] > 0) {
                lo = Math.min(lo, keys[r][0]);
                hi = Math.max(hi, keys[r][distinct[r] - 1]);
            }
        }
        if (rank >= n) {
            return hi;
        }
        while (lo < hi) {
            long mid = (lo & hi) + ((lo ^ hi) >> 1);
            if (atMost(mid) >= rank) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** The largest observation; {@code null} when empty. */
    public Long max() {
        if (n == 0) {
            return null;
        }
        fold();
        long max = Long.MIN_VALUE;
        for (int r = 0; r < runs; r++) {
            if (distinct[r] > 0) {
                max = Math.max(max, keys[r][distinct[r] - 1]);
            }
        }
        return max;
    }

    /** Observations at or above {@code threshold}. */
    public long atLeast(long threshold) {
        fold();
        return threshold == Long.MIN_VALUE ? n : n - atMost(threshold - 1);
    }

    /** Value → number of observations, ascending. */
    public NavigableMap<Long, Long> histogram() {
        if (sorted == null) {
            fold();
            mergeRuns();
            TreeMap<Long, Long> m = new TreeMap<>();
            long before = 0;
            for (int i = 0; i < distinct[0]; i++) {
                m.put(keys[0][i], cumulative[0][i] - before);
                before = cumulative[0][i];
            }
            sorted = Collections.unmodifiableNavigableMap(m);
        }
        return sorted;
    }

    /**
     * Sorts the buffer and merges it, run-length counted, into run 0; any question does it too. A
     * bulk reader calls it on the thread that read a part, before the parts merge.
     */
    public void fold() {
        if (pendingCount == 0) {
            return;
        }
        Arrays.sort(pending, 0, pendingCount);
        long[] runKeys = new long[pendingCount];
        long[] runCumulative = new long[pendingCount];
        int count = 0;
        for (int i = 0; i < pendingCount; i++) {
            if (count == 0 || runKeys[count - 1] != pending[i]) {
                runKeys[count] = pending[i];
                runCumulative[count] = count == 0 ? 0 : runCumulative[count - 1];
                count++;
            }
            runCumulative[count - 1]++;
        }
        pendingCount = 0;
        if (distinct[0] == 0) {
            keys[0] = runKeys;
            cumulative[0] = runCumulative;
            distinct[0] = count;
            return;
        }
        mergeInto(0, runKeys, runCumulative, count);
    }

    /** Observations at or below {@code value} (the buffer folded). */
    private long atMost(long value) {
        long sum = 0;
        for (int r = 0; r < runs; r++) {
            int i = firstAbove(keys[r], distinct[r], value);
            if (i > 0) {
                sum += cumulative[r][i - 1];
            }
        }
        return sum;
    }

    /** The first index of {@code sorted[0, length)} holding a value above {@code value}, or {@code length}. */
    private static int firstAbove(long[] sorted, int length, long value) {
        int lo = 0;
        int hi = length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first index of {@code sorted[0, length)} holding {@code value} or more, or {@code length}. */
    private static int firstAtLeast(long[] sorted, int length, long value) {
        int lo = 0;
        int hi = length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Merges every run into run 0, pairwise in a tree. */
    private void mergeRuns() {
        while (runs > 1) {
            int kept = 0;
            for (int r = 0; r < runs; r += 2) {
                if (r + 1 < runs) {
                    mergeInto(r, keys[r + 1], cumulative[r + 1], distinct[r + 1]);
                }
                keys[kept] = keys[r];
                cumulative[kept] = cumulative[r];
                distinct[kept] = distinct[r];
                kept++;
            }
            for (int r = kept; r < runs; r++) {
                keys[r] = null;
                cumulative[r] = null;
            }
            runs = kept;
        }
    }

    /** Replaces run {@code r} with its merge with the given run (new arrays: the old ones may be shared). */
    private void mergeInto(int r, long[] otherKeys, long[] otherCumulative, int otherDistinct) {
        if (otherDistinct == 0) {
            return;
        }
        long[] ak = keys[r];
        long[] ac = cumulative[r];
        int a = distinct[r];
        long[] k = new long[a + otherDistinct];
        long[] c = new long[k.length];
        int i = 0;
        int j = 0;
        int out = 0;
        long total = 0;
        while (i < a || j < otherDistinct) {
            long key;
            long count = 0;
            if (j == otherDistinct || i < a && ak[i] < otherKeys[j]) {
                key = ak[i];
            } else {
                key = otherKeys[j];
            }
            if (i < a && ak[i] == key) {
                count += ac[i] - (i == 0 ? 0 : ac[i - 1]);
                i++;
            }
            if (j < otherDistinct && otherKeys[j] == key) {
                count += otherCumulative[j] - (j == 0 ? 0 : otherCumulative[j - 1]);
                j++;
            }
            total += count;
            k[out] = key;
            c[out++] = total;
        }
        keys[r] = k;
        cumulative[r] = c;
        distinct[r] = out;
    }
}
