package dev.agentwarden.inventory;

import java.util.ArrayList;
import java.util.List;

/**
 * One turn's {@code inventory_drift}, with why.
 *
 * @param variant the declared variant's label for {@link DriftStatus#EXPECTED_VARIANT}, else {@code null}
 * @param reasons what made it so (missing manifests, missing required tools), for a person
 */
public record DriftVerdict(DriftStatus status, String variant, List<String> reasons) {

    /**
     * Classifies a snapshot (or its absence) against a preregistration. Missing evidence never resolves
     * to NONE: no snapshot, or any server without a manifest, is INVALIDATING.
     */
    public static DriftVerdict classify(Preregistration prereg, InventorySnapshot snapshot) {
        List<String> reasons = new ArrayList<>();
        if (snapshot == null) {
            reasons.add("no inventory snapshot for this turn");
            return new DriftVerdict(DriftStatus.INVALIDATING, null, reasons);
        }
        for (ServerSnapshot s : snapshot.servers()) {
            if (!s.ok()) {
                reasons.add("missing manifest: " + s.key() + " " + s.status() + (s.reason() == null ? "" : ": " + s.reason()));
            }
        }
        for (String required : prereg.requiredTools()) {
            int slash = required.lastIndexOf('/');
            ServerSnapshot server = snapshot.server(required.substring(0, slash));
            if (server == null || !server.ok() || server.tool(required.substring(slash + 1)) == null) {
                reasons.add("required tool missing: " + required);
            }
        }
        if (!reasons.isEmpty()) {
            return new DriftVerdict(DriftStatus.INVALIDATING, null, reasons);
        }
        String hash = snapshot.sha256();
        if (hash.equals(prereg.baseline())) {
            return new DriftVerdict(DriftStatus.NONE, null, reasons);
        }
        for (var v : prereg.variants().entrySet()) {
            if (v.getValue().equals(hash)) {
                return new DriftVerdict(DriftStatus.EXPECTED_VARIANT, v.getKey(), reasons);
            }
        }
        reasons.add("inventory " + hash + " is neither the baseline nor a declared variant");
        return new DriftVerdict(DriftStatus.EXPLORATORY, null, reasons);
    }
}
