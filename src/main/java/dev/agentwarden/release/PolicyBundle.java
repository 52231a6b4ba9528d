package dev.agentwarden.release;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A managed policy bundle: the administrator's files ({@code manifest.yaml}, {@code settings.json})
 * as one DSSE envelope, signed by a threshold of the keys of a TUF-style trust root, exactly as a
 * release manifest is ({@link TrustRoot}, {@link Dsse}, root rotation by {@code <N+1>.root.json}
 * beside the root file). The payload is
 * {@code {"_type":"policy-bundle","version":N,"expires":"<RFC 3339>","files":{"manifest.yaml":"<text>",...}}}.
 *
 * <p>{@link #verify} checks, at one instant: the root is signed by its own threshold, each rotation
 * by the previous and its own, the last root has not expired and is not older than the root trusted
 * before; the envelope is signed by a threshold of the last root's keys (a key that a rotation
 * removed, i.e. revoked, counts for nothing); the bundle version is above the floor (no rollback,
 * no replay of the installed version) and the bundle has not expired.
 */
public final class PolicyBundle {
    public static final String PAYLOAD_TYPE = "application/vnd.agent-warden.policy-bundle+json";
    static final String TYPE = "policy-bundle";
    /** The files a bundle may carry; scripts are not part of the managed layer yet. */
    public static final List<String> FILES = List.of("manifest.yaml", "settings.json");
    public static final int MAX_FILE_BYTES = 1024 * 1024;

    private PolicyBundle() {
    }

    /**
     * A bundle that verified.
     *
     * @param signers     key ids of the root keys that signed it
     * @param rootSha256  which root signed it (RFC 8785 SHA-256 of its {@code signed})
     * @param sha256      SHA-256 of the envelope bytes
     */
    public record Verified(long version, Instant expires, Map<String, byte[]> files, List<String> signers,
                           long rootVersion, String rootSha256, String sha256) {
    }

    /** Why a bundle is refused: a stable code ({@code bundle_rollback}, {@code signature_threshold_not_met}, ...) and the detail. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final String code;

        public Refused(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * Verifies {@code envelope} against the root at {@code rootFile}.
     *
     * @param floorVersion     the installed bundle's version: the new one must be above it
     * @param floorRootVersion the root version trusted before: the root walked to may not be below it
     */
    public static Verified verify(byte[] envelope, Path rootFile, long floorVersion, long floorRootVersion, Instant at)
            throws Refused {
        try {
            return run(envelope, rootFile, floorVersion, floorRootVersion, at);
        } catch (Untrusted e) {
            return failed(e.failure().code(), e.getMessage());
        }
    }

    private static Verified failed(String code, String message) throws Refused {
        throw new Refused(code, message);
    }

