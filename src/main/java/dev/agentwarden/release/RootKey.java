package dev.agentwarden.release;

import dev.agentwarden.canonical.Jcs;
import java.security.PublicKey;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One key a trust root lists.
 *
 * @param keyId     hex SHA-256 of the RFC 8785 form of the key object
 * @param keyType   the declared {@code keytype}
 * @param scheme    the declared {@code scheme}
 * @param publicKey the verifying key, or {@code null} when type or scheme is not {@code ed25519}
 *                  (such a key is listed but never counts toward a threshold)
 */
record RootKey(String keyId, String keyType, String scheme, PublicKey publicKey) {
    static final String ED25519 = "ed25519";

    boolean usable() {
        return publicKey != null;
    }

    /** The TUF key object of a raw Ed25519 public key. */
    static Map<String, Object> keyObject(byte[] rawPublicKey) {
        Map<String, Object> keyval = new LinkedHashMap<>();
        keyval.put("public", HexFormat.of().formatHex(rawPublicKey));
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("keytype", ED25519);
        key.put("scheme", ED25519);
        key.put("keyval", keyval);
        return key;
    }

    /** The key id of a raw Ed25519 public key. */
    static String keyId(byte[] rawPublicKey) {
        return Jcs.sha256Hex(keyObject(rawPublicKey));
    }
}
