package dev.agentwarden.release;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a release manifest can be trusted, following the TUF client workflow (spec
 * 1.0.34, section 5.3) adapted to one root role that also signs the manifest.
 *
 * <ol>
 *   <li>The trust root file is the anchor; it must be signed by a threshold of its own keys.</li>
 *   <li>Newer roots {@code <N+1>.root.json}, {@code <N+2>.root.json}, ... are looked for beside the
 *       trust root, then beside the manifest. Each must carry version N+1 and be signed by a
 *       threshold of the previous root's keys and by a threshold of its own. Intermediate roots may
 *       have expired; the last one may not.</li>
 *   <li>The last root's version may not be below the last trusted root version (rollback), and the
 *       root of that version in the chain walked must be the one trusted then ({@code root_replaced}
 *       otherwise: a re-initialised or forked root is not a continuation).</li>
 *   <li>The manifest envelope must be DSSE with payload type {@value ReleaseManifest#PAYLOAD_TYPE}
 *       and signed over its PAE by a threshold of distinct keys of the last root; the key id in a
 *       signature is only a hint. Only then is the payload read.</li>
 *   <li>The statement must be the right in-toto type, its version not below the last trusted
 *       manifest version, and its expiry after the verification time.</li>
 * </ol>
 *
 * All expiry checks use the one instant passed in ({@code expires <= at} is expired).
 *
 * <p>The manifest version floor belongs to the root lineage and is never lowered by a rotation,
 * whichever keys it removes: a rotation that forgot it would let any older manifest still signed by
 * a threshold of the remaining keys be trusted again. TUF's automatic fast-forward recovery is
 * deliberately not done; after a key compromise that signed a too-high version, the publisher
 * publishes above it, or the operator deletes the floor file ({@link ReleaseFloor}) on purpose.
 * Starting a new root lineage ({@code release root init} again) takes the same deliberate step.
 */
final class ReleaseVerifier {
    static final int MAX_ROOT_BYTES = 1024 * 1024;
    static final int MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
    static final int MAX_ROTATIONS = 1024;
    private static final String START_OVER = "; to start a new root lineage on purpose, delete that file (it also"
            + " forgets the trusted manifest version)";

    private final TrustState state;
    private final Instant at;
    private TrustRoot root;
    private Set<String> manifestSigners = Set.of();
    private long manifestVersion;
    private Instant manifestExpires;

    private ReleaseVerifier(TrustState state, Instant at) {
        this.state = state;
        this.at = at;
    }

    static Verification verify(Path manifest, Path trustRoot, TrustState state, Instant at) {
        ReleaseVerifier verifier = new ReleaseVerifier(state, at);
        try {
            return verifier.run(manifest, trustRoot);
        } catch (Untrusted e) {
            return Verification.untrusted(e.failure(), e.getMessage(), at,
                    verifier.root == null ? 0 : verifier.root.version(), verifier.manifestVersion,
                    verifier.manifestExpires, verifier.manifestSigners);
        }
    }

    private Verification run(Path manifestFile, Path trustRootFile) throws Untrusted {
        TrustState.Snapshot before = state.read();
        root = TrustRoot.parse(read(trustRootFile, MAX_ROOT_BYTES, TrustFailure.ROOT_UNREADABLE), trustRootFile.toString());
        Set<String> selfSigners = root.signers(root.signedBytes(), root.signatures());
        if (selfSigners.size() < root.threshold()) {
            throw TrustFailure.ROOT_SIGNATURE_THRESHOLD_NOT_MET.because(trustRootFile + ": " + selfSigners.size()
                    + " of " + root.threshold() + " required root keys signed it");
        }
        Map<Long, String> chain = new HashMap<>();
        chain.put(root.version(), root.signedSha256());
        rotate(trustRootFile, manifestFile, chain);
        if (root.version() < before.rootVersion()) {
            throw TrustFailure.ROOT_ROLLBACK.because("root version " + root.version() + " is below the trusted version "
                    + before.rootVersion() + " recorded in " + state.file() + START_OVER);
        }
        String walked = chain.get(before.rootVersion());
        if (before.rootSha256() != null && walked != null && !walked.equals(before.rootSha256())) {
            throw TrustFailure.ROOT_REPLACED.because("root version " + before.rootVersion() + " reached from "
                    + trustRootFile + " (sha256 " + walked + ") is not the root version " + before.rootVersion()
                    + " trusted before (sha256 " + before.rootSha256() + ", recorded in " + state.file()
                    + "); continue a root with 'release root rotate'" + START_OVER);
        }
        TrustState.Snapshot afterRoot = recordRoot(before);
        if (!root.expires().isAfter(at)) {
            throw TrustFailure.ROOT_EXPIRED.because("root version " + root.version() + " expired at "
                    + Rfc3339.format(root.expires()) + " (verification time " + Rfc3339.format(at) + ")");
        }

        Dsse.Envelope envelope = Dsse.parse(read(manifestFile, MAX_MANIFEST_BYTES, TrustFailure.MANIFEST_UNREADABLE),
                manifestFile.toString());
        if (!ReleaseManifest.PAYLOAD_TYPE.equals(envelope.payloadType())) {
            throw TrustFailure.MANIFEST_WRONG_PAYLOAD_TYPE.because(manifestFile + ": payloadType is '"
                    + envelope.payloadType() + "', expected '" + ReleaseManifest.PAYLOAD_TYPE + "'");
        }
        manifestSigners = root.signers(envelope.pae(), envelope.signatures());
        if (manifestSigners.size() < root.threshold()) {
            throw TrustFailure.SIGNATURE_THRESHOLD_NOT_MET.because(manifestFile + ": " + manifestSigners.size() + " of "
                    + root.threshold() + " required keys of root version " + root.version() + " signed it ("
                    + envelope.signatures().size() + " signature(s) present)");
        }
        ReleaseManifest manifest = ReleaseManifest.parse(envelope.payload(), manifestFile.toString());
        manifestVersion = manifest.version();
        manifestExpires = manifest.expires();
        if (manifest.version() < afterRoot.manifestVersion()) {
            throw TrustFailure.MANIFEST_ROLLBACK.because("manifest version " + manifest.version()
                    + " is below the trusted version " + afterRoot.manifestVersion() + " recorded in " + state.file());
        }
        if (!manifest.expires().isAfter(at)) {
            throw TrustFailure.MANIFEST_EXPIRED.because("manifest version " + manifest.version() + " expired at "
                    + Rfc3339.format(manifest.expires()) + " (verification time " + Rfc3339.format(at) + ")");
        }
        state.update(s -> s.manifestVersion() >= manifest.version() ? s
                : new TrustState.Snapshot(s.rootVersion(), s.rootSha256(), manifest.version()));
        return new Verification(true, null, "trusted: manifest version " + manifest.version() + ", root version "
                + root.version() + ", " + manifestSigners.size() + " of " + root.threshold() + " keys signed",
                at, root.version(), manifest.version(), manifest.expires(), Set.copyOf(manifestSigners),
                manifest.entries());
    }

    /**
     * Follows {@code <N+1>.root.json} files from the current root for as long as they exist, noting
     * each root's {@link TrustRoot#signedSha256()} by version in {@code chain}.
     */
    private void rotate(Path trustRootFile, Path manifestFile, Map<Long, String> chain) throws Untrusted {
        List<Path> dirs = new ArrayList<>();
        dirs.add(parentOf(trustRootFile));
        Path manifestDir = parentOf(manifestFile);
        if (!dirs.contains(manifestDir)) {
            dirs.add(manifestDir);
        }
        for (int step = 0; step < MAX_ROTATIONS; step++) {
            long nextVersion = root.version() + 1;
            Path next = null;
            for (Path dir : dirs) {
                Path candidate = dir.resolve(nextVersion + ".root.json");
                if (Files.isRegularFile(candidate)) {
                    next = candidate;
                    break;
                }
            }
            if (next == null) {
                return;
            }
            TrustRoot newer = TrustRoot.parse(read(next, MAX_ROOT_BYTES, TrustFailure.ROOT_UNREADABLE), next.toString());
            if (newer.version() != nextVersion) {
                throw TrustFailure.ROOT_ROTATION_VERSION_MISMATCH.because(next + " holds version " + newer.version()
                        + ", expected " + nextVersion);
            }
            byte[] signedBytes = newer.signedBytes();
            Set<String> byOld = root.signers(signedBytes, newer.signatures());
            if (byOld.size() < root.threshold()) {
                throw TrustFailure.ROOT_ROTATION_OLD_THRESHOLD_NOT_MET.because(next + ": " + byOld.size() + " of "
                        + root.threshold() + " required keys of root version " + root.version() + " signed it");
            }
            Set<String> byNew = newer.signers(signedBytes, newer.signatures());
            if (byNew.size() < newer.threshold()) {
                throw TrustFailure.ROOT_ROTATION_NEW_THRESHOLD_NOT_MET.because(next + ": " + byNew.size() + " of "
                        + newer.threshold() + " required keys of its own signed it");
            }
            root = newer;
            chain.put(newer.version(), newer.signedSha256());
        }
        throw TrustFailure.ROOT_MALFORMED.because("more than " + MAX_ROTATIONS + " root rotations in a row");
    }

    /**
     * Remembers the current root when it is newer (or, at the same version, when a format-1 state
     * did not know its hash). The manifest version floor is carried over unchanged.
     */
    private TrustState.Snapshot recordRoot(TrustState.Snapshot before) throws Untrusted {
        long version = root.version();
        String sha = root.signedSha256();
        if (version < before.rootVersion() || version == before.rootVersion() && before.rootSha256() != null) {
            return before;
        }
        return state.update(s -> s.rootVersion() > version || s.rootVersion() == version && s.rootSha256() != null ? s
                : new TrustState.Snapshot(version, sha, s.manifestVersion()));
    }

    private static byte[] read(Path file, int maxBytes, TrustFailure failure) throws Untrusted {
        try {
            return StateFiles.readAll(file, maxBytes, true);
        } catch (NoSuchFileException e) {
            throw failure.because(file + " does not exist");
        } catch (IOException e) {
            throw failure.because("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static Path parentOf(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        return parent != null ? parent : file.toAbsolutePath();
    }
}
