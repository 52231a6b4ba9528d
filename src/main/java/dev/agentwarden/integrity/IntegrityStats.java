package dev.agentwarden.integrity;

import dev.agentwarden.release.ReleaseLookup;
import java.util.EnumMap;
import java.util.Map;

/**
 * Outcome counts over replayed sessions. HALT_CORRUPT (proven loss) and UNKNOWN_HALT (missing
 * evidence) are always separate counts.
 *
 * <p>A <em>healthy</em> session is one whose evidence replayed cleanly, whose transport is INTACT
 * and whose release is UNREGISTERED by a trustworthy "no entry" (not an untrusted manifest): a
 * user-local or freshly updated artifact that arrived whole. Any halt among them is a false halt;
 * the decision table makes the rate zero, and this count is what shows it stays so.
 *
 * @param sessions          sessions replayed
 * @param outcomes          recomputed outcome counts
 * @param healthy           healthy sessions
 * @param healthyHalts      healthy sessions that halted (false halts)
 * @param untrustedManifest sessions judged against an untrusted release manifest
 * @param disagreeing       sessions whose recorded verdicts differ from the recomputation
 * @param invalidLines      refused log lines
 */
public record IntegrityStats(int sessions, Map<Outcome, Integer> outcomes, int healthy, int healthyHalts,
                             int untrustedManifest, long disagreeing, long invalidLines) {

    public static IntegrityStats of(EvidenceReplay.Report report) {
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            counts.put(o, 0);
        }
        int healthy = 0;
        int healthyHalts = 0;
        int untrusted = 0;
        for (EvidenceReplay.SessionResult s : report.sessions()) {
            Evaluation e = s.recomputed();
            counts.merge(e.outcome(), 1, Integer::sum);
            boolean untrustedLookup = e.release() != null
                    && ReleaseLookup.Status.UNTRUSTED.name().equals(e.release().lookup());
            if (untrustedLookup) {
                untrusted++;
            }
            if (s.problems().isEmpty() && e.transportValue() == TransportIntegrity.INTACT
                    && e.releaseValue() == ReleaseIntegrity.UNREGISTERED && !untrustedLookup) {
                healthy++;
                if (e.outcome().halts()) {
                    healthyHalts++;
                }
            }
        }
        return new IntegrityStats(report.sessions().size(), counts, healthy, healthyHalts, untrusted,
                report.disagreeing(), report.invalidLines());
    }

    /** Halts among healthy sessions over healthy sessions, or 0 when there are none. */
    public double falseHaltRate() {
        return healthy == 0 ? 0.0 : (double) healthyHalts / healthy;
    }

    public int count(Outcome o) {
        return outcomes.getOrDefault(o, 0);
    }
}
