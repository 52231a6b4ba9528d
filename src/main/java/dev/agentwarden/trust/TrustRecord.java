package dev.agentwarden.trust;

import dev.agentwarden.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the user trusted for one project: the manifest's SHA-256 and that of every file its
 * process concerns name, as stored in the user's trust store.
 *
 * @param project        the project root's real path
 * @param manifestSha256 hex SHA-256 of {@code .warden/manifest.yaml} as trusted
 * @param trustedAt      when, as an ISO-8601 instant
 * @param files          each file a process concern names (script, or an argument that was a file),
 *                       as written in the manifest → hex SHA-256, or {@link #ABSENT}
 */
public record TrustRecord(String project, String manifestSha256, String trustedAt, Map<String, String> files) {
    /** Bumped whenever the record's meaning changes; another format is not trusted. */
    static final int FORMAT = 1;
    /** A named file that did not exist when trusted: it may not appear later. */
    public static final String ABSENT = "absent";

    public TrustRecord {
        files = Map.copyOf(files);
    }

    String toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("format", (long) FORMAT);
        o.put("project", project);
        o.put("manifest_sha256", manifestSha256);
        o.put("trusted_at", trustedAt);
        o.put("files", new java.util.TreeMap<>(files));
        return Json.writePretty(o);
    }

    /** Reads a record; plain loops only, as this runs on dispatch. */
    static TrustRecord fromJson(String text) {
        Map<String, Object> o = Json.parseObject(text);
        if (!(o.get("format") instanceof Long f) || f != FORMAT) {
            throw new IllegalArgumentException("trust record format " + o.get("format") + " is not " + FORMAT);
        }
        Map<String, String> files = new LinkedHashMap<>();
        if (!(o.get("files") instanceof Map<?, ?> named)) {
            throw new IllegalArgumentException("trust record has no files");
        }
        for (Map.Entry<?, ?> e : named.entrySet()) {
            files.put((String) e.getKey(), (String) e.getValue());
        }
        return new TrustRecord(text(o, "project"), text(o, "manifest_sha256"), text(o, "trusted_at"), files);
    }

    private static String text(Map<String, Object> o, String key) {
        if (o.get(key) instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw new IllegalArgumentException("trust record has no " + key);
    }
}
