package dev.agentwarden.json;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One JSON text (RFC 8259) read for where each value lies, in byte offsets, so that an edit can
 * splice text in and out without re-writing anything it does not touch: formatting, key order,
 * duplicate keys, the text of numbers and the bytes inside strings (valid UTF-8 or not) all stay
 * as written. Only string values are decoded, for comparison; a leading UTF-8 byte order mark is
 * skipped and kept.
 */
public final class JsonSpans {
    /** Deepest nesting accepted, as for host payloads. */
    static final int MAX_DEPTH = 256;

    /** What a value is. */
    public enum Kind { OBJECT, ARRAY, STRING, NUMBER, LITERAL }

    /**
     * One value: its kind and its span {@code [start, end)}. Objects have members, arrays have
     * elements; a string has its decoded text (malformed UTF-8 read as U+FFFD, for comparison only).
     */
    public static final class Value {
        private final Kind kind;
        private final int start;
        private int end;
        private final List<Member> members;
        private final List<Value> elements;
        private String text;

        private Value(Kind kind, int start) {
            this.kind = kind;
            this.start = start;
            this.members = kind == Kind.OBJECT ? new ArrayList<>() : List.of();
            this.elements = kind == Kind.ARRAY ? new ArrayList<>() : List.of();
        }

        public Kind kind() {
            return kind;
        }

        public int start() {
            return start;
        }

        public int end() {
            return end;
        }

        /** An object's members in written order, duplicates included. */
        public List<Member> members() {
            return members;
        }

        /** An array's elements in written order. */
        public List<Value> elements() {
            return elements;
        }

        /** A string's decoded text, else {@code null}. */
        public String text() {
            return text;
        }

        /** The members named {@code key}, in written order. */
        public List<Member> named(String key) {
            List<Member> out = new ArrayList<>(1);
            for (Member m : members) {
                if (m.key().equals(key)) {
                    out.add(m);
                }
            }
            return out;
        }

        /** Whether this is a string whose text is {@code s}. */
        public boolean isString(String s) {
            return kind == Kind.STRING && text.equals(s);
        }
    }

    /** One object member: its decoded key, where its key starts, and its value (the member ends where the value does). */
    public record Member(String key, int start, Value value) {
        public int end() {
            return value.end();
        }
    }

    private final byte[] in;
    private int pos;
    private int depth;

    private JsonSpans(byte[] in) {
        this.in = in;
    }

    /** Reads a whole document: optional byte order mark, whitespace, one value, whitespace. */
    public static Value parse(byte[] document) {
        JsonSpans p = new JsonSpans(document);
        if (document.length >= 3 && (document[0] & 0xff) == 0xef && (document[1] & 0xff) == 0xbb
                && (document[2] & 0xff) == 0xbf) {
            p.pos = 3;
        }
        p.skipWhitespace();
        if (p.pos >= document.length) {
            throw p.error("json_empty", "no JSON value in input");
        }
        Value v = p.readValue();
        p.skipWhitespace();
        if (p.pos < document.length) {
            throw p.error("json_trailing", "unexpected text after the JSON value");
        }
        return v;
    }

    /**
     * Where the value of the last member named {@code key} lies, as {@code {start, end}}, when the
     * document is an object: what {@code parse(document).named(key)} gives for its last member,
     * without building the tree. {@code null} when the document is not an object or has no such
     * member. The grammar and limits are {@link #parse}'s: what it refuses, this refuses.
     *
     * @throws JsonException as {@link #parse} does
     */
    public static int[] lastMemberSpan(byte[] document, String key) {
        JsonSpans p = new JsonSpans(document);
        if (document.length >= 3 && (document[0] & 0xff) == 0xef && (document[1] & 0xff) == 0xbb
                && (document[2] & 0xff) == 0xbf) {
            p.pos = 3;
        }
        p.skipWhitespace();
        if (p.pos >= document.length) {
            throw p.error("json_empty", "no JSON value in input");
        }
        int[] span = null;
        if (p.peek() == '{') {
            span = p.lastMemberOfObject(key);
        } else {
            p.skipValue();
        }
        p.skipWhitespace();
        if (p.pos < document.length) {
            throw p.error("json_trailing", "unexpected text after the JSON value");
        }
        return span;
    }

