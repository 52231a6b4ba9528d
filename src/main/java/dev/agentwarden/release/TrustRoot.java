package dev.agentwarden.release;

import dev.agentwarden.json.Fields;
import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A TUF-style trust root ({@code root.json}): the keys allowed to sign release manifests and how
 * many must agree.
 *
 * <pre>{"signed":{"_type":"root","version":N,"expires":"&lt;RFC 3339&gt;",
 *   "keys":{"&lt;keyid&gt;":{"keytype":"ed25519","scheme":"ed25519","keyval":{"public":"&lt;hex&gt;"}}},
 *   "threshold":T},
 *  "signatures":[{"keyid":"&lt;keyid&gt;","sig":"&lt;hex&gt;"}]}</pre>
 *
 * Signatures are Ed25519 over the RFC 8785 form of {@code signed}. Parsing checks form only: that
 * each key id is the hash of its key object, that no key is listed twice, and that numbers are in
 * range. Whether enough keys signed is {@link #signers}'s question, asked by the verifier.
 *
 * @param version    the root's version, from 1
 * @param expires    when this root stops being trusted
 * @param keys       listed keys by key id, in file order
 * @param threshold  how many distinct listed keys must sign
 * @param signed     the {@code signed} object as read
 * @param signatures the signatures as read
 */
record TrustRoot(long version, Instant expires, Map<String, RootKey> keys, int threshold,
                 Map<String, Object> signed, List<SignatureEntry> signatures) {
    static final String TYPE = "root";
    static final int MAX_KEYS = 32;
    static final int MAX_SIGNATURES = 32;

    /** Reads a root file's bytes; any defect of form fails with {@code root_malformed} or {@code root_wrong_type}. */
    static TrustRoot parse(byte[] json, String source) throws Untrusted {
        Object document;
        try {
            document = Json.parse(json, JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.ROOT_MALFORMED.because(source + ": " + e.getMessage());
        }
        Fields<Untrusted> top = Fields.of(document, source, TrustFailure.ROOT_MALFORMED);
        Fields<Untrusted> signed = top.object("signed");
        String type = signed.string("_type");
        if (!TYPE.equals(type)) {
            throw TrustFailure.ROOT_WRONG_TYPE.because(signed.where("_type") + " is '" + type + "', expected 'root'");
        }
        long version = signed.positiveLong("version", 1);
        Instant expires = signed.parsed("expires", Rfc3339::parse);
        long threshold = signed.positiveLong("threshold", 1);
        if (threshold > MAX_KEYS) {
            throw TrustFailure.ROOT_MALFORMED.because(signed.where("threshold") + " " + threshold + " exceeds " + MAX_KEYS);
        }
        Map<String, RootKey> keys = readKeys(signed.object("keys"));
        List<SignatureEntry> signatures = SignatureEntry.readAll(top, TrustFailure.ROOT_MALFORMED, true);
        return new TrustRoot(version, expires, Collections.unmodifiableMap(keys), (int) threshold, signed.map(),
                signatures);
    }

    /** The bytes root signatures cover: the RFC 8785 form of {@code signed}. */
    byte[] signedBytes() {
        return Jcs.canonicalBytes(signed);
    }

    /** Hex SHA-256 of {@link #signedBytes()}: which root this is, whatever signatures it carries. */
    String signedSha256() {
        return Jcs.sha256Hex(signed);
    }

    /** Ids of this root's keys that validly signed {@code message}, each once. */
    Set<String> signers(byte[] message, List<SignatureEntry> candidates) {
        return SignatureEntry.verifiedKeyIds(keys, message, candidates);
    }

    private static Map<String, RootKey> readKeys(Fields<Untrusted> keys) throws Untrusted {
        if (keys.map().size() > MAX_KEYS) {
            throw TrustFailure.ROOT_MALFORMED.because(keys.path() + " lists " + keys.map().size()
                    + " keys; at most " + MAX_KEYS + " are read");
        }
        Map<String, RootKey> out = new LinkedHashMap<>();
        Map<String, String> idByPublicKey = new HashMap<>();
        for (String keyId : keys.map().keySet()) {
            Fields<Untrusted> key = keys.object(keyId);
            String expectedId = Jcs.sha256Hex(key.map());
            if (!expectedId.equals(keyId)) {
                throw TrustFailure.ROOT_MALFORMED.because(key.path() + ": key id does not match its key object"
                        + " (RFC 8785 SHA-256 is " + expectedId + ")");
            }
            String keyType = key.string("keytype");
            String scheme = key.string("scheme");
            Fields<Untrusted> keyval = key.object("keyval");
            String publicHex = keyval.string("public");
            String previous = idByPublicKey.put(publicHex.toLowerCase(), keyId);
            if (previous != null) {
                throw TrustFailure.ROOT_MALFORMED.because("keys " + previous + " and " + keyId + " are the same key");
            }
            PublicKey publicKey = null;
            if (RootKey.ED25519.equals(keyType) && RootKey.ED25519.equals(scheme)) {
                byte[] raw = keyval.hex("public");
                try {
                    publicKey = Ed25519.publicKey(raw);
                } catch (GeneralSecurityException e) {
                    throw TrustFailure.ROOT_MALFORMED.because(keyval.where("public") + ": " + e.getMessage());
                }
            }
            out.put(keyId, new RootKey(keyId, keyType, scheme, publicKey));
        }
        return out;
    }

    /** A {@code signed} object for a new root listing {@code publicKeys}. */
    static Map<String, Object> newSigned(long version, Instant expires, List<byte[]> publicKeys, int threshold) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (byte[] raw : publicKeys) {
            keys.put(RootKey.keyId(raw), RootKey.keyObject(raw));
        }
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("_type", TYPE);
        signed.put("version", version);
        signed.put("expires", Rfc3339.format(expires));
        signed.put("keys", keys);
        signed.put("threshold", (long) threshold);
        return signed;
    }

    /** A whole root document: {@code signed} plus hex signatures. */
    static Map<String, Object> document(Map<String, Object> signed, List<SignatureEntry> signatures) {
        List<Object> sigs = new ArrayList<>();
        for (SignatureEntry s : signatures) {
            Map<String, Object> sig = new LinkedHashMap<>();
            sig.put("keyid", s.keyIdHint());
            sig.put("sig", HexFormat.of().formatHex(s.signature()));
            sigs.add(sig);
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("signed", signed);
        document.put("signatures", sigs);
        return document;
    }
}
