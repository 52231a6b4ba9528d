package dev.agentwarden.json;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Typed reads of one parsed JSON object ({@link Json#parse}), for documents read by string keys.
 * Every failure names the document, the path of the field and what was expected, as the exception
 * the reader's {@link Failure} makes (one failure code per document).
 *
 * @param <E> the exception a failed read throws
 */
public final class Fields<E extends Exception> {
    /** Makes the exception of a failed read from its message. */
    public interface Failure<E extends Exception> {
        E because(String message);
    }

    /** Failures as {@link IllegalArgumentException}s whose message starts with {@code code: } ("" for none). */
    public static Failure<IllegalArgumentException> illegalArgument(String code) {
        return new IllegalArgument(code.isEmpty() ? "" : code + ": ");
    }

    /** A named class, not a lambda: readers on the dispatch hot path use it. */
    private static final class IllegalArgument implements Failure<IllegalArgumentException> {
        private final String prefix;

        IllegalArgument(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public IllegalArgumentException because(String message) {
            return new IllegalArgumentException(prefix + message);
        }
    }

    private final Map<String, Object> object;
    private final String path;
    private final Failure<E> failure;

    private Fields(Map<String, Object> object, String path, Failure<E> failure) {
        this.object = object;
        this.path = path;
        this.failure = failure;
    }

    /** Reads {@code value} as an object, failing with {@code failure} otherwise. */
    @SuppressWarnings("unchecked")
    public static <E extends Exception> Fields<E> of(Object value, String path, Failure<E> failure) throws E {
        if (!(value instanceof Map)) {
            throw failure.because(path + " must be a JSON object");
        }
        return new Fields<>((Map<String, Object>) value, path, failure);
    }

    /** {@code value} as a JSON object's map, or {@code null} when it is not one. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asMap(Object value) {
        return value instanceof Map ? (Map<String, Object>) value : null;
    }

    /**
     * {@code value} as a JSON object's map, or an empty map when it is not one: for a file another
     * program owns (a host's settings), where a value of another shape means the setting is not there.
     */
    public static Map<String, Object> objectOrEmpty(Object value) {
        Map<String, Object> map = asMap(value);
        return map == null ? Map.of() : map;
    }

    /** {@code value} as a JSON array, or an empty list when it is not one (as {@link #objectOrEmpty}). */
    public static List<?> listOrEmpty(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }

    public Map<String, Object> map() {
        return object;
    }

    public boolean has(String key) {
        return object.containsKey(key);
    }

    public Object raw(String key) throws E {
        if (!object.containsKey(key)) {
            throw failure.because(where(key) + " is missing");
        }
        return object.get(key);
    }

    public Fields<E> object(String key) throws E {
        return of(raw(key), where(key), failure);
    }

    public String string(String key) throws E {
        if (raw(key) instanceof String s) {
            return s;
        }
        throw failure.because(where(key) + " must be a string");
    }

    public String optionalString(String key) throws E {
        return object.get(key) == null ? null : string(key);
    }

    public boolean bool(String key) throws E {
        if (raw(key) instanceof Boolean b) {
            return b;
        }
        throw failure.because(where(key) + " must be true or false");
    }

    /** The array at {@code key}, each item a string. */
    public List<String> strings(String key, int maxSize) throws E {
        List<?> list = list(key, maxSize);
        List<String> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof String s)) {
                throw failure.because(where(key) + "[" + i + "] must be a string");
            }
            out.add(s);
        }
        return out;
    }

    /** The object at {@code key}, or {@code null} when the key is absent or null. */
    public Fields<E> optionalObject(String key) throws E {
        return object.get(key) == null ? null : object(key);
    }

    public String sha256(String key) throws E {
        String s = string(key);
        if (!isSha256Hex(s)) {
            throw failure.because(where(key) + " must be 64 lowercase hex digits");
        }
        return s;
    }

    public long positiveLong(String key, long min) throws E {
        if (raw(key) instanceof Long n && n >= min) {
            return n;
        }
        throw failure.because(where(key) + " must be an integer >= " + min + ", got " + object.get(key));
    }

    /** The string at {@code key} read by {@code parse}, whose {@link IllegalArgumentException} is a failure. */
    public <T> T parsed(String key, Function<String, T> parse) throws E {
        String s = string(key);
        try {
            return parse.apply(s);
        } catch (IllegalArgumentException e) {
            throw failure.because(where(key) + ": " + e.getMessage());
        }
    }

    public byte[] hex(String key) throws E {
        String s = string(key);
        try {
            return HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            throw failure.because(where(key) + " must be hex");
        }
    }

    public List<?> list(String key, int maxSize) throws E {
        if (!(raw(key) instanceof List<?> list)) {
            throw failure.because(where(key) + " must be an array");
        }
        if (list.size() > maxSize) {
            throw failure.because(where(key) + " has " + list.size() + " items; at most " + maxSize + " are read");
        }
        return list;
    }

    public String path() {
        return path;
    }

    public String where(String key) {
        return path + "." + key;
    }

    /** 64 lowercase hex digits. */
    private static boolean isSha256Hex(String s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
