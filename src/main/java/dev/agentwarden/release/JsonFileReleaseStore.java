package dev.agentwarden.release;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The unsigned release manifest: a JSON array of entries, each keyed by (agent_version, client_id,
 * client_version).
 *
 * <pre>
 * [
 *   {"agent_id": "squad", "agent_version": "0.13.1", "client_id": "copilot-cli", "client_version": "1.0.3",
 *    "sha256": "&lt;64 hex&gt;", "length": 82919,
 *    "normalization": "squad-template", "normalized_sha256": "&lt;64 hex&gt;"}
 * ]
 * </pre>
 *
 * {@code length}, {@code normalization} and {@code normalized_sha256} are optional (the last two
 * together). It is read strictly (I-JSON, no unknown keys, no duplicate keys) and any defect
 * refuses the whole file with a code naming the entry and key. It is trusted because the host
 * operator placed it; it carries no signature. The integrity gate reads it through
 * {@link ReleaseSources}.
 */
public final class JsonFileReleaseStore implements ReleaseStore {
    /** Largest manifest file read. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    private static final Set<String> KEYS = Set.of("agent_id", "agent_version", "client_id", "client_version", "sha256",
            "length", "normalization", "normalized_sha256");

    /** One manifest entry with its key. */
    public record Registration(ReleaseKey key, ReleaseEntry entry) {
    }

    private final Map<ReleaseKey, ReleaseEntry> entries;
    private final Map<String, String> ref;

    private JsonFileReleaseStore(Map<ReleaseKey, ReleaseEntry> entries, Map<String, String> ref) {
        this.entries = entries;
        this.ref = ref;
    }

