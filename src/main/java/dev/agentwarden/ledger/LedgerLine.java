package dev.agentwarden.ledger;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.digest.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ledger line format, version 1: one compact JSON object per line,
 * {@code {"v":1,"event":…,"ts":…,…,"prev":"<hex>"}}, where {@code prev} is the SHA-256 of the
 * previous chain line's exact bytes (without its newline) and the first line of the ledger carries
 * {@link #GENESIS}. A chain line is any physical line that reads as a JSON object; any other line
 * (a write torn by a crash) is skipped by readers and by the chain.
 */
public final class LedgerLine {
    /** Format version written in {@code v}. */
    public static final long VERSION = 1;
    /** {@code prev} of the first line of a ledger. */
    public static final String GENESIS = "0".repeat(64);
    /** Longest line a reader keeps; longer lines are skipped and reported. */
    static final int MAX_LINE_BYTES = 64 * 1024;

    private static final JsonLimits LIMITS = new JsonLimits(32, MAX_LINE_BYTES, true, true, true);
    /** For small state files on the dispatch path: same bounds, UTF-8 decoded leniently (no decoder set-up). */
    private static final JsonLimits STATE_LIMITS = new JsonLimits(32, MAX_LINE_BYTES, true, false, false);

    private LedgerLine() {
    }

    /** The fields of a line as JSON object (strict UTF-8, no duplicate keys), or {@code null} when the bytes are not one. */
    static Map<String, Object> parse(byte[] bytes) {
        return object(bytes, LIMITS);
    }

    /**
     * A small state file (an open record, the head) as JSON object, or {@code null}. Malformed
     * UTF-8 becomes U+FFFD and then fails the file's own field checks.
     */
    static Map<String, Object> parseState(byte[] bytes) {
        return object(bytes, STATE_LIMITS);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(byte[] bytes, JsonLimits limits) {
        if (bytes.length == 0 || bytes[0] != '{') {
            return null;
        }
        try {
            Object v = Json.parse(bytes, limits);
            return v instanceof Map ? (Map<String, Object>) v : null;
        } catch (JsonException e) {
            return null;
        }
    }

    /** The bytes of a line: {@code v}, then {@code fields} in order, then {@code prev}. */
    static byte[] render(Map<String, Object> fields, String prev) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("v", VERSION);
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (!e.getKey().equals("v") && !e.getKey().equals("prev")) {
                line.put(e.getKey(), e.getValue());
            }
        }
        line.put("prev", prev);
        return Json.write(line).getBytes(StandardCharsets.UTF_8);
    }

    /** Lowercase hex SHA-256 of a line's bytes (plain Java: no security-provider start-up on dispatch). */
    public static String hash(byte[] bytes) {
        return Sha256.hex(bytes);
    }
}
