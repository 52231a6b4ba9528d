package dev.agentwarden.release;

import dev.agentwarden.json.Fields;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
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

    /**
     * Reads {@code signatures: [{keyid, sig}]}; {@code hexSignatures} selects TUF's hex encoding,
     * otherwise DSSE's base64 (standard or URL-safe, padding optional).
     */
    static List<SignatureEntry> readAll(Fields<Untrusted> top, TrustFailure failure, boolean hexSignatures)
            throws Untrusted {
        List<?> list = top.list("signatures", TrustRoot.MAX_SIGNATURES);
        List<SignatureEntry> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Fields<Untrusted> entry = Fields.of(list.get(i), top.where("signatures") + "[" + i + "]", failure);
            String hint = entry.optionalString("keyid");
            byte[] signature;
            if (hexSignatures) {
                signature = entry.hex("sig");
            } else {
                signature = Dsse.decodeBase64(entry.string("sig"));
                if (signature == null) {
                    throw failure.because(entry.where("sig") + " is not base64");
                }
            }
            out.add(new SignatureEntry(hint, signature));
        }
        return out;
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
