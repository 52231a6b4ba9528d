package dev.agentwarden.release;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Fields;
import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.AtomicWrite;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a release publisher does: write trust roots (first and rotated), register artifacts in a
 * manifest, and sign either kind of file with one key at a time, so that keys held by different
 * people never need to meet. Files are written whole and replaced atomically.
 */
public final class Publisher {
    /** Largest artifact {@link #add} hashes. */
    static final long MAX_ARTIFACT_BYTES = 256L * 1024 * 1024;

    private Publisher() {
    }

    /** A root file as written: its version, key ids, threshold and expiry. */
    public record RootWritten(Path file, long version, List<String> keyIds, int threshold, Instant expires) {
    }

    /** A manifest as written. {@code droppedSignatures} counts signatures the edit invalidated. */
    public record ManifestWritten(Path file, long version, Instant expires, ManifestEntry entry, int entries,
                                  int droppedSignatures) {
    }

    /** A signature added to a file; {@code listed} tells whether the signing key is among the root's keys. */
    public record Signed(Path file, String kind, String keyId, int signatures, boolean replaced, boolean listed) {
    }

    /** Writes an unsigned version-1 root listing the given public keys. */
    public static RootWritten initRoot(List<Path> publicKeyFiles, int threshold, Instant expires, Path out)
            throws ReleaseException {
        if (Files.exists(out)) {
            throw new ReleaseException("root_exists", "refusing to overwrite " + out);
        }
        List<byte[]> keys = new ArrayList<>();
        for (Path file : publicKeyFiles) {
            keys.add(KeyFiles.readPublicKey(file));
        }
        return writeRoot(TrustRoot.newSigned(1, expires, distinct(keys), threshold), threshold, out);
    }

    /**
     * Writes the unsigned successor (version N+1) of {@code current}: its keys plus {@code add} minus
     * {@code remove} (key ids, or key files), with a new threshold and expiry when given. It becomes
     * trusted once a threshold of the current root's keys and a threshold of its own keys sign it.
     *
     * @param out where to write, or {@code null} for {@code <N+1>.root.json} beside {@code current}
     */
    public static RootWritten rotateRoot(Path current, List<Path> add, List<String> remove, Integer threshold,
                                         Instant expires, Path out) throws ReleaseException {
        TrustRoot root = readRoot(current);
        Map<String, Object> keys = new LinkedHashMap<>(Fields.asMap(root.signed().get("keys")));
        for (String ref : remove) {
            String keyId = ref.matches("[0-9a-f]{64}") ? ref : RootKey.keyId(KeyFiles.readPublicKey(Path.of(ref)));
            if (keys.remove(keyId) == null) {
                throw new ReleaseException("key_not_listed", "key " + ref + " is not in " + current);
            }
        }
        for (Path file : add) {
            byte[] raw = KeyFiles.readPublicKey(file);
            keys.put(RootKey.keyId(raw), RootKey.keyObject(raw));
        }
        Map<String, Object> signed = new LinkedHashMap<>(root.signed());
        signed.put("version", root.version() + 1);
        signed.put("expires", Rfc3339.format(expires != null ? expires : root.expires()));
        signed.put("keys", keys);
        int newThreshold = threshold != null ? threshold : root.threshold();
        signed.put("threshold", (long) newThreshold);
        Path target = out != null ? out
                : current.toAbsolutePath().resolveSibling((root.version() + 1) + ".root.json");
        if (Files.exists(target)) {
            throw new ReleaseException("root_exists", "refusing to overwrite " + target);
        }
        return writeRoot(signed, newThreshold, target);
    }

    /**
     * How {@link #add} registers an artifact.
     *
     * @param normalization the normalization profile whose digest the entry also records, or {@code null}
     * @param expires       new expiry, required when creating
     * @param version       explicit version, or {@code null} for the rule of {@link #add}
     * @param replace       whether an entry with the same key may be replaced
     */
    public record AddOptions(String normalization, Instant expires, Long version, boolean replace) {
    }