    /** {@link #readObject} keeping only the span of the last member named {@code key}. */
    private int[] lastMemberOfObject(String key) {
        enter();
        pos++;
        int[] span = null;
        skipWhitespace();
        if (peek() == '}') {
            leave();
            return null;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("json_syntax", "expected a property name");
            }
            boolean wanted = readString().text.equals(key);
            skipWhitespace();
            if (peek() != ':') {
                throw error("json_syntax", "expected ':' after property name");
            }
            pos++;
            skipWhitespace();
            int start = pos;
            skipValue();
            if (wanted) {
                span = new int[] {start, pos};
            }
            skipWhitespace();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                leave();
                return span;
            } else {
                throw error("json_syntax", "expected ',' or '}' in object");
            }
        }
    }

    /** {@link #readValue} keeping nothing: the same checks, no tree and no decoded text. */
    private void skipValue() {
        skipWhitespace();
        if (pos >= in.length) {
            throw error("json_syntax", "unexpected end of input");
        }
        int c = in[pos] & 0xff;
        switch (c) {
            case '{':
                skipObject();
                return;
            case '[':
                skipArray();
                return;
            case '"':
                skipString();
                return;
            case 't':
                readWord("true");
                return;
            case 'f':
                readWord("false");
                return;
            case 'n':
                readWord("null");
                return;
            default:
                if (c == '-' || isDigit(c)) {
                    readNumber();
                    return;
                }
                throw error("json_syntax", "unexpected character");
        }
    }

    private void skipObject() {
        enter();
        pos++;
        skipWhitespace();
        if (peek() == '}') {
            leave();
            return;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("json_syntax", "expected a property name");
            }
            skipString();
            skipWhitespace();
            if (peek() != ':') {
                throw error("json_syntax", "expected ':' after property name");
            }
            pos++;
            skipValue();
            skipWhitespace();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                leave();
                return;
            } else {
                throw error("json_syntax", "expected ',' or '}' in object");
            }
        }
    }

    private void skipArray() {
        enter();
        pos++;
        skipWhitespace();
        if (peek() == ']') {
            leave();
            return;
        }
        while (true) {
            skipValue();
            skipWhitespace();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                leave();
                return;
            } else {
                throw error("json_syntax", "expected ',' or ']' in array");
            }
        }
    }

    /** {@link #readString} without its text: control characters and escapes checked alike. */
    private void skipString() {
        pos++;
        while (true) {
            if (pos >= in.length) {
                throw error("json_syntax", "unterminated string");
            }
            int c = in[pos] & 0xff;
            if (c == '"') {
                pos++;
                return;
            }
            if (c < 0x20) {
                throw error("json_syntax", "unescaped control character in string");
            }
            pos++;
            if (c == '\\') {
                readEscape();
            }
        }
    }

    /** Past the closing bracket of a container {@link #enter} entered. */
    private void leave() {
        pos++;
        depth--;
    }

    private Value readValue() {
        skipWhitespace();
        if (pos >= in.length) {
            throw error("json_syntax", "unexpected end of input");
        }
        int c = in[pos] & 0xff;
        switch (c) {
            case '{':
                return readObject();
            case '[':
                return readArray();
            case '"':
                return readString();
            case 't':
                return readWord("true");
            case 'f':
                return readWord("false");
            case 'n':
                return readWord("null");
            default:
                if (c == '-' || isDigit(c)) {
                    return readNumber();
                }
                throw error("json_syntax", "unexpected character");
        }
    }

    private Value readObject() {
        enter();
        Value v = new Value(Kind.OBJECT, pos++);
        skipWhitespace();
        if (peek() == '}') {
            return close(v);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("json_syntax", "expected a property name");
            }
            int keyAt = pos;
            String key = readString().text;
            skipWhitespace();
            if (peek() != ':') {
                throw error("json_syntax", "expected ':' after property name");
            }
            pos++;
            v.members.add(new Member(key, keyAt, readValue()));
            skipWhitespace();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == '}') {
                return close(v);
            } else {
                throw error("json_syntax", "expected ',' or '}' in object");
            }
        }
    }

    private Value readArray() {
        enter();
        Value v = new Value(Kind.ARRAY, pos++);
        skipWhitespace();
        if (peek() == ']') {
            return close(v);
        }
        while (true) {
            v.elements.add(readValue());
            skipWhitespace();
            int c = peek();
            if (c == ',') {
                pos++;
            } else if (c == ']') {
                return close(v);
            } else {
                throw error("json_syntax", "expected ',' or ']' in array");
            }
        }
    }

    private Value close(Value v) {
        pos++;
        v.end = pos;
        depth--;
        return v;
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("json_depth_limit", "nesting deeper than " + MAX_DEPTH);
        }
    }

    /** A string; its text decodes escapes, and raw bytes as UTF-8 (malformed sequences as U+FFFD). */
    private Value readString() {
        Value v = new Value(Kind.STRING, pos++);
        // the common string: no escape before its closing quote, decoded in one go
        for (int i = pos; i < in.length; i++) {
            int c = in[i] & 0xff;
            if (c == '"') {
                v.text = new String(in, pos, i - pos, StandardCharsets.UTF_8);
                pos = i + 1;
                v.end = pos;
                return v;
            }
            if (c == '\\' || c < 0x20) {
                break;
            }
        }
        StringBuilder text = new StringBuilder();
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        while (true) {
            if (pos >= in.length) {
                throw error("json_syntax", "unterminated string");
            }
            int c = in[pos] & 0xff;
            if (c == '"') {
                text.append(raw.toString(StandardCharsets.UTF_8));
                pos++;
                v.end = pos;
                v.text = text.toString();
                return v;
            }
            if (c < 0x20) {
                throw error("json_syntax", "unescaped control character in string");
            }
            if (c == '\\') {
                text.append(raw.toString(StandardCharsets.UTF_8));
                raw.reset();
                pos++;
                text.append(readEscape());
                continue;
            }
            raw.write(c);
            pos++;
        }
    }

    private char readEscape() {
        if (pos >= in.length) {
            throw error("json_syntax", "unterminated escape");
        }
        int e = in[pos++] & 0xff;
        switch (e) {
            case '"':
                return '"';
            case '\\':
                return '\\';
            case '/':
                return '/';
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u':
                return readHex4();
            default:
                pos--;
                throw error("json_syntax", "invalid escape");
        }
    }

    private char readHex4() {
        if (pos + 4 > in.length) {
            throw error("json_syntax", "truncated \\u escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(in[pos + i] & 0xff, 16);
            if (d < 0) {
                throw error("json_syntax", "invalid hex digit in \\u escape");
            }
            v = (v << 4) | d;
        }
        pos += 4;
        return (char) v;
    }

    private Value readNumber() {
        Value v = new Value(Kind.NUMBER, pos);
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            digits();
        } else {
            throw error("json_syntax", "invalid number");
        }
        if (peek() == '.') {
            pos++;
            if (!isDigit(peek())) {
                throw error("json_syntax", "digit expected after '.'");
            }
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("json_syntax", "digit expected in exponent");
            }
            digits();
        }
        v.end = pos;
        return v;
    }

    private void digits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    private Value readWord(String word) {
        Value v = new Value(Kind.LITERAL, pos);
        for (int i = 0; i < word.length(); i++) {
            if (pos + i >= in.length || in[pos + i] != word.charAt(i)) {
                throw error("json_syntax", "invalid literal");
            }
        }
        pos += word.length();
        v.end = pos;
        return v;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private int peek() {
        return pos < in.length ? in[pos] & 0xff : -1;
    }

    private void skipWhitespace() {
        while (pos < in.length) {
            int c = in[pos];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                break;
            }
        }
    }

    private JsonException error(String code, String message) {
        return new JsonException(code, message, pos);
    }
}
