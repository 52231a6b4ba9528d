package dev.agentwarden.release;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A project manifest signed by a team key: {@code .warden/manifest.yaml.sig} beside it, a DSSE
 * envelope ({@link Dsse}, Ed25519, as release manifests and policy bundles are signed) whose payload is
 * {@code {"_type":"project-manifest","manifest_sha256":"<hex>","files":{"<script or arg>":"<sha256|absent>"}}}:
 * the manifest's exact bytes and every file its process concerns name, hashed as {@code warden trust}
 * records them. A machine whose managed settings list the key as a signer takes the manifest in
 * force without a per-developer {@code warden trust}; its scripts still run only while they hash as signed.
 */
public final class ProjectManifestSignature {
    static final String PAYLOAD_TYPE = "application/vnd.agent-warden.project-manifest+json";
    static final String TYPE = "project-manifest";
    /** Largest signature file read. */
    public static final int MAX_BYTES = 256 * 1024;
    private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    private ProjectManifestSignature() {
    }

    /** A signature that verified: which signer's key id, and the script hashes it vouches for. */
    public record Verified(String keyId, Map<String, String> files) {
    }

    /** Why a signature does not count. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The raw 32-byte Ed25519 key of a signer as settings name it: the PEM text {@code warden release
     * keygen} writes ({@code .pub.pem}), or the base64 of its SubjectPublicKeyInfo; {@code null} when it is neither.
     * Reads no security provider.
     */
    public static byte[] signerKey(String text) {
        String body = text.replace("-----BEGIN PUBLIC KEY-----", "").replace("-----END PUBLIC KEY-----", "")
                .replace("\n", "").replace("\r", "").replace(" ", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (der.length != SPKI_PREFIX.length + Ed25519.PUBLIC_KEY_BYTES
                || !java.util.Arrays.equals(der, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length)) {
            return null;
        }
        return java.util.Arrays.copyOfRange(der, SPKI_PREFIX.length, der.length);
    }

    /** The envelope for {@code manifest} and its named {@code files}, signed with the key in {@code keyFile}. */
    public static byte[] sign(byte[] manifest, Map<String, String> files, Path keyFile) throws ReleaseException {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("_type", TYPE);
        payload.put("manifest_sha256", Sha256.hex(manifest));
        payload.put("files", new LinkedHashMap<String, Object>(files));
        byte[] body = Json.write(payload).getBytes(StandardCharsets.UTF_8);
        SigningKey key = KeyFiles.readSigningKey(keyFile);
        List<SignatureEntry> sigs = new ArrayList<>();
        try {
            sigs.add(new SignatureEntry(key.keyId(), Ed25519.sign(key.privateKey(), Dsse.pae(PAYLOAD_TYPE, body))));
        } catch (GeneralSecurityException e) {
            throw new ReleaseException("sign_failed", keyFile + ": " + e.getMessage(), e);
        }
        return (Json.write(Dsse.document(new Dsse.Envelope(PAYLOAD_TYPE, body, sigs))) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Checks {@code envelope} ({@code source} names it in messages) against {@code manifest}'s bytes:
     * signed by one of {@code signers} (raw Ed25519 keys) over its DSSE encoding, for exactly these bytes.
     */
    public static Verified verify(byte[] envelope, String source, byte[] manifest, List<byte[]> signers) throws Refused {
        Dsse.Envelope e;
        try {
            e = Dsse.parse(envelope, source);
        } catch (Untrusted u) {
            throw new Refused(u.getMessage());
        }
        if (!PAYLOAD_TYPE.equals(e.payloadType())) {
            throw new Refused(source + ": payloadType is " + e.payloadType() + ", not " + PAYLOAD_TYPE);
        }
        Map<String, RootKey> keys = new LinkedHashMap<>();
        for (byte[] raw : signers) {
            try {
                String id = RootKey.keyId(raw);
                keys.put(id, new RootKey(id, "ed25519", "ed25519", Ed25519.publicKey(raw)));
            } catch (GeneralSecurityException bad) {
                // a key that cannot verify counts for nothing
            }
        }
        Set<String> verified = SignatureEntry.verifiedKeyIds(keys, e.pae(), e.signatures());
        if (verified.isEmpty()) {
            throw new Refused(source + ": no signature by a managed signer verifies (tampered, or signed by another key)");
        }
        Map<String, String> files = new LinkedHashMap<>();
        String sha;
        try {
            Fields<Untrusted> top = Fields.of(Json.parse(e.payload(), JsonLimits.I_JSON), source, TrustFailure.MANIFEST_MALFORMED);
            if (!TYPE.equals(top.string("_type"))) {
                throw new Refused(source + ": _type is not " + TYPE);
            }
            sha = top.string("manifest_sha256");
            Object named = Json.parseObject(new String(e.payload(), StandardCharsets.UTF_8)).get("files");
            if (!(named instanceof Map<?, ?> m)) {
                throw new Refused(source + ": files is not an object");
            }
            for (Map.Entry<?, ?> f : m.entrySet()) {
                if (!(f.getValue() instanceof String h)) {
                    throw new Refused(source + ": files." + f.getKey() + " is not a hash");
                }
                files.put(String.valueOf(f.getKey()), h);
            }
        } catch (Untrusted | JsonException | IllegalArgumentException bad) {
            throw new Refused(source + ": malformed payload: " + bad.getMessage());
        }
        if (!Sha256.hex(manifest).equals(sha)) {
            throw new Refused(source + " was signed for other manifest bytes (sha256 " + sha
                    + "); the manifest changed since it was signed");
        }
        return new Verified(verified.iterator().next(), files);
    }
}
