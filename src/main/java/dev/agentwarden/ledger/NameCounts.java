package dev.agentwarden.ledger;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts per name (an envelope verdict, a stop-loss arm, a posture), in the order the names came
 * first: a bulk reader's tally, which adds to a count without a new object per line (the name a
 * line repeats from the line before, the same string as a bulk reader's string cache returns,
 * costs no lookup).
 */
public final class NameCounts {
    private final LinkedHashMap<String, long[]> counts = new LinkedHashMap<>();
    private String last;
    private long[] lastCount;

    /** Adds {@code n} to the count of {@code name}. */
    public void add(String name, long n) {
        long[] c;
        if (name == last && lastCount != null) {
            c = lastCount;
        } else {
            c = counts.get(name);
            if (c == null) {
                c = new long[1];
                counts.put(name, c);
            }
            last = name;
            lastCount = c;
        }
        c[0] += n;
    }

    /** Adds the counts of {@code later}: its names not counted here yet follow, in its order. */
    public void addAll(NameCounts later) {
        for (Map.Entry<String, long[]> e : later.counts.entrySet()) {
            add(e.getKey(), e.getValue()[0]);
        }
    }

    /** The count of {@code name}, 0 when it has none. */
    public long get(String name) {
        long[] c = counts.get(name);
        return c == null ? 0 : c[0];
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    /** Name → count, in the order the names came first. */
    public Map<String, Long> inOrder() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            out.put(e.getKey(), e.getValue()[0]);
        }
        return out;
    }

    /** Name → count, by name. */
    public TreeMap<String, Long> byName() {
        TreeMap<String, Long> out = new TreeMap<>();
        for (Map.Entry<String, long[]> e : counts.entrySet()) {
            out.put(e.getKey(), e.getValue()[0]);
        }
        return out;
    }
}