    /**
     * Registers {@code artifact} under its key in {@code manifest}, creating the manifest if needed.
     * Editing a manifest that carries signatures starts its next version and drops the signatures;
     * editing an unsigned draft keeps its version.
     *
     * @param key     the release the artifact is registered under
     */
    public static ManifestWritten add(Path manifest, Path artifact, String agentId, ReleaseKey key, AddOptions options)
            throws ReleaseException {
        String agentVersion = key.agentVersion();
        String clientId = key.clientId();
        String clientVersion = key.clientVersion();
        String normalization = options.normalization();
        Instant expires = options.expires();
        Long version = options.version();
        boolean replace = options.replace();
        if (normalization != null && !Normalizations.NAMES.contains(normalization)) {
            throw new ReleaseException("normalization_unknown", "unknown normalization profile '" + normalization
                    + "'; known: " + Normalizations.NAMES);
        }
        byte[] bytes = readArtifact(artifact);
        ManifestEntry entry = new ManifestEntry(agentId, agentVersion, clientId, clientVersion, Sha256.hex(bytes),
                bytes.length, normalization == null ? null : Sha256.hex(Normalizations.apply(normalization, bytes)),
                normalization);

        List<ManifestEntry> entries = new ArrayList<>();
        long nextVersion;
        Instant nextExpires;
        int dropped = 0;
        if (Files.exists(manifest)) {
            Dsse.Envelope envelope = readEnvelope(manifest);
            ReleaseManifest current = parseManifest(envelope.payload(), manifest);
            entries.addAll(current.entries());
            dropped = envelope.signatures().size();
            nextVersion = dropped > 0 ? current.version() + 1 : current.version();
            nextExpires = current.expires();
        } else {
            if (expires == null) {
                throw new ReleaseException("manifest_expires_required", "creating " + manifest + " needs an expiry");
            }
            nextVersion = 1;
            nextExpires = expires;
        }
        boolean found = false;
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).key().equals(entry.key())) {
                if (!replace) {
                    throw new ReleaseException("manifest_duplicate_entry", manifest + " already registers "
                            + ReleaseManifest.describe(entry.key()) + " (use --replace)");
                }
                entries.set(i, entry);
                found = true;
            }
        }
        if (!found) {
            entries.add(entry);
        }
        if (version != null) {
            nextVersion = version;
        }
        if (nextVersion < 1) {
            throw new ReleaseException("manifest_version_invalid", "manifest version must be >= 1");
        }
        if (expires != null) {
            nextExpires = expires;
        }
        ReleaseManifest updated = new ReleaseManifest(nextVersion, nextExpires, List.copyOf(entries));
        byte[] payload = Jcs.canonicalBytes(updated.toStatement());
        writeJson(manifest, Dsse.document(new Dsse.Envelope(ReleaseManifest.PAYLOAD_TYPE, payload, List.of())));
        return new ManifestWritten(manifest, nextVersion, nextExpires, entry, entries.size(), dropped);
    }

    /**
     * Adds {@code key}'s signature to a root file (hex Ed25519 over the RFC 8785 form of
     * {@code signed}) or a manifest (base64 Ed25519 over the DSSE PAE). A signature already made by
     * the same key is replaced.
     *
     * @param out where to write, or {@code null} to update {@code file} in place
     */
    public static Signed sign(Path file, SigningKey key, Path out) throws ReleaseException {
        byte[] bytes = readBounded(file, ReleaseVerifier.MAX_MANIFEST_BYTES, "sign_unreadable");
        Map<String, Object> document;
        try {
            document = Fields.asMap(Json.parse(bytes, JsonLimits.I_JSON));
        } catch (JsonException e) {
            throw new ReleaseException("sign_unreadable", file + ": " + e.getMessage(), e);
        }
        Path target = out != null ? out : file;
        try {
            if (document != null && document.containsKey("signed")) {
                TrustRoot root = TrustRoot.parse(bytes, file.toString());
                List<SignatureEntry> signatures = new ArrayList<>(root.signatures());
                boolean replaced = signatures.removeIf(s -> key.keyId().equals(s.keyIdHint()));
                signatures.add(new SignatureEntry(key.keyId(), key.sign(root.signedBytes())));
                writeJson(target, TrustRoot.document(root.signed(), signatures));
                return new Signed(target, "root", key.keyId(), signatures.size(), replaced,
                        root.keys().containsKey(key.keyId()));
            }
            if (document != null && document.containsKey("payloadType")) {
                Dsse.Envelope envelope = Dsse.parse(bytes, file.toString());
                if (!ReleaseManifest.PAYLOAD_TYPE.equals(envelope.payloadType())) {
                    throw new ReleaseException("manifest_wrong_payload_type", file + ": payloadType is '"
                            + envelope.payloadType() + "', expected '" + ReleaseManifest.PAYLOAD_TYPE + "'");
                }
                parseManifest(envelope.payload(), file);
                List<SignatureEntry> signatures = new ArrayList<>(envelope.signatures());
                boolean replaced = signatures.removeIf(s -> key.keyId().equals(s.keyIdHint()));
                signatures.add(new SignatureEntry(key.keyId(), key.sign(envelope.pae())));
                writeJson(target, Dsse.document(new Dsse.Envelope(envelope.payloadType(), envelope.payload(), signatures)));
                return new Signed(target, "manifest", key.keyId(), signatures.size(), replaced, true);
            }
        } catch (Untrusted e) {
            throw new ReleaseException(e.failure().code(), e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new ReleaseException("sign_failed", "signing " + file + " failed: " + e.getMessage(), e);
        }
        throw new ReleaseException("sign_unknown_document", file
                + ": neither a root ({\"signed\":...}) nor a DSSE manifest ({\"payloadType\":...})");
    }

    private static RootWritten writeRoot(Map<String, Object> signed, int threshold, Path out) throws ReleaseException {
        Map<String, Object> keys = Fields.asMap(signed.get("keys"));
        int usable = 0;
        for (Object key : keys.values()) {
            Map<String, Object> k = Fields.asMap(key);
            if (RootKey.ED25519.equals(k.get("keytype")) && RootKey.ED25519.equals(k.get("scheme"))) {
                usable++;
            }
        }
        if (threshold < 1 || threshold > usable) {
            throw new ReleaseException("root_threshold_invalid", "threshold " + threshold + " must be between 1 and the "
                    + usable + " listed Ed25519 key(s)");
        }
        if (keys.size() > TrustRoot.MAX_KEYS) {
            throw new ReleaseException("root_too_many_keys", "a root lists at most " + TrustRoot.MAX_KEYS + " keys");
        }
        Map<String, Object> document = TrustRoot.document(signed, List.of());
        TrustRoot check;
        try {
            check = TrustRoot.parse(Json.write(document).getBytes(StandardCharsets.UTF_8), out.toString());
        } catch (Untrusted e) {
            throw new ReleaseException(e.failure().code(), e.getMessage(), e);
        }
        writeJson(out, document);
        return new RootWritten(out, check.version(), List.copyOf(check.keys().keySet()), threshold, check.expires());
    }

    private static TrustRoot readRoot(Path file) throws ReleaseException {
        try {
            return TrustRoot.parse(readBounded(file, ReleaseVerifier.MAX_ROOT_BYTES, "root_unreadable"), file.toString());
        } catch (Untrusted e) {
            throw new ReleaseException(e.failure().code(), e.getMessage(), e);
        }
    }

    private static Dsse.Envelope readEnvelope(Path file) throws ReleaseException {
        try {
            Dsse.Envelope envelope = Dsse.parse(readBounded(file, ReleaseVerifier.MAX_MANIFEST_BYTES,
                    "manifest_unreadable"), file.toString());
            if (!ReleaseManifest.PAYLOAD_TYPE.equals(envelope.payloadType())) {
                throw new ReleaseException("manifest_wrong_payload_type", file + ": payloadType is '"
                        + envelope.payloadType() + "'");
            }
            return envelope;
        } catch (Untrusted e) {
            throw new ReleaseException(e.failure().code(), e.getMessage(), e);
        }
    }

    private static ReleaseManifest parseManifest(byte[] payload, Path file) throws ReleaseException {
        try {
            return ReleaseManifest.parse(payload, file.toString());
        } catch (Untrusted e) {
            throw new ReleaseException(e.failure().code(), e.getMessage(), e);
        }
    }

    /** Reads an artifact to hash, up to {@link #MAX_ARTIFACT_BYTES}. */
    public static byte[] readArtifact(Path file) throws ReleaseException {
        return readBounded(file, MAX_ARTIFACT_BYTES, "artifact_unreadable");
    }

    static byte[] readBounded(Path file, long maxBytes, String code) throws ReleaseException {
        try {
            return StateFiles.readAll(file, maxBytes, true);
        } catch (NoSuchFileException e) {
            throw new ReleaseException(code, file + " does not exist", e);
        } catch (IOException e) {
            throw new ReleaseException(code, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeJson(Path file, Map<String, Object> document) throws ReleaseException {
        Path absolute = file.toAbsolutePath();
        try {
            if (absolute.getParent() != null) {
                Files.createDirectories(absolute.getParent());
            }
            AtomicWrite.write(absolute, (Json.write(document) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ReleaseException("write_failed", "cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<byte[]> distinct(List<byte[]> keys) throws ReleaseException {
        Set<String> seen = new LinkedHashSet<>();
        for (byte[] key : keys) {
            if (!seen.add(RootKey.keyId(key))) {
                throw new ReleaseException("root_duplicate_key", "the same public key is given twice");
            }
        }
        return keys;
    }
}
