package dev.agentwarden.guard;

import dev.agentwarden.ledger.LedgerLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One spawn-guard threshold pair. A spawn would be denied when {@code concurrent_open >=
 * maxConcurrent} (that many dispatches are already open), or, only where the caller's lineage is
 * real, when the new dispatch's depth {@code >= maxDepth}. An arm set to 0 is off.
 *
 * @param label          name used in ledger lines and settings ({@code n2m4})
 * @param maxDepth       depth arm threshold, or 0
 * @param maxConcurrent  concurrency arm threshold, or 0
 */
record Candidate(String label, long maxDepth, long maxConcurrent) {

    /** The arms that trip ({@code concurrent}, {@code depth}); empty when the spawn would pass. */
    public List<String> trippedArms(long concurrentOpen, Long spawnDepth) {
        List<String> on = new ArrayList<>(2);
        if (maxConcurrent > 0 && concurrentOpen >= maxConcurrent) {
            on.add("concurrent");
        }
        if (maxDepth > 0 && spawnDepth != null && spawnDepth >= maxDepth) {
            on.add("depth");
        }
        return on;
    }

    Map<String, Object> toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put(LedgerLine.Key.LABEL.wire(), label);
        o.put(LedgerLine.Key.MAX_DEPTH.wire(), maxDepth == 0 ? null : maxDepth);
        o.put(LedgerLine.Key.MAX_CONCURRENT.wire(), maxConcurrent == 0 ? null : maxConcurrent);
        return o;
    }
}
