package dev.agentwarden.json;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, dependency-free JSON reader and writer.
 *
 * <p>Values map to plain Java types: objects to {@code LinkedHashMap<String,Object>} (insertion
 * order kept), arrays to {@code ArrayList<Object>}, strings to {@code String}, {@code true/false} to
 * {@code Boolean}, {@code null} to {@code null}, integers that fit to {@code Long} and every other
 * number to {@code Double}. It is used on the dispatch hot path, where start-up cost rules out a
 * data-binding library.
 */
public final class Json {
    private Json() {
    }

    /** Reads one JSON text from UTF-8 bytes. */
    public static Object parse(byte[] utf8, JsonLimits limits) {
        return parse(decode(utf8, limits.strictUtf8()), limits);
    }

    /** Reads one JSON text. Trailing non-whitespace is an error. */
    public static Object parse(String text, JsonLimits limits) {
        return new JsonParser(text, limits).parseDocument();
    }

    /** Reads lenient host JSON. */
    public static Object parse(String text) {
        return parse(text, JsonLimits.LENIENT);
    }

    /** Reads a JSON object, or fails with {@code json_not_object}. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new JsonException("json_not_object", "expected a JSON object", 0);
        }
        return (Map<String, Object>) value;
    }

    static String decode(byte[] utf8, boolean strict) {
        if (!strict) {
            return new String(utf8, StandardCharsets.UTF_8);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(utf8)).toString();
        } catch (CharacterCodingException e) {
            throw new JsonException("json_invalid_utf8", "input is not valid UTF-8", 0);
        }
    }

    /** Compact JSON text for a value tree made of the types this class reads. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(128);
        writeTo(out, value);
        return out.toString();
    }

    /** Indented JSON text (two spaces, one property per line), for files people edit. */
    public static String writePretty(Object value) {
        StringBuilder out = new StringBuilder(256);
        writePretty(out, value, 0);
        return out.append('\n').toString();
    }

    private static void writePretty(StringBuilder out, Object value, int indent) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append("  ".repeat(indent + 1));
                quote(out, String.valueOf(e.getKey()));
                out.append(": ");
                writePretty(out, e.getValue(), indent + 1);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append('}');
        } else if (value instanceof List<?> list && !list.isEmpty()) {
            out.append("[\n");
            int i = 0;
            for (Object item : list) {
                out.append("  ".repeat(indent + 1));
                writePretty(out, item, indent + 1);
                out.append(++i < list.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append(']');
        } else {
            writeTo(out, value);
        }
    }

    /** Appends the compact JSON text of {@code value}. */
    public static void writeTo(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            quote(out, s);
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            out.append(value);
        } else if (value instanceof Number n) {
            writeNumber(out, n);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                quote(out, String.valueOf(e.getKey()));
                out.append(':');
                writeTo(out, e.getValue());
            }
            out.append('}');
        } else if (value instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeTo(out, item);
            }
            out.append(']');
        } else if (value instanceof RawJson raw) {
            out.append(raw.text());
        } else {
            quote(out, value.toString());
        }
    }

    private static void writeNumber(StringBuilder out, Number n) {
        double d = n.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            out.append((long) d);
        } else {
            out.append(d);
        }
    }

    /**
     * Appends {@code s} as a JSON string literal; non-ASCII text is kept as is, except lone
     * surrogates, which have no UTF-8 form and are written as escapes.
     */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        if (plain(s)) {
            // the common string: nothing to escape, appended in one go
            out.append(s).append('"');
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Whether {@link #quote} writes every character of {@code s} as itself: no quote, backslash, control, separator or surrogate. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** A JSON text spliced verbatim into written output (for example a host payload). */
    public record RawJson(String text) {
    }

    /** Convenience builder for an ordered object. */
    public static Map<String, Object> object() {
        return new LinkedHashMap<>();
    }

    /** Convenience builder for an array. */
    public static List<Object> array() {
        return new ArrayList<>();
    }
}
