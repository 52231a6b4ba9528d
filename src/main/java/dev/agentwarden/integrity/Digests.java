package dev.agentwarden.integrity;

import dev.agentwarden.release.Normalizations;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** SHA-256 in lowercase hex, the only digest integrity evidence uses. */
public final class Digests {
    private Digests() {
    }

    public static String sha256(byte[] bytes) {
        return sha256(bytes, 0, bytes.length);
    }

    public static String sha256(byte[] bytes, int offset, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(bytes, offset, length);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** SHA-256 of {@code bytes} under every normalization profile Warden knows, by profile name. */
    static Map<String, String> normalized(byte[] bytes) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String profile : Normalizations.NAMES) {
            out.put(profile, sha256(Normalizations.apply(profile, bytes)));
        }
        return out;
    }
}
