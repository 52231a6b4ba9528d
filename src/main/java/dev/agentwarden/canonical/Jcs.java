package dev.agentwarden.canonical;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON Canonicalization Scheme (RFC 8785): one byte sequence per JSON value, so that hashes and
 * signatures over JSON are reproducible.
 *
 * <p>Input is I-JSON (duplicate property names, lone surrogates and invalid UTF-8 are rejected). The
 * output has no whitespace; object properties are sorted by their UTF-16 code units
 * ({@link String#compareTo}); strings escape only the quote, the backslash and U+0000..U+001F
 * (as {@code \b \t \n \f \r}, others as a six-character escape with lowercase hex); numbers are
 * written as ECMAScript's {@code Number::toString} writes them; everything is UTF-8.
 *
 * <p>Value trees use the types {@link Json} reads: {@code Map<String, ?>}, {@code List<?>},
 * {@code String}, {@code Boolean}, {@code null}, {@code Long}/{@code Integer} and {@code Double}.
 * Integers are numbers like any other: beyond 2^53 they print as their nearest double does.
 */
public final class Jcs {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Jcs() {
    }

    /**
     * The canonical UTF-8 bytes of a JSON text.
     *
     * @throws dev.agentwarden.json.JsonException when the text is not I-JSON (code names the problem)
     */
    public static byte[] canonicalize(byte[] jsonUtf8) {
        return canonicalBytes(Json.parse(jsonUtf8, JsonLimits.I_JSON));
    }

    /**
     * The canonical UTF-8 bytes of a value tree.
     *
     * @throws JcsException for values JSON cannot carry (NaN, lone surrogates, foreign types)
     */
    public static byte[] canonicalBytes(Object value) {
        return canonicalString(value).getBytes(StandardCharsets.UTF_8);
    }

    /** The canonical text of a value tree, before UTF-8 encoding. */
    public static String canonicalString(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(out, value);
        return out.toString();
    }

    /** Hex SHA-256 of the canonical bytes of a value tree. */
    public static String sha256Hex(Object value) {
        return Sha256.hex(canonicalBytes(value));
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            writeString(out, s);
        } else if (value instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte) {
            out.append(EcmaNumbers.toString(((Number) value).longValue()));
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new JcsException("jcs_non_finite_number", "JSON has no NaN or Infinity: " + d);
            }
            out.append(EcmaNumbers.toString(d));
        } else if (value instanceof Map<?, ?> map) {
            writeObject(out, map);
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(out, list.get(i));
            }
            out.append(']');
        } else {
            throw new JcsException("jcs_unsupported_type", "not a JSON value: " + value.getClass().getName());
        }
    }

    private static void writeObject(StringBuilder out, Map<?, ?> map) {
        List<String> keys = new ArrayList<>(map.size());
        for (Object key : map.keySet()) {
            if (!(key instanceof String s)) {
                throw new JcsException("jcs_unsupported_type", "property name is not a string: " + key);
            }
            keys.add(s);
        }
        keys.sort(null);
        out.append('{');
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            String key = keys.get(i);
            writeString(out, key);
            out.append(':');
            write(out, map.get(key));
        }
        out.append('}');
    }

    private static void writeString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else if (Character.isSurrogate(c)) {
                        if (Character.isHighSurrogate(c) && i + 1 < s.length()
                                && Character.isLowSurrogate(s.charAt(i + 1))) {
                            out.append(c).append(s.charAt(++i));
                        } else {
                            throw new JcsException("jcs_lone_surrogate",
                                    "string has a lone surrogate U+" + Integer.toHexString(c).toUpperCase());
                        }
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

}
