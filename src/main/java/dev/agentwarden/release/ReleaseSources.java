package dev.agentwarden.release;

import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Opens the trusted release manifest a gate consults: the unsigned JSON file store
 * ({@code --release-manifest M}), or the signed store ({@code --release-manifest M --trust-root R}).
 * The evidence records which one ({@code manifest.path}, {@code manifest.sha256} and, for a signed
 * manifest, {@code manifest.trust_root}), so a replay can open the same one again.
 */
public final class ReleaseSources {
    /** Why an unsigned manifest's answer does not count when a trusted manifest is required. */
    public static final String UNSIGNED_MANIFEST = "release_manifest_unsigned: the release manifest is not verified"
            + " against a trust root; a required trusted manifest must be signed and given with its trust root (--trust-root)";

    private ReleaseSources() {
    }

    /**
     * The release source for a gate.
     *
     * @param manifest  the manifest file, or {@code null} for none
     * @param trustRoot the trust root for a signed manifest, or {@code null} for the unsigned store
     * @param floor     where a signed manifest's rollback floor lives ({@code null}: in memory only)
     * @throws ReleaseStoreException   for a defective unsigned manifest (a signed one never throws:
     *                                  it answers UNTRUSTED with the reason)
     * @throws IllegalArgumentException for a trust root without a manifest
     */
    public static ReleaseSource open(Path manifest, Path trustRoot, ReleaseFloor floor, Clock clock) {
        if (manifest == null) {
            if (trustRoot != null) {
                throw new IllegalArgumentException("--trust-root needs --release-manifest");
            }
            return ReleaseSource.NONE;
        }
        if (trustRoot == null) {
            return unsigned(manifest);
        }
        SignedReleaseStore store = SignedReleaseStore.open(manifest, trustRoot, floor, clock);
        return new ReleaseSource(store, signedRef(manifest, trustRoot));
    }

    /**
     * The unsigned release manifest {@code manifest} as a gate's source.
     *
     * @throws ReleaseStoreException for a defective manifest
     */
    public static ReleaseSource unsigned(Path manifest) {
        return of(JsonFileReleaseStore.open(manifest));
    }

    /** An unsigned store already read, as a gate's source: evidence names it by its {@link JsonFileReleaseStore#ref}. */
    public static ReleaseSource of(JsonFileReleaseStore store) {
        return new ReleaseSource(store, store.ref());
    }

    /**
     * The source of a gate that requires a trusted manifest but was given {@code manifest} without a
     * trust root: the file is not read as a list, and every lookup answers UNTRUSTED
     * ({@code release_manifest_unsigned}), so the gate halts. The evidence still names the file.
     */
    public static ReleaseSource unverified(Path manifest) {
        Map<String, String> ref = new LinkedHashMap<>();
        ref.put("path", manifest.toAbsolutePath().normalize().toString());
        ref.put("sha256", sha256OrNull(manifest));
        return new ReleaseSource(key -> ReleaseLookup.untrusted(UNSIGNED_MANIFEST), ref);
    }

    /**
     * Opens the manifest a session recorded, for a replay. A signed manifest is verified at the
     * recorded time {@code at} with in-memory rollback state, so the replay judges it as the session
     * did and leaves the recorded floor alone.
     *
     * @throws ReleaseStoreException when the recorded manifest cannot be opened
     */
    public static ReleaseSource reopen(Map<String, String> ref, Instant at) {
        Path manifest = Path.of(ref.get("path"));
        if (!Files.isRegularFile(manifest)) {
            throw new ReleaseStoreException("release_manifest_unreadable", manifest + " does not exist");
        }
        String trustRoot = ref.get("trust_root");
        if (trustRoot == null) {
            return unsigned(manifest);
        }
        SignedReleaseStore store = SignedReleaseStore.open(manifest, Path.of(trustRoot), (ReleaseFloor) null, Clock.fixed(at,
                java.time.ZoneOffset.UTC));
        return new ReleaseSource(store, signedRef(manifest, Path.of(trustRoot)));
    }

    /** Why a signed source is untrusted, for people, or {@code null} when it is trusted or unsigned. */
    public static String untrustedDetail(ReleaseSource source) {
        if (source.store() instanceof SignedReleaseStore signed && !signed.verification().trusted()) {
            return signed.verification().reason() + ": " + signed.verification().detail();
        }
        return null;
    }

    private static Map<String, String> signedRef(Path manifest, Path trustRoot) {
        Map<String, String> ref = new LinkedHashMap<>();
        ref.put("path", manifest.toAbsolutePath().normalize().toString());
        ref.put("sha256", sha256OrNull(manifest));
        ref.put("trust_root", trustRoot.toAbsolutePath().normalize().toString());
        return ref;
    }

    private static String sha256OrNull(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(JsonFileReleaseStore.MAX_BYTES + 1);
            return bytes.length > JsonFileReleaseStore.MAX_BYTES ? null : Sha256.hex(bytes);
        } catch (IOException e) {
            return null;
        }
    }
}
