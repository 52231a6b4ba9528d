package dev.agentwarden.inventory;

import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The static identity a telemetry join is pinned to, recorded before execution: the artifact's
 * SHA-256, client, client version, model, tokenizer, and whether the session is fresh or continued.
 */
public record TelemetryPin(String artifact, String artifactSha256, String client, String clientVersion, String model,
                           String tokenizer, String condition, String pinnedAt) {
    static final String SCHEMA = "warden.telemetry.pin/1";
    static final List<String> CONDITIONS = List.of("fresh", "continued");
    static final long MAX_ARTIFACT_BYTES = 64L * 1024 * 1024;

    /** Hashes the artifact's bytes as they are on disk now. */
    public static TelemetryPin of(Path artifact, String client, String clientVersion, String model, String tokenizer,
                                  String condition, String pinnedAt) throws IOException {
        if (!CONDITIONS.contains(condition)) {
            throw new IllegalArgumentException("condition must be fresh or continued, not '" + condition + "'");
        }
        byte[] bytes = StateFiles.readAll(artifact, MAX_ARTIFACT_BYTES, true);
        return new TelemetryPin(artifact.toString(), Sha256.hex(bytes), client, clientVersion,
                model, tokenizer, condition, pinnedAt);
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", SCHEMA);
        m.put("artifact", artifact);
        m.put("artifact_sha256", artifactSha256);
        m.put("client", client);
        m.put("client_version", clientVersion);
        m.put("model", model);
        m.put("tokenizer", tokenizer);
        m.put("condition", condition);
        m.put("pinned_at", pinnedAt);
        return m;
    }

    /** @throws IllegalArgumentException naming the missing field */
    public static TelemetryPin fromJson(Map<String, Object> m) {
        if (!SCHEMA.equals(m.get("schema"))) {
            throw new IllegalArgumentException("not a " + SCHEMA + " file");
        }
        String[] f = new String[8];
        String[] keys = {"artifact", "artifact_sha256", "client", "client_version", "model", "tokenizer", "condition", "pinned_at"};
        for (int i = 0; i < keys.length; i++) {
            if (!(m.get(keys[i]) instanceof String s) || s.isEmpty()) {
                throw new IllegalArgumentException("pin has no " + keys[i]);
            }
            f[i] = s;
        }
        return new TelemetryPin(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
    }
}
