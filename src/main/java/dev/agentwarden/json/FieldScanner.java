package dev.agentwarden.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads one JSON object from UTF-8 bytes in place and records where the values of a fixed set of
 * top-level keys are, without building a map: the bulk readers' codec for lines Warden wrote.
 *
 * <p>{@link #scan} accepts a subset of JSON: the text {@link Json#parse} reads the same way, with
 * the same values. Whatever falls outside the subset, or is not valid, makes it return
 * {@code false}, and the caller parses the line with {@link Json#parse} instead, which decides. So
 * a line this scanner accepts is one the parser accepts, and a line it refuses costs only speed.
 * Outside the subset: a duplicate key at any level, nesting deeper than the limit, an object of
 * more than {@link #MAX_KEYS} keys outside the scanner's dictionary, a key with an escape, a number
 * beyond the range of a double, and in strict mode any byte above 0x7f and any {@code \\u}
 * escape (which could be a lone surrogate); in lenient mode a non-ASCII byte is read as
 * {@link Json#parse} reads it without strict UTF-8 (malformed input becomes U+FFFD).
 *
 * <p>The scanner's dictionary is the keys it records and the other keys it is told to expect. A
 * dictionary key is checked for repeats by one bit per object; any other key by comparing it with
 * the object's other such keys. String text is skipped eight bytes at a time ({@link ByteWords}).
 *
 * <p>One instance is reused line after line; values are valid until the next {@link #scan}.
 */
public final class FieldScanner {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Kinds of a recorded value. */
    public static final byte ABSENT = 0;
    public static final byte STRING = 1;
    /** An integer literal of at most 18 digits: {@link #integer} holds it. */
    public static final byte INTEGER = 2;
    /** Any other number: {@link #value} parses it. */
    public static final byte NUMBER = 3;
    public static final byte TRUE = 4;
    public static final byte FALSE = 5;
    public static final byte NULL = 6;
    public static final byte ARRAY = 7;
    public static final byte OBJECT = 8;

    /** Depths whose first keys are predicted apart (deeper objects share the last slot). */
    private static final int START_SLOTS = 4;
    /** Most keys outside the dictionary an object may have on the fast path (their repeats are checked pairwise). */
    static final int MAX_KEYS = 64;
    /** Dictionary keys past this many are checked pairwise, like any other key. */
    private static final int MASKED_KEYS = 64;
    /** Distinct strings {@link #sharedString} keeps, and the longest it keeps. */
    private static final int SHARED_STRINGS = 4096;
    private static final int SHARED_MAX_BYTES = 128;

    /** The dictionary: the recorded keys (indexes below {@link #recorded}), then the expected ones. */
    private final byte[][] keys;
    private final int recorded;
    /** Of each dictionary key: its first and second eight bytes ({@link ByteWords#word}). */
    private final long[] word0;
    private final long[] word1;
    /**
     * Of each dictionary key: its length, or -1 when it holds a quote, backslash, control byte or byte
     * above 0x7f (such a key is never matched in place: {@link #isKeyAt}).
     */
    private final int[] keyLength;
    /** Of each dictionary key: which bits of {@link #word0} and {@link #word1} it fills. */
    private final long[] mask0;
    private final long[] mask1;
    private final int[] table;
    private final int mask;
    /**
     * Key prediction: of each dictionary key, the dictionary key that followed it last (-1: none yet);
     * past the dictionary, one slot per nesting depth for an object's first key. Lines of one writer
     * repeat their key order, so a key is mostly found by one comparison, without hashing.
     */
    private final int[] follow;
    /** Of each slot of {@link #follow}, the key that followed before it (lines of two shapes alternate). */
    private final int[] followBefore;
    private final int maxDepth;
    private final boolean strict;
    private final byte[] kind;
    private final int[] start;
    private final int[] end;
    private final long[] integer;
    private final boolean[] escaped;
    private final int[] touched;
    private int touchedCount;
    /** Key spans of the objects being read, innermost last: start, end, and key index or -1. */
    private int[] keyStack = new int[3 * MAX_KEYS];
    private int keyTop;
    private byte[][] sharedBytes;
    private String[] sharedValues;
    private int sharedCount;
    /** Of each recorded key: the value {@link #sharedString} returned last, and its bytes. */
    private byte[][] lastShared;
    private String[] lastSharedValue;
    private byte[] buf;
    /** {@link #scanLine} runs: a {@code '\n'} ends the text rather than being white space. */
    private boolean oneLine;
    private int pos;
    private int limit;
    private int depth;

    /**
     * @param keys     the top-level keys to record, by index
     * @param maxDepth deepest nesting accepted (the parser's limit for these lines)
     * @param strict   the parser runs with strict UTF-8 and rejects lone surrogates
     */
    public FieldScanner(String[] keys, int maxDepth, boolean strict) {
        this(keys, new String[0], maxDepth, strict);
    }

    /**
     * @param keys     the top-level keys to record, by index
     * @param expected other keys the lines hold, at any level (repeats are checked faster)
     * @param maxDepth deepest nesting accepted (the parser's limit for these lines)
     * @param strict   the parser runs with strict UTF-8 and rejects lone surrogates
     */
    public FieldScanner(String[] keys, String[] expected, int maxDepth, boolean strict) {
        java.util.LinkedHashSet<String> dictionary = new java.util.LinkedHashSet<>(Arrays.asList(keys));
        if (dictionary.size() != keys.length) {
            throw new IllegalArgumentException("a key to record is named twice");
        }
        dictionary.addAll(Arrays.asList(expected));
        this.recorded = keys.length;
        this.keys = new byte[dictionary.size()][];
        this.word0 = new long[dictionary.size()];
        this.word1 = new long[dictionary.size()];
        int size = Integer.highestOneBit(Math.max(4, dictionary.size() * 4) - 1) << 1;
        this.table = new int[size];
        this.mask = size - 1;
        Arrays.fill(table, -1);
        this.keyLength = new int[dictionary.size()];
        this.mask0 = new long[dictionary.size()];
        this.mask1 = new long[dictionary.size()];
        int i = 0;
        for (String key : dictionary) {
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            this.keys[i] = k;
            keyLength[i] = ByteWords.stringStop(k, 0, k.length, true) == k.length ? k.length : -1;
            mask0[i] = k.length >= 8 ? -1L : (1L << (k.length << 3)) - 1;
            mask1[i] = k.length >= 16 ? -1L : k.length <= 8 ? 0 : (1L << ((k.length - 8) << 3)) - 1;
            word0[i] = ByteWords.word(k, 0, Math.min(k.length, 8));
            word1[i] = ByteWords.word(k, 8, Math.min(k.length - 8, 8));
            int slot = hash(word0[i], k.length) & mask;
            while (table[slot] >= 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = i++;
        }
        this.follow = new int[dictionary.size() + START_SLOTS];
        Arrays.fill(follow, -1);
        this.followBefore = follow.clone();
        this.maxDepth = maxDepth;
        this.strict = strict;
        this.kind = new byte[keys.length];
        this.start = new int[keys.length];
        this.end = new int[keys.length];
        this.integer = new long[keys.length];
        this.escaped = new boolean[keys.length];
        this.touched = new int[keys.length];
    }

    /**
     * Reads the object in {@code bytes[from, to)}; {@code true} when it is one within the subset
     * (every key then recorded or {@link #ABSENT}), {@code false} when the parser must decide.
     */
    public boolean scan(byte[] bytes, int from, int to) {
        reset(bytes, from, to);
        skipWhitespace();
        if (pos >= limit || buf[pos] != '{') {
            return false;
        }
        if (!object(true)) {
            return false;
        }
        skipWhitespace();
        return pos == limit;
    }

    /**
     * Reads the line that starts at {@code bytes[from]}, its end found within the scan rather than
     * by a search before it: when {@code bytes[from, nl)} is an object that {@link #scan} accepts,
     * with at most blanks ({@code ' '}, {@code '\t'}, {@code '\r'}) after it, and {@code bytes[nl]}
     * is the first {@code '\n'} at or after {@code from}, returns {@code nl} with the keys recorded
     * as {@link #scan} of {@code bytes[from, nl)} records them. Returns -1 otherwise: no {@code '\n'}
     * before {@code limit}, or a line {@link #scan} would refuse; the caller then finds the line's
     * end and reads it as before, so -1 costs only speed. Whitespace inside the object never spans
     * a {@code '\n'} here, so the object cannot run on into the next line.
     */
    public int scanLine(byte[] bytes, int from, int limit) {
        reset(bytes, from, limit);
        if (pos >= this.limit || buf[pos] != '{') {
            return -1;
        }
        oneLine = true;
        if (!object(true)) {
            return -1;
        }
        while (pos < this.limit && (buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == '\r')) {
            pos++;
        }
        return pos < this.limit && buf[pos] == '\n' ? pos : -1;
    }

    /**
     * Reads the object that starts at {@code bytes[from]} and ends before {@code limit} (an element
     * of an array {@link #scan} accepted, say) as {@link #scan} reads a line; returns the index after
     * its closing brace, or -1 when the parser must decide.
     */
    public int scanObject(byte[] bytes, int from, int limit) {
        reset(bytes, from, limit);
        if (pos >= this.limit || buf[pos] != '{' || !object(true)) {
            return -1;
        }
        return pos;
    }

    /**
     * Records the keys of the object that starts at {@code bytes[from]} and ends before {@code limit},
     * text that {@link #scan} already accepted as part of a line (an element of a recorded array,
     * say): nothing is checked again, so the object costs one walk over its keys, with the values
     * {@link #scan} would record. Returns the index after its closing brace.
     */
    public int readAccepted(byte[] bytes, int from, int limit) {
        reset(bytes, from, limit);
        pos = from + 1;
        int after = startSlot(0);
        while (true) {
            if (pos < this.limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (pos >= this.limit) {
                return pos;
            }
            if (buf[pos] == '}') {
                return pos + 1;
            }
            if (buf[pos] == ',') {
                pos++;
                continue;
            }
            int keyStart = pos + 1;
            int d = follow[after];
            if (d >= 0 && isKeyAt(d, keyStart)) {
                pos = keyStart + keyLength[d] + 1;
            } else {
                int keyEnd = ByteWords.indexOf(buf, keyStart, limit, (byte) '"');
                d = predictedKey(after, keyStart, keyEnd);
                pos = keyEnd + 1;
            }
            after = d >= 0 ? d : startSlot(0);
            if (buf[pos] != ':') {
                skipWhitespace();
            }
            pos++;
            if (buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (d >= 0 && d < recorded) {
                readAcceptedValue(d);
            } else {
                pos = valueEnd(buf, pos, limit);
            }
        }
    }

    /** Records the value at {@code pos} (accepted text) under {@code index}, and moves past it. */
    private void readAcceptedValue(int index) {
        int from = pos;
        byte c = buf[pos];
        switch (c) {
            case '"': {
                int p = pos + 1;
                boolean esc = false;
                while (true) {
                    p = ByteWords.stringStop(buf, p, limit, false);
                    if (buf[p] == '"') {
                        break;
                    }
                    if (buf[p] == '\\') {
                        esc = true;
                        p += 2;
                    } else {
                        p++;
                    }
                }
                record(index, STRING, from + 1, p, 0, esc);
                pos = p + 1;
                return;
            }
            case '{':
            case '[':
                pos = valueEnd(buf, pos, limit);
                record(index, c == '{' ? OBJECT : ARRAY, from, pos, 0, false);
                return;
            case 't':
                pos += 4;
                record(index, TRUE, from, pos, 0, false);
                return;
            case 'f':
                pos += 5;
                record(index, FALSE, from, pos, 0, false);
                return;
            case 'n':
                pos += 4;
                record(index, NULL, from, pos, 0, false);
                return;
            default: {
                boolean negative = c == '-';
                int p = negative ? pos + 1 : pos;
                int digitsFrom = p;
                long n = 0;
                while (p < limit && buf[p] >= '0' && buf[p] <= '9') {
                    n = n * 10 + (buf[p] - '0');
                    p++;
                }
                int digits = p - digitsFrom;
                pos = valueEnd(buf, pos, limit);
                boolean integral = pos == p;
                if (integral && digits <= 18) {
                    record(index, INTEGER, from, pos, negative ? -n : n, false);
                } else {
                    record(index, NUMBER, from, pos, 0, false);
                }
            }
        }
    }

    private void reset(byte[] bytes, int from, int to) {
        for (int i = 0; i < touchedCount; i++) {
            kind[touched[i]] = ABSENT;
        }
        touchedCount = 0;
        keyTop = 0;
        depth = 0;
        oneLine = false;
        buf = bytes;
        pos = from;
        limit = to;
    }

    /** The bytes last scanned. */
    public byte[] bytes() {
        return buf;
    }

    public byte kind(int key) {
        return kind[key];
    }

    /** Start of the value (for a string, after its opening quote). */
    public int start(int key) {
        return start[key];
    }

    /** End of the value, exclusive (for a string, at its closing quote). */
    public int end(int key) {
        return end[key];
    }

    /** Whether the {@link #STRING} value holds an escape (its bytes are not its text). */
    public boolean escaped(int key) {
        return escaped[key];
    }

    /** The value of an {@link #INTEGER}. */
    public long integer(int key) {
        return integer[key];
    }

    /** The {@link #STRING} value, decoded; {@code null} for another kind. */
    public String string(int key) {
        if (kind[key] != STRING) {
            return null;
        }
        if (escaped[key]) {
            return (String) Json.parse(new String(buf, start[key] - 1, end[key] - start[key] + 2, StandardCharsets.UTF_8),
                    JsonLimits.LENIENT);
        }
        return new String(buf, start[key], end[key] - start[key], StandardCharsets.UTF_8);
    }

    /**
     * {@link #string}, from a cache of the values seen before: the same text, and for a value that
     * repeats (a session, a type, a label) no new string each time. Keeps up to
     * {@link #SHARED_STRINGS} values of at most {@link #SHARED_MAX_BYTES} bytes.
     */
    public String sharedString(int key) {
        int from = start[key];
        int to = end[key];
        if (kind[key] != STRING || escaped[key] || to - from > SHARED_MAX_BYTES) {
            return string(key);
        }
        if (sharedBytes == null) {
            sharedBytes = new byte[2 * SHARED_STRINGS][];
            sharedValues = new String[2 * SHARED_STRINGS];
            lastShared = new byte[kind.length][];
            lastSharedValue = new String[kind.length];
        }
        int len = to - from;
        byte[] last = lastShared[key];
        if (last != null && last.length == len && Arrays.equals(buf, from, to, last, 0, len)) {
            return lastSharedValue[key];
        }
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + buf[i];
        }
        int m = sharedBytes.length - 1;
        int slot = (h ^ (h >>> 16)) & m;
        for (byte[] k = sharedBytes[slot]; k != null; k = sharedBytes[slot]) {
            if (k.length == len && Arrays.equals(buf, from, to, k, 0, len)) {
                lastShared[key] = k;
                lastSharedValue[key] = sharedValues[slot];
                return sharedValues[slot];
            }
            slot = (slot + 1) & m;
        }
        String value = new String(buf, from, len, StandardCharsets.UTF_8);
        if (sharedCount < SHARED_STRINGS) {
            sharedBytes[slot] = Arrays.copyOfRange(buf, from, to);
            sharedValues[slot] = value;
            sharedCount++;
            lastShared[key] = sharedBytes[slot];
            lastSharedValue[key] = value;
        }
        return value;
    }

    /** Whether the value is the string {@code ascii} (no escapes assumed in {@code ascii}). */
    public boolean stringIs(int key, byte[] ascii) {
        if (kind[key] != STRING) {
            return false;
        }
        if (escaped[key]) {
            return new String(ascii, StandardCharsets.ISO_8859_1).equals(string(key));
        }
        return Arrays.equals(buf, start[key], end[key], ascii, 0, ascii.length);
    }

    /** The value as {@link Json#parse} reads it ({@code null} for absent or JSON null). */
    public Object value(int key) {
        switch (kind[key]) {
            case ABSENT:
            case NULL:
                return null;
            case STRING:
                return string(key);
            case INTEGER:
                return integer[key];
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            default:
                return Json.parse(new String(buf, start[key], end[key] - start[key], StandardCharsets.UTF_8),
                        JsonLimits.LENIENT);
        }
    }

    /** A key's slot hash, from its length and first eight bytes (the table then compares all of them). */
    private static int hash(long word0, int len) {
        long h = (word0 ^ len * 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
        return (int) (h >>> 32) ^ (int) h;
    }

    private boolean object(boolean top) {
        if (++depth > maxDepth) {
            return false;
        }
        pos++;
        int frame = keyTop;
        long seen = 0;
        int after = startSlot(depth);
        if (pos < limit && buf[pos] <= ' ') {
            skipWhitespace();
        }
        if (pos < limit && buf[pos] == '}') {
            pos++;
            depth--;
            return true;
        }
        while (true) {
            if (pos < limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (pos >= limit || buf[pos] != '"') {
                return false;
            }
            int keyStart = pos + 1;
            int d = follow[after];
            if (d >= 0 && isKeyAt(d, keyStart)) {
                pos = keyStart + keyLength[d] + 1;
            } else {
                int keyEnd = ByteWords.stringStop(buf, keyStart, limit, strict);
                if (keyEnd >= limit || buf[keyEnd] != '"') {
                    return false;
                }
                pos = keyEnd + 1;
                d = predictedKey(after, keyStart, keyEnd);
            }
            after = d >= 0 ? d : startSlot(depth);
            if (d >= 0 && d < MASKED_KEYS) {
                long bit = 1L << d;
                if ((seen & bit) != 0) {
                    return false;
                }
                seen |= bit;
            } else if (!unique(frame, keyStart, pos - 1)) {
                return false;
            }
            int index = top && d >= 0 && d < recorded ? d : -1;
            if (pos < limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (pos >= limit || buf[pos] != ':') {
                return false;
            }
            pos++;
            if (pos < limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (!readValue(index)) {
                return false;
            }
            if (pos < limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (pos >= limit) {
                return false;
            }
            byte c = buf[pos++];
            if (c == '}') {
                keyTop = frame;
                depth--;
                return true;
            }
            if (c != ',') {
                return false;
            }
        }
    }

    /** Records an unrecorded key of the current object; {@code false} when it repeats one. */
    private boolean unique(int frame, int from, int to) {
        int len = to - from;
        for (int i = frame; i < keyTop; i += 2) {
            if (keyStack[i + 1] - keyStack[i] == len && sameSpan(keyStack[i], from, len)) {
                return false;
            }
        }
        if (keyTop - frame >= 2 * MAX_KEYS) {
            return false;
        }
        if (keyTop + 2 > keyStack.length) {
            keyStack = Arrays.copyOf(keyStack, keyStack.length * 2);
        }
        keyStack[keyTop++] = from;
        keyStack[keyTop++] = to;
        return true;
    }

    private int startSlot(int depth) {
        return keys.length + Math.min(depth, START_SLOTS - 1);
    }

    /**
     * The dictionary index of the key {@code buf[from, to)}, or -1: first the key that followed
     * {@code after} last time ({@link #follow}), then {@link #lookup}, which teaches {@link #follow}.
     */
    private int predictedKey(int after, int from, int to) {
        int p = follow[after];
        if (p >= 0 && isKey(p, from, to)) {
            return p;
        }
        int q = followBefore[after];
        if (q >= 0 && isKey(q, from, to)) {
            followBefore[after] = p;
            follow[after] = q;
            return q;
        }
        int d = lookup(from, to);
        if (d >= 0) {
            followBefore[after] = p;
            follow[after] = d;
        }
        return d;
    }

    /**
     * Whether the string text at {@code buf[from]} is dictionary key {@code i} followed by its closing
     * quote: what {@link ByteWords#stringStop} and {@link #isKey} find, since a dictionary key holds
     * no byte that stops a string ({@link #plain}); a key that does is never matched here.
     */
    private boolean isKeyAt(int i, int from) {
        int len = keyLength[i];
        int close = from + len;
        if (len < 0 || close >= limit || buf[close] != '"') {
            return false;
        }
        if (close <= buf.length - 8) {
            if ((((long) LONGS.get(buf, from) ^ word0[i]) & mask0[i]) != 0) {
                return false;
            }
            if (len > 8 && (((long) LONGS.get(buf, from + 8) ^ word1[i]) & mask1[i]) != 0) {
                return false;
            }
        } else if (ByteWords.word(buf, from, Math.min(len, 8)) != word0[i]
                || len > 8 && ByteWords.word(buf, from + 8, Math.min(len - 8, 8)) != word1[i]) {
            return false;
        }
        return len <= 16 || Arrays.equals(buf, from + 16, close, keys[i], 16, len);
    }

    /** Whether {@code buf[from, to)} is dictionary key {@code i}. */
    private boolean isKey(int i, int from, int to) {
        byte[] k = keys[i];
        int len = to - from;
        if (k.length != len) {
            return false;
        }
        for (int j = 0; j < len; j++) {
            if (buf[from + j] != k[j]) {
                return false;
            }
        }
        return true;
    }

    /** The dictionary index of the key {@code buf[from, to)}, or -1. */
    private int lookup(int from, int to) {
        int len = to - from;
        long w0 = ByteWords.word(buf, from, Math.min(len, 8));
        long w1 = ByteWords.word(buf, from + 8, Math.min(len - 8, 8));
        int slot = hash(w0, len) & mask;
        while (true) {
            int i = table[slot];
            if (i < 0) {
                return -1;
            }
            if (word0[i] == w0 && word1[i] == w1 && keys[i].length == len
                    && (len <= 16 || Arrays.equals(buf, from + 16, to, keys[i], 16, len))) {
                return i;
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean sameSpan(int a, int b, int len) {
        for (int i = 0; i < len; i++) {
            if (buf[a + i] != buf[b + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where the next element of an array in text {@link #scan} accepted starts, at or after
     * {@code pos}: past the commas and white space between elements; {@code end} (the array's
     * closing bracket) when no element is left.
     */
    public static int nextElement(byte[] b, int pos, int end) {
        int p = pos;
        while (p < end) {
            byte c = b[p];
            if (c != ',' && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return p;
            }
            p++;
        }
        return p;
    }

    /**
     * The end of the value that starts at {@code pos} in text {@link #scan} accepted (so no check
     * is repeated): after its closing quote or bracket, or at the first byte that ends a number or word.
     */
    public static int valueEnd(byte[] b, int pos, int limit) {
        int depth = 0;
        int p = pos;
        while (p < limit) {
            byte c = b[p];
            if (c == '"') {
                p = ByteWords.stringStop(b, p + 1, limit, false);
                while (b[p] != '"') {
                    p = ByteWords.stringStop(b, b[p] == '\\' ? p + 2 : p + 1, limit, false);
                }
                p++;
                if (depth == 0) {
                    return p;
                }
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    return p;
                }
                if (--depth == 0) {
                    return p + 1;
                }
            } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
                return p;
            }
            p++;
        }
        return p;
    }

    private boolean readValue(int index) {
        if (pos >= limit) {
            return false;
        }
        int from = pos;
        byte c = buf[pos];
        byte k;
        long n = 0;
        boolean esc = false;
        switch (c) {
            case '"': {
                int before = pos;
                if (!skipString()) {
                    return false;
                }
                esc = lastEscaped;
                from = before + 1;
                k = STRING;
                if (index >= 0) {
                    record(index, k, from, pos - 1, 0, esc);
                }
                return true;
            }
            case '{':
                if (!object(false)) {
                    return false;
                }
                k = OBJECT;
                break;
            case '[':
                if (!array()) {
                    return false;
                }
                k = ARRAY;
                break;
            case 't':
                if (!word(TRUE_BYTES)) {
                    return false;
                }
                k = TRUE;
                break;
            case 'f':
                if (!word(FALSE_BYTES)) {
                    return false;
                }
                k = FALSE;
                break;
            case 'n':
                if (!word(NULL_BYTES)) {
                    return false;
                }
                k = NULL;
                break;
            default: {
                boolean negative = c == '-';
                if (negative) {
                    pos++;
                }
                int digitsFrom = pos;
                if (pos < limit && buf[pos] == '0') {
                    pos++;
                } else {
                    while (pos < limit && buf[pos] >= '0' && buf[pos] <= '9') {
                        n = n * 10 + (buf[pos] - '0');
                        pos++;
                    }
                }
                int digits = pos - digitsFrom;
                if (digits == 0) {
                    return false;
                }
                boolean integral = true;
                if (pos < limit && buf[pos] == '.') {
                    integral = false;
                    pos++;
                    if (!digits()) {
                        return false;
                    }
                }
                if (pos < limit && (buf[pos] == 'e' || buf[pos] == 'E')) {
                    integral = false;
                    pos++;
                    if (pos < limit && (buf[pos] == '+' || buf[pos] == '-')) {
                        pos++;
                    }
                    if (!digits()) {
                        return false;
                    }
                }
                if (integral && digits <= 18) {
                    k = INTEGER;
                    n = negative ? -n : n;
                } else {
                    // The parser refuses a number beyond double's range; this is rare enough to parse here.
                    String literal = new String(buf, from, pos - from, StandardCharsets.US_ASCII);
                    if (!(integral && literal.length() <= 20 && fitsLong(literal))
                            && Double.isInfinite(Double.parseDouble(literal))) {
                        return false;
                    }
                    k = NUMBER;
                }
                break;
            }
        }
        if (index >= 0) {
            record(index, k, from, pos, n, esc);
        }
        return true;
    }

    private static boolean fitsLong(String literal) {
        try {
            Long.parseLong(literal);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private boolean digits() {
        int from = pos;
        while (pos < limit && buf[pos] >= '0' && buf[pos] <= '9') {
            pos++;
        }
        return pos > from;
    }

    private void record(int index, byte k, int from, int to, long n, boolean esc) {
        kind[index] = k;
        start[index] = from;
        end[index] = to;
        integer[index] = n;
        escaped[index] = esc;
        touched[touchedCount++] = index;
    }

    private boolean array() {
        if (++depth > maxDepth) {
            return false;
        }
        pos++;
        if (pos < limit && buf[pos] <= ' ') {
            skipWhitespace();
        }
        if (pos < limit && buf[pos] == ']') {
            pos++;
            depth--;
            return true;
        }
        while (true) {
            if (pos < limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (!readValue(-1)) {
                return false;
            }
            if (pos < limit && buf[pos] <= ' ') {
                skipWhitespace();
            }
            if (pos >= limit) {
                return false;
            }
            byte c = buf[pos++];
            if (c == ']') {
                depth--;
                return true;
            }
            if (c != ',') {
                return false;
            }
        }
    }

    private static final byte[] TRUE_BYTES = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE_BYTES = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL_BYTES = {'n', 'u', 'l', 'l'};

    private boolean word(byte[] w) {
        int n = w.length;
        if (limit - pos < n) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            if (buf[pos + i] != w[i]) {
                return false;
            }
        }
        pos += n;
        return true;
    }

    private boolean lastEscaped;

    /**
     * Moves past the string at {@code pos} (its opening quote); {@code false} when it is outside the
     * subset or invalid. Sets {@link #lastEscaped}.
     */
    private boolean skipString() {
        int p = pos + 1;
        boolean esc = false;
        byte[] b = buf;
        int lim = limit;
        while (true) {
            p = ByteWords.stringStop(b, p, lim, strict);
            if (p >= lim) {
                return false;
            }
            byte c = b[p];
            if (c == '"') {
                pos = p + 1;
                lastEscaped = esc;
                return true;
            }
            if (c != '\\' || p + 1 >= lim) {
                return false;
            }
            esc = true;
            byte e = b[p + 1];
            if (e == 'u') {
                if (strict || p + 6 > lim || !hex(b[p + 2]) || !hex(b[p + 3]) || !hex(b[p + 4]) || !hex(b[p + 5])) {
                    return false;
                }
                p += 6;
                continue;
            }
            if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
                return false;
            }
            p += 2;
        }
    }

    /** Whether the {@link #STRING} value starts with {@code ascii}. */
    public boolean stringStartsWith(int key, byte[] ascii) {
        if (kind[key] != STRING) {
            return false;
        }
        if (escaped[key]) {
            return string(key).startsWith(new String(ascii, StandardCharsets.ISO_8859_1));
        }
        return end[key] - start[key] >= ascii.length
                && Arrays.equals(buf, start[key], start[key] + ascii.length, ascii, 0, ascii.length);
    }

    private static boolean hex(byte c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private void skipWhitespace() {
        while (pos < limit) {
            byte c = buf[pos];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' && !oneLine) {
                pos++;
            } else {
                return;
            }
        }
    }
}
