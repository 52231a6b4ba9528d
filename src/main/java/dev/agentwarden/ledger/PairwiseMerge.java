package dev.agentwarden.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Merges the results of a ledger read in parts, in chain order, pairwise in a tree: each result is
 * merged into a growing one about log2(parts) times rather than once per part.
 */
public final class PairwiseMerge {
    private PairwiseMerge() {
    }

    /** Merges {@code parts} (in chain order, at least one) into the first, which is returned. */
    public static <R> R inChainOrder(List<R> parts, BiConsumer<R, R> mergeLaterIntoEarlier) {
        List<R> level = new ArrayList<>(parts);
        while (level.size() > 1) {
            List<R> next = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i < level.size(); i += 2) {
                if (i + 1 < level.size()) {
                    mergeLaterIntoEarlier.accept(level.get(i), level.get(i + 1));
                }
                next.add(level.get(i));
            }
            level = next;
        }
        return level.get(0);
    }
}
