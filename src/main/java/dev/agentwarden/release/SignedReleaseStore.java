package dev.agentwarden.release;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The release store behind {@code --release-manifest M --trust-root R}: a DSSE-signed release
 * manifest, verified once when opened. A trusted manifest answers FOUND or NOT_REGISTERED; an
 * untrusted one answers UNTRUSTED with the verification's reason code for every key, so it can
 * never produce a VERIFIED or MISMATCH verdict.
 */
public final class SignedReleaseStore implements ReleaseStore {
    private final Verification verification;
    private final Map<ReleaseKey, ManifestEntry> entries;

    private SignedReleaseStore(Verification verification) {
        this.verification = verification;
        Map<ReleaseKey, ManifestEntry> byKey = new HashMap<>();
        for (ManifestEntry entry : verification.entries()) {
            byKey.put(entry.key(), entry);
        }
        this.entries = Map.copyOf(byKey);
    }

    /**
     * Verifies {@code manifest} against {@code trustRoot} at {@code clock.instant()} (read once) and
     * records the trusted versions in {@code floor}. Never throws for bad or missing files: those
     * make the store untrusted with a reason.
     *
     * @param floor where the last trusted versions live, normally
     *              {@link ReleaseFloor#forProject ReleaseFloor.forProject(root, env)}; {@code null}
     *              keeps them in memory only, which turns rollback protection off
     */
    public static SignedReleaseStore open(Path manifest, Path trustRoot, ReleaseFloor floor, Clock clock) {
        return open(manifest, trustRoot, floor, true, clock);
    }

    /**
     * As {@link #open(Path, Path, ReleaseFloor, Clock)}; with {@code record} false the recorded
     * versions are checked but left as they are.
     */
    public static SignedReleaseStore open(Path manifest, Path trustRoot, ReleaseFloor floor, boolean record,
                                          Clock clock) {
        TrustState state = floor == null ? TrustState.inMemory()
                : record ? TrustState.at(floor) : TrustState.readOnly(floor);
        return new SignedReleaseStore(ReleaseVerifier.verify(manifest, trustRoot, state, clock.instant()));
    }

    public Verification verification() {
        return verification;
    }

    @Override
    public boolean verifiedAgainstTrustRoot() {
        return verification.trusted();
    }

    @Override
    public ReleaseLookup lookup(ReleaseKey key) {
        if (!verification.trusted()) {
            return ReleaseLookup.untrusted(verification.reason());
        }
        ManifestEntry entry = entries.get(key);
        if (entry == null) {
            return ReleaseLookup.notRegistered("release_not_registered");
        }
        return ReleaseLookup.found(entry.toReleaseEntry());
    }
}