    private static Verified run(byte[] bytes, Path rootFile, long floorVersion, long floorRootVersion, Instant at)
            throws Untrusted, Refused {
        TrustRoot root = TrustRoot.parse(read(rootFile), rootFile.toString());
        if (root.signers(root.signedBytes(), root.signatures()).size() < root.threshold()) {
            throw TrustFailure.ROOT_SIGNATURE_THRESHOLD_NOT_MET.because(rootFile + ": fewer than " + root.threshold()
                    + " of its own keys signed it");
        }
        root = rotate(root, rootFile);
        if (root.version() < floorRootVersion) {
            throw TrustFailure.ROOT_ROLLBACK.because("root version " + root.version() + " is below the trusted version "
                    + floorRootVersion);
        }
        if (!root.expires().isAfter(at)) {
            throw TrustFailure.ROOT_EXPIRED.because("root version " + root.version() + " expired at "
                    + Rfc3339.format(root.expires()));
        }
        Dsse.Envelope envelope = Dsse.parse(bytes, "bundle");
        if (!PAYLOAD_TYPE.equals(envelope.payloadType())) {
            throw TrustFailure.MANIFEST_WRONG_PAYLOAD_TYPE.because("payloadType is '" + envelope.payloadType()
                    + "', expected '" + PAYLOAD_TYPE + "'");
        }
        Set<String> signers = root.signers(envelope.pae(), envelope.signatures());
        if (signers.size() < root.threshold()) {
            throw TrustFailure.SIGNATURE_THRESHOLD_NOT_MET.because(signers.size() + " of " + root.threshold()
                    + " required keys of root version " + root.version() + " signed it ("
                    + envelope.signatures().size() + " signature(s) present; a key that is unknown to the root, or"
                    + " that a rotation removed, counts for nothing)");
        }
        Object document;
        try {
            document = Json.parse(envelope.payload(), JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.MANIFEST_MALFORMED.because("payload: " + e.getMessage());
        }
        Fields<Untrusted> f = Fields.of(document, "payload", TrustFailure.MANIFEST_MALFORMED);
        if (!TYPE.equals(f.string("_type"))) {
            throw TrustFailure.MANIFEST_WRONG_TYPE.because("payload _type is '" + f.string("_type") + "', expected '"
                    + TYPE + "'");
        }
        long version = f.positiveLong("version", 1);
        Instant expires = f.parsed("expires", Rfc3339::parse);
        if (version <= floorVersion) {
            return failed("bundle_rollback", "bundle version " + version + " is not above the installed version "
                    + floorVersion + " (rollback or replay refused)");
        }
        if (!expires.isAfter(at)) {
            return failed("bundle_expired", "bundle version " + version + " expired at " + Rfc3339.format(expires));
        }
        Fields<Untrusted> files = f.object("files");
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String name : files.map().keySet()) {
            if (!FILES.contains(name)) {
                return failed("bundle_file_not_allowed", "bundle file '" + name + "' is not one of " + FILES);
            }
            byte[] content = files.string(name).getBytes(StandardCharsets.UTF_8);
            if (content.length > MAX_FILE_BYTES) {
                return failed("bundle_file_too_large", name + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            out.put(name, content);
        }
        if (out.isEmpty()) {
            return failed("bundle_empty", "the bundle carries none of " + FILES);
        }
        return new Verified(version, expires, out, List.copyOf(signers), root.version(), root.signedSha256(),
                Sha256.hex(bytes));
    }

    private static TrustRoot rotate(TrustRoot root, Path rootFile) throws Untrusted {
        Path dir = rootFile.toAbsolutePath().getParent();
        for (int step = 0; step < ReleaseVerifier.MAX_ROTATIONS; step++) {
            Path next = dir.resolve((root.version() + 1) + ".root.json");
            if (!Files.isRegularFile(next)) {
                return root;
            }
            TrustRoot newer = TrustRoot.parse(read(next), next.toString());
            if (newer.version() != root.version() + 1) {
                throw TrustFailure.ROOT_ROTATION_VERSION_MISMATCH.because(next + " holds version " + newer.version());
            }
            if (root.signers(newer.signedBytes(), newer.signatures()).size() < root.threshold()) {
                throw TrustFailure.ROOT_ROTATION_OLD_THRESHOLD_NOT_MET.because(next + ": too few keys of root version "
                        + root.version() + " signed it");
            }
            if (newer.signers(newer.signedBytes(), newer.signatures()).size() < newer.threshold()) {
                throw TrustFailure.ROOT_ROTATION_NEW_THRESHOLD_NOT_MET.because(next + ": too few of its own keys signed it");
            }
            root = newer;
        }
        throw TrustFailure.ROOT_MALFORMED.because("more than " + ReleaseVerifier.MAX_ROTATIONS + " root rotations");
    }

    private static byte[] read(Path file) throws Untrusted {
        try {
            return dev.agentwarden.io.StateFiles.readAll(file, ReleaseVerifier.MAX_ROOT_BYTES, true);
        } catch (NoSuchFileException e) {
            throw TrustFailure.ROOT_UNREADABLE.because(file + " does not exist");
        } catch (IOException e) {
            throw TrustFailure.ROOT_UNREADABLE.because("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** A bundle of {@code files} (name to UTF-8 text) signed by each of {@code keyFiles}: the envelope's JSON. */
    public static byte[] sign(Map<String, byte[]> files, long version, Instant expires, List<Path> keyFiles)
            throws ReleaseException {
        Map<String, Object> fileMap = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (!FILES.contains(e.getKey())) {
                throw new ReleaseException("bundle_file_not_allowed", e.getKey() + " is not one of " + FILES);
            }
            fileMap.put(e.getKey(), new String(e.getValue(), StandardCharsets.UTF_8));
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("_type", TYPE);
        payload.put("version", version);
        payload.put("expires", Rfc3339.format(expires));
        payload.put("files", fileMap);
        byte[] body = Json.write(payload).getBytes(StandardCharsets.UTF_8);
        byte[] pae = Dsse.pae(PAYLOAD_TYPE, body);
        List<SignatureEntry> sigs = new ArrayList<>();
        for (Path keyFile : keyFiles) {
            SigningKey key = KeyFiles.readSigningKey(keyFile);
            try {
                sigs.add(new SignatureEntry(key.keyId(), Ed25519.sign(key.privateKey(), pae)));
            } catch (GeneralSecurityException e) {
                throw new ReleaseException("sign_failed", keyFile + ": " + e.getMessage(), e);
            }
        }
        Map<String, Object> doc = Dsse.document(new Dsse.Envelope(PAYLOAD_TYPE, body, sigs));
        return (Json.write(doc) + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
