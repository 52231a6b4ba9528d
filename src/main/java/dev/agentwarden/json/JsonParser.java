package dev.agentwarden.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Recursive-descent reader for one JSON text (RFC 8259), bounded by {@link JsonLimits}. */
final class JsonParser {
    private final String text;
    private final JsonLimits limits;
    private int pos;
    private int depth;

    JsonParser(String text, JsonLimits limits) {
        this.text = text;
        this.limits = limits;
    }

    Object parseDocument() {
        skipWhitespace();
        if (pos >= text.length()) {
            throw error("json_empty", "no JSON value in input");
        }
        Object value = readValue();
        skipWhitespace();
        if (pos < text.length()) {
            throw error("json_trailing", "unexpected text after the JSON value");
        }
        return value;
    }

    private Object readValue() {
        skipWhitespace();
        if (pos >= text.length()) {
            throw error("json_syntax", "unexpected end of input");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return readObject();
            case '[':
                return readArray();
            case '"':
                return readString();
            case 't':
                expectWord("true");
                return Boolean.TRUE;
            case 'f':
                expectWord("false");
                return Boolean.FALSE;
            case 'n':
                expectWord("null");
                return null;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return readNumber();
                }
                throw error("json_syntax", "unexpected character '" + printable(c) + "'");
        }
    }

    private Map<String, Object> readObject() {
        enter();
        pos++;
        Map<String, Object> map = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return map;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("json_syntax", "expected a property name");
            }
            int keyAt = pos;
            String key = readString();
            skipWhitespace();
            if (peek() != ':') {
                throw error("json_syntax", "expected ':' after property name");
            }
            pos++;
            Object value = readValue();
            if (map.containsKey(key) && limits.rejectDuplicateKeys()) {
                pos = keyAt;
                throw error("json_duplicate_key", "duplicate property name \"" + key + "\"");
            }
            map.put(key, value);
            skipWhitespace();
            char c = peek();
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                pos++;
                depth--;
                return map;
            } else {
                throw error("json_syntax", "expected ',' or '}' in object");
            }
        }
    }

    private List<Object> readArray() {
        enter();
        pos++;
        List<Object> list = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return list;
        }
        while (true) {
            list.add(readValue());
            skipWhitespace();
            char c = peek();
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                pos++;
                depth--;
                return list;
            } else {
                throw error("json_syntax", "expected ',' or ']' in array");
            }
        }
    }

    private void enter() {
        if (++depth > limits.maxDepth()) {
            throw error("json_depth_limit", "nesting deeper than " + limits.maxDepth());
        }
    }

    private String readString() {
        pos++;
        StringBuilder sb = null;
        int start = pos;
        while (true) {
            if (pos >= text.length()) {
                throw error("json_syntax", "unterminated string");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                String s = sb == null ? text.substring(start, pos) : sb.append(text, start, pos).toString();
                pos++;
                checkLength(s.length());
                if (limits.rejectLoneSurrogates()) {
                    checkSurrogates(s);
                }
                return s;
            }
            if (c == '\\') {
                if (sb == null) {
                    sb = new StringBuilder();
                }
                sb.append(text, start, pos);
                pos++;
                readEscape(sb);
                start = pos;
                checkLength(sb.length());
                continue;
            }
            if (c < 0x20) {
                throw error("json_syntax", "unescaped control character in string");
            }
            pos++;
        }
    }

    private void readEscape(StringBuilder sb) {
        if (pos >= text.length()) {
            throw error("json_syntax", "unterminated escape");
        }
        char e = text.charAt(pos++);
        switch (e) {
            case '"' -> sb.append('"');
            case '\\' -> sb.append('\\');
            case '/' -> sb.append('/');
            case 'b' -> sb.append('\b');
            case 'f' -> sb.append('\f');
            case 'n' -> sb.append('\n');
            case 'r' -> sb.append('\r');
            case 't' -> sb.append('\t');
            case 'u' -> sb.append(readHex4());
            default -> throw error("json_syntax", "invalid escape '\\" + printable(e) + "'");
        }
    }

    private char readHex4() {
        if (pos + 4 > text.length()) {
            throw error("json_syntax", "truncated \\u escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(text.charAt(pos + i), 16);
            if (d < 0) {
                throw error("json_syntax", "invalid hex digit in \\u escape");
            }
            v = (v << 4) | d;
        }
        pos += 4;
        return (char) v;
    }

    private void checkSurrogates(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    throw error("json_lone_surrogate", "lone high surrogate");
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                throw error("json_lone_surrogate", "lone low surrogate");
            }
        }
    }

    private void checkLength(int length) {
        if (length > limits.maxStringChars()) {
            throw error("json_string_limit", "string longer than " + limits.maxStringChars() + " characters");
        }
    }

    private Object readNumber() {
        int start = pos;
        boolean integral = true;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            while (isDigit(peek())) {
                pos++;
            }
        } else {
            throw error("json_syntax", "invalid number");
        }
        if (peek() == '.') {
            integral = false;
            pos++;
            if (!isDigit(peek())) {
                throw error("json_syntax", "digit expected after '.'");
            }
            while (isDigit(peek())) {
                pos++;
            }
        }
        char c = peek();
        if (c == 'e' || c == 'E') {
            integral = false;
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("json_syntax", "digit expected in exponent");
            }
            while (isDigit(peek())) {
                pos++;
            }
        }
        String literal = text.substring(start, pos);
        if (integral && literal.length() <= 20) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException beyondLong) {
                // read as a double below
            }
        }
        double d = Double.parseDouble(literal);
        if (Double.isInfinite(d)) {
            pos = start;
            throw error("json_number_range", "number out of range: " + literal);
        }
        return d;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void expectWord(String word) {
        if (!text.startsWith(word, pos)) {
            throw error("json_syntax", "invalid literal");
        }
        pos += word.length();
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                break;
            }
        }
    }

    private static String printable(char c) {
        return c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    private JsonException error(String code, String message) {
        return new JsonException(code, message, pos);
    }
}
