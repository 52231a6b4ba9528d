package dev.agentwarden.inventory;

import dev.agentwarden.json.JsonException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every configured server's manifest at one moment, hashed so snapshots compare across runs.
 *
 * @param turnIndex the turn it was taken before (0: before the first turn)
 */
public record InventorySnapshot(String takenAt, long turnIndex, String hostFilter, List<ServerSnapshot> servers) {
    static final String SCHEMA = "warden.inventory.snapshot/1";
    public static final String CANONICALIZER = "RFC 8785 JCS (dev.agentwarden.canonical.Jcs)";
    public static final String CANONICALIZER_VERSION = "1";
    public static final String SERIALIZER = "warden-inventory";
    /** Bumped whenever what is hashed changes (see {@link ToolHashes}). */
    public static final String SERIALIZER_VERSION = "1";

    /** Every server's manifest was taken. */
    public boolean complete() {
        for (ServerSnapshot s : servers) {
            if (!s.ok()) {
                return false;
            }
        }
        return true;
    }

    public String sha256() {
        Map<String, String> hashes = new LinkedHashMap<>();
        for (ServerSnapshot s : servers) {
            hashes.put(s.key(), s.sha256());
        }
        return ToolHashes.inventory(hashes);
    }

    public ServerSnapshot server(String key) {
        for (ServerSnapshot s : servers) {
            if (s.key().equals(key)) {
                return s;
            }
        }
        return null;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", SCHEMA);
        m.put("canonicalizer", CANONICALIZER);
        m.put("canonicalizer_version", CANONICALIZER_VERSION);
        m.put("serializer", SERIALIZER);
        m.put("serializer_version", SERIALIZER_VERSION);
        m.put("hash", "sha256");
        m.put("taken_at", takenAt);
        m.put("turn_index", turnIndex);
        m.put("host", hostFilter);
        m.put("complete", complete());
        m.put("inventory_sha256", sha256());
        List<Object> list = new ArrayList<>();
        for (ServerSnapshot s : servers) {
            list.add(s.toJson());
        }
        m.put("servers", list);
        return m;
    }

    /** Reads a stored snapshot; refuses one written by another serializer version (its hashes would not compare). */
    @SuppressWarnings("unchecked")
    static InventorySnapshot fromJson(Map<String, Object> m) {
        if (!SCHEMA.equals(m.get("schema")) || !SERIALIZER_VERSION.equals(m.get("serializer_version"))) {
            throw new JsonException("inventory_schema", "not a " + SCHEMA + " snapshot of serializer version "
                    + SERIALIZER_VERSION, 0);
        }
        List<ServerSnapshot> servers = new ArrayList<>();
        try {
            for (Object o : (List<Object>) m.get("servers")) {
                servers.add(ServerSnapshot.fromJson((Map<String, Object>) o));
            }
            return new InventorySnapshot((String) m.get("taken_at"), ((Number) m.get("turn_index")).longValue(),
                    (String) m.get("host"), servers);
        } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
            throw new JsonException("inventory_schema", "malformed snapshot: " + e.getMessage(), 0);
        }
    }
}
