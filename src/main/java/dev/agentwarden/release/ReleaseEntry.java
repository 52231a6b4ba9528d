package dev.agentwarden.release;

/**
 * One registered release of an agent artifact.
 *
 * @param agentId          the agent id (e.g. {@code squad})
 * @param sha256           hex SHA-256 of the released bytes
 * @param length           byte length of the released bytes, or -1 when not registered
 * @param normalizedSha256 hex SHA-256 of the bytes after {@code normalization}, or {@code null}
 * @param normalization    the normalization profile name (e.g. {@code squad-template}), or {@code null}
 */
public record ReleaseEntry(String agentId, String sha256, long length, String normalizedSha256,
                           String normalization) {
}
