package dev.agentwarden.release;

import dev.agentwarden.release.TrustFailure.Untrusted;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Typed reads of one JSON object of trust metadata. Every failure names the document, the path of
 * the field and what was expected, under one failure code.
 */
final class Fields {
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    private final Map<String, Object> object;
    private final String path;
    private final TrustFailure failure;

    private Fields(Map<String, Object> object, String path, TrustFailure failure) {
        this.object = object;
        this.path = path;
        this.failure = failure;
    }

    /** Reads {@code value} as an object, failing with {@code failure} otherwise. */
    @SuppressWarnings("unchecked")
    static Fields of(Object value, String path, TrustFailure failure) throws Untrusted {
        if (!(value instanceof Map)) {
            throw failure.because(path + " must be a JSON object");
        }
        return new Fields((Map<String, Object>) value, path, failure);
    }

    /** {@code value} as a JSON object's map, or {@code null} when it is not one. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> asMap(Object value) {
        return value instanceof Map ? (Map<String, Object>) value : null;
    }

    Map<String, Object> map() {
        return object;
    }

    boolean has(String key) {
        return object.containsKey(key);
    }

    Object raw(String key) throws Untrusted {
        if (!object.containsKey(key)) {
            throw failure.because(where(key) + " is missing");
        }
        return object.get(key);
    }

    Fields object(String key) throws Untrusted {
        return of(raw(key), where(key), failure);
    }

    String string(String key) throws Untrusted {
        if (raw(key) instanceof String s) {
            return s;
        }
        throw failure.because(where(key) + " must be a string");
    }

    String optionalString(String key) throws Untrusted {
        return object.get(key) == null ? null : string(key);
    }

    String sha256(String key) throws Untrusted {
        String s = string(key);
        if (!SHA256_HEX.matcher(s).matches()) {
            throw failure.because(where(key) + " must be 64 lowercase hex digits");
        }
        return s;
    }

    long positiveLong(String key, long min) throws Untrusted {
        if (raw(key) instanceof Long n && n >= min) {
            return n;
        }
        throw failure.because(where(key) + " must be an integer >= " + min + ", got " + object.get(key));
    }

    Instant timestamp(String key) throws Untrusted {
        String s = string(key);
        try {
            return Rfc3339.parse(s);
        } catch (IllegalArgumentException e) {
            throw failure.because(where(key) + ": " + e.getMessage());
        }
    }

    byte[] hex(String key) throws Untrusted {
        String s = string(key);
        try {
            return HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            throw failure.because(where(key) + " must be hex");
        }
    }

    List<?> list(String key, int maxSize) throws Untrusted {
        if (!(raw(key) instanceof List<?> list)) {
            throw failure.because(where(key) + " must be an array");
        }
        if (list.size() > maxSize) {
            throw failure.because(where(key) + " has " + list.size() + " items; at most " + maxSize + " are read");
        }
        return list;
    }

    String path() {
        return path;
    }

    String where(String key) {
        return path + "." + key;
    }
}
