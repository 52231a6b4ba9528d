package dev.agentwarden.release;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One signature over trust metadata.
 *
 * @param keyIdHint the key id the signer claimed, or {@code null}; only a hint for which key to try
 * @param signature the raw signature bytes
 */
record SignatureEntry(String keyIdHint, byte[] signature) {

    /**
     * The ids of the distinct usable keys that produced a valid signature over {@code message}. Each
     * key counts once however often it signed; bad signatures and signatures by keys outside
     * {@code keys} count for nothing; a wrong hint only costs trying the other keys.
     */
    static Set<String> verifiedKeyIds(Map<String, RootKey> keys, byte[] message, Collection<SignatureEntry> signatures) {
        Set<String> verified = new LinkedHashSet<>();
        for (SignatureEntry entry : signatures) {
            RootKey hinted = entry.keyIdHint() == null ? null : keys.get(entry.keyIdHint());
            if (hinted != null && tryKey(hinted, message, entry, verified)) {
                continue;
            }
            for (RootKey key : keys.values()) {
                if (key != hinted && tryKey(key, message, entry, verified)) {
                    break;
                }
            }
        }
        return verified;
    }

    private static boolean tryKey(RootKey key, byte[] message, SignatureEntry entry, Set<String> verified) {
        if (!key.usable() || verified.contains(key.keyId())
                || !Ed25519.verify(key.publicKey(), message, entry.signature())) {
            return false;
        }
        verified.add(key.keyId());
        return true;
    }
}
