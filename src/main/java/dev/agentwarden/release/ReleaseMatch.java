package dev.agentwarden.release;

import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.digest.Sha256;

/**
 * Compares artifact bytes with a registered release. The raw SHA-256 and length must match, or,
 * when the entry names a normalization profile, the SHA-256 of the normalized bytes must match its
 * {@code normalized_sha256}. Both hashes of the artifact are always reported.
 *
 * @param verified         whether the bytes are the registered release
 * @param how              {@code raw}, {@code normalized:<profile>}, or {@code mismatch}
 * @param sha256           hex SHA-256 of the bytes as read
 * @param length           their length
 * @param normalizedSha256 hex SHA-256 after the entry's profile, or {@code null} without one
 */
public record ReleaseMatch(boolean verified, String how, String sha256, long length, String normalizedSha256) {

    public static ReleaseMatch compare(ReleaseEntry entry, byte[] bytes) {
        String sha = Sha256.hex(bytes);
        String normalized = null;
        if (entry.normalization() != null && Normalizations.NAMES.contains(entry.normalization())) {
            normalized = Sha256.hex(Normalizations.apply(entry.normalization(), bytes));
        }
        if (sha.equals(entry.sha256()) && bytes.length == entry.length()) {
            return new ReleaseMatch(true, "raw", sha, bytes.length, normalized);
        }
        if (normalized != null && normalized.equals(entry.normalizedSha256())) {
            return new ReleaseMatch(true, "normalized:" + entry.normalization(), sha, bytes.length, normalized);
        }
        return new ReleaseMatch(false, "mismatch", sha, bytes.length, normalized);
    }
}