    /**
     * Reads a manifest file.
     *
     * @throws ReleaseStoreException {@code release_manifest_unreadable}, {@code release_manifest_too_large},
     *                            {@code release_manifest_invalid} or {@code release_manifest_duplicate_key}
     */
    static JsonFileReleaseStore open(Path file) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new ReleaseStoreException("release_manifest_unreadable", file + " does not exist");
        } catch (IOException e) {
            throw new ReleaseStoreException("release_manifest_unreadable", file + ": " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            throw new ReleaseStoreException("release_manifest_too_large", file + " is over " + MAX_BYTES + " bytes");
        }
        Map<String, String> ref = new LinkedHashMap<>();
        ref.put("path", file.toAbsolutePath().normalize().toString());
        ref.put("sha256", Sha256.hex(bytes));
        return new JsonFileReleaseStore(parse(file.toString(), bytes), ref);
    }

    /** What identifies this manifest in evidence: its absolute path and the SHA-256 of its bytes. */
    public Map<String, String> ref() {
        return ref;
    }

    @Override
    public ReleaseLookup lookup(ReleaseKey key) {
        ReleaseEntry entry = entries.get(key);
        return entry == null
                ? ReleaseLookup.notRegistered("release_key_not_registered: no manifest entry for (" + key.agentVersion()
                        + ", " + key.clientId() + ", " + key.clientVersion() + ")")
                : ReleaseLookup.found(entry);
    }

    /** The manifest text for a list of registrations, in the format {@link #open} reads. */
    public static String render(List<Registration> registrations) {
        List<Object> out = new ArrayList<>();
        for (Registration r : registrations) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("agent_id", r.entry().agentId());
            e.put("agent_version", r.key().agentVersion());
            e.put("client_id", r.key().clientId());
            e.put("client_version", r.key().clientVersion());
            e.put("sha256", r.entry().sha256());
            if (r.entry().length() >= 0) {
                e.put("length", r.entry().length());
            }
            if (r.entry().normalization() != null) {
                e.put("normalization", r.entry().normalization());
                e.put("normalized_sha256", r.entry().normalizedSha256());
            }
            out.add(e);
        }
        return Json.writePretty(out);
    }

    /** The registration of an artifact's bytes under a key, optionally with a normalized SHA. */
    public static Registration register(String agentId, ReleaseKey key, byte[] released, String normalization) {
        String normalized = normalization == null ? null : Sha256.hex(Normalizations.apply(normalization, released));
        return new Registration(key, new ReleaseEntry(agentId, Sha256.hex(released), released.length, normalized,
                normalization));
    }

    private static Map<ReleaseKey, ReleaseEntry> parse(String name, byte[] bytes) {
        Object root;
        try {
            root = Json.parse(bytes, JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw new ReleaseStoreException("release_manifest_invalid", name + ": not I-JSON (" + e.getMessage() + ")");
        }
        if (root instanceof Map<?, ?> m && m.containsKey("payloadType")) {
            throw new ReleaseStoreException("release_manifest_invalid", name + ": this is a signed (DSSE) manifest;"
                    + " give its trust root with --trust-root");
        }
        if (!(root instanceof List<?> list)) {
            throw new ReleaseStoreException("release_manifest_invalid", name + ": expected a JSON array of entries");
        }
        Map<ReleaseKey, ReleaseEntry> out = new HashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String where = name + ": [" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> entry)) {
                throw new ReleaseStoreException("release_manifest_invalid", where + " is not an object");
            }
            for (Object k : entry.keySet()) {
                if (!KEYS.contains(k)) {
                    throw new ReleaseStoreException("release_manifest_invalid", where + "." + k + ": unknown key; known: "
                            + new java.util.TreeSet<>(KEYS));
                }
            }
            ReleaseKey key = new ReleaseKey(text(entry, "agent_version", where), text(entry, "client_id", where),
                    text(entry, "client_version", where));
            String sha = hex(entry, "sha256", where);
            long length = -1;
            if (entry.containsKey("length")) {
                if (!(entry.get("length") instanceof Long l) || l < 0) {
                    throw new ReleaseStoreException("release_manifest_invalid", where + ".length: expected a non-negative integer");
                }
                length = l;
            }
            String normalization = null;
            String normalizedSha = null;
            if (entry.containsKey("normalization") || entry.containsKey("normalized_sha256")) {
                normalization = text(entry, "normalization", where);
                if (!Normalizations.NAMES.contains(normalization)) {
                    throw new ReleaseStoreException("release_manifest_invalid", where + ".normalization: unknown profile '"
                            + normalization + "'; known: " + Normalizations.NAMES);
                }
                normalizedSha = hex(entry, "normalized_sha256", where);
            }
            ReleaseEntry previous = out.put(key, new ReleaseEntry(text(entry, "agent_id", where), sha, length,
                    normalizedSha, normalization));
            if (previous != null) {
                throw new ReleaseStoreException("release_manifest_duplicate_key", where + ": a second entry for ("
                        + key.agentVersion() + ", " + key.clientId() + ", " + key.clientVersion() + ")");
            }
        }
        return out;
    }

    private static String text(Map<?, ?> entry, String key, String where) {
        if (!(entry.get(key) instanceof String s) || s.isEmpty() || s.length() > 256) {
            throw new ReleaseStoreException("release_manifest_invalid", where + "." + key + ": expected a non-empty string"
                    + " of at most 256 characters");
        }
        return s;
    }

    private static String hex(Map<?, ?> entry, String key, String where) {
        String s = text(entry, key, where);
        if (!Sha256.isHex(s)) {
            throw new ReleaseStoreException("release_manifest_invalid", where + "." + key + ": expected 64 lowercase hex digits");
        }
        return s;
    }

    /** Reads a manifest for tests and tools that hold bytes; {@code name} stands for its path. */
    public static JsonFileReleaseStore fromBytes(String name, byte[] bytes) {
        Map<String, String> ref = new LinkedHashMap<>();
        ref.put("path", name);
        ref.put("sha256", Sha256.hex(bytes));
        return new JsonFileReleaseStore(parse(name, bytes), ref);
    }
}
