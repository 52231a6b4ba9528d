package dev.agentwarden.release;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One registered release in a signed manifest, keyed by (agent_version, client_id, client_version).
 *
 * @param agentId          agent id, also the in-toto subject name
 * @param agentVersion     the agent's version
 * @param clientId         the host client (e.g. {@code copilot-cli})
 * @param clientVersion    the host client's version
 * @param sha256           hex SHA-256 of the released bytes
 * @param length           byte length of the released bytes
 * @param normalizedSha256 hex SHA-256 after {@code normalization}, or {@code null}
 * @param normalization    a {@link Normalizations} profile name, or {@code null}
 */
public record ManifestEntry(String agentId, String agentVersion, String clientId, String clientVersion,
                            String sha256, long length, String normalizedSha256, String normalization) {

    public ReleaseKey key() {
        return new ReleaseKey(agentVersion, clientId, clientVersion);
    }

    public ReleaseEntry toReleaseEntry() {
        return new ReleaseEntry(agentId, sha256, length, normalizedSha256, normalization);
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("agent_id", agentId);
        m.put("agent_version", agentVersion);
        m.put("client_id", clientId);
        m.put("client_version", clientVersion);
        m.put("sha256", sha256);
        m.put("length", length);
        if (normalization != null) {
            m.put("normalized_sha256", normalizedSha256);
            m.put("normalization", normalization);
        }
        return m;
    }
}
