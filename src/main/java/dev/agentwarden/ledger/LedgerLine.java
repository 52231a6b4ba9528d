package dev.agentwarden.ledger;

import dev.agentwarden.json.FieldScanner;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.digest.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ledger line format, version 1: one compact JSON object per line,
 * {@code {"v":1,"event":…,"ts":…,…,"prev":"<hex>"}}, where {@code prev} is the SHA-256 of the
 * previous chain line's exact bytes (without its newline) and the first line of the ledger carries
 * {@link #GENESIS}. A chain line is any physical line that reads as a JSON object; any other line
 * (a write torn by a crash) is skipped by readers and by the chain.
 *
 * <p>The codec of the line schema: writers name fields by {@link Key} and events by {@link Event}
 * ({@link Builder}), and bulk readers read the same keys from a line's bytes in place
 * ({@link View}), with the same result as parsing the line.
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

    /** The events a ledger line records, by their wire name in {@code event}. */
    public enum Event {
        SUBAGENT_START("subagent_start"),
        SUBAGENT_STOP("subagent_stop"),
        SUBAGENT_REAPED("subagent_reaped"),
        SPAWN_GUARD_SHADOW("spawn_guard_shadow"),
        SPAWN_GUARD("spawn_guard"),
        LEDGER_GAP("ledger_gap");

        private final String wire;
        private final byte[] bytes;

        Event(String wire) {
            this.wire = wire;
            this.bytes = wire.getBytes(StandardCharsets.US_ASCII);
        }

        public String wire() {
            return wire;
        }
    }

    /** The fields of ledger lines, by their wire name. */
    public enum Key {
        V("v"), EVENT("event"), TS("ts"), PREV("prev"),
        REF("ref"), SESSION_ID("session_id"), AGENT_TYPE("agent_type"), PARENT_REF("parent_ref"),
        DEPTH("depth"), DEPTH_BASIS("depth_basis"), CONCURRENT_OPEN("concurrent_open"), SESSION_OPEN("session_open"),
        DUPLICATE_START("duplicate_start"), SPOOLED("spooled"), UNIDENTIFIED("unidentified"), REASON("reason"),
        DURATION_MS("duration_ms"), STOP_LOSS_ARMS_EXCEEDED("stop_loss_arms_exceeded"), START_SEEN("start_seen"),
        ENVELOPE_PARSE("envelope_parse"), ENVELOPE_PROBLEM("envelope_problem"), BASIS("basis"),
        AGE_MS("age_ms"), TTL_MS("ttl_ms"),
        DETAIL("detail"), EXPECTED_SEGMENT("expected_segment"), EXPECTED_LINES("expected_lines"),
        EXPECTED_HASH("expected_hash"),
        TOOL("tool"), POSTURE("posture"), CONCURRENT_SCOPE("concurrent_scope"), WORKSPACE_OPEN("workspace_open"),
        CALLER_REF("caller_ref"), SPAWN_DEPTH("spawn_depth"), DEPTH_ESTIMATE("depth_estimate"),
        DEPTH_ESTIMATE_BASIS("depth_estimate_basis"), DEPTH_USABLE_FOR_DERIVATION("depth_usable_for_derivation"),
        LEDGER_PRESENT("ledger_present"), STALE_OPEN_EXCLUDED("stale_open_excluded"),
        INVALID_OPEN_EXCLUDED("invalid_open_excluded"), CANDIDATES("candidates"), ENFORCED("enforced"),
        ACTED("acted"),
        /** Keys of one candidate's verdict inside {@link #CANDIDATES}. */
        LABEL("label"), MAX_DEPTH("max_depth"), MAX_CONCURRENT("max_concurrent"), WOULD_DENY("would_deny"), ON("on");

        private static final Key[] ALL = values();
        private final String wire;

        Key(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** The fields of one line to append, in order, named by {@link Key}. */
    public static final class Builder {
        private final Map<String, Object> fields = new LinkedHashMap<>();

        private Builder(Event event) {
            fields.put(Key.EVENT.wire, event.wire);
        }

        public Builder put(Key key, Object value) {
            fields.put(key.wire, value);
            return this;
        }

        /** The fields, for {@link LedgerStore.Transaction#append}. */
        public Map<String, Object> fields() {
            return fields;
        }
    }

    /** A line of {@code event} to fill in. */
    public static Builder of(Event event) {
        return new Builder(event);
    }

    /**
     * One line read in place: which keys it holds and their values, read from its bytes without
     * building a map when the line is in the form Warden writes (any other line is parsed, with the
     * same result). Reused line after line; valid until the next {@link #read}.
     */
    public static final class View {
        private static final String[] WIRE = new String[Key.ALL.length];

        static {
            for (Key k : Key.ALL) {
                WIRE[k.ordinal()] = k.wire;
            }
        }

        /** Keys whose values repeat from line to line (types, sessions, labels): read through a cache. */
        private static final boolean[] REPEATS = new boolean[Key.ALL.length];

        static {
            for (Key k : new Key[] {Key.EVENT, Key.SESSION_ID, Key.AGENT_TYPE, Key.DEPTH_BASIS, Key.REASON,
                    Key.ENVELOPE_PARSE, Key.ENVELOPE_PROBLEM, Key.BASIS, Key.TOOL, Key.POSTURE, Key.CONCURRENT_SCOPE,
                    Key.DEPTH_ESTIMATE_BASIS, Key.LABEL, Key.ON}) {
                REPEATS[k.ordinal()] = true;
            }
        }

        private static final byte[] SUBAGENT_PREFIX = "subagent_".getBytes(StandardCharsets.US_ASCII);
        private final FieldScanner scanner = new FieldScanner(WIRE, LIMITS.maxDepth(), true);
        private Map<String, Object> parsed;
        private List<View> elements;
        private List<View> elementViews;

        /** Reads {@code bytes[from, to)}; {@code false} when it is not a JSON object (a torn line). */
        public boolean read(byte[] bytes, int from, int to) {
            if (scanner.scan(bytes, from, to)) {
                parsed = null;
                return true;
            }
            byte[] copy = from == 0 && to == bytes.length ? bytes : java.util.Arrays.copyOfRange(bytes, from, to);
            parsed = parse(copy);
            return parsed != null;
        }

        /**
         * Reads the line that starts at {@code bytes[from]} in place, finding its end as it reads
         * ({@link FieldScanner#scanLine}): the index of the {@code '\n'} that ends it, the view then
         * holding it as {@link #read} of {@code bytes[from, nl)} would; or -1, the view holding
         * nothing, when the line must be found and {@link #read} the usual way (no newline before
         * {@code limit}, or a line the scanner leaves to the parser).
         */
        int readLine(byte[] bytes, int from, int limit) {
            parsed = null;
            return scanner.scanLine(bytes, from, limit);
        }

        /**
         * Reads the object at {@code bytes[from]}, an element of an array of a line this view's
         * scanner accepted, ending before {@code limit}; returns the index after it.
         */
        private int readObject(byte[] bytes, int from, int limit) {
            parsed = null;
            return scanner.readAccepted(bytes, from, limit);
        }

        /** Reads a parsed object (a candidate inside a line). */
        void read(Map<String, Object> fields) {
            parsed = fields;
        }

        /** The value of {@code key} as a parse of the line would give it. */
        public Object value(Key key) {
            return parsed != null ? parsed.get(key.wire) : scanner.value(key.ordinal());
        }

        /** Whether the line holds {@code key} (with any value, {@code null} included). */
        public boolean has(Key key) {
            return parsed != null ? parsed.containsKey(key.wire) : scanner.kind(key.ordinal()) != FieldScanner.ABSENT;
        }

        /** A string field, or {@code null}. */
        public String string(Key key) {
            if (parsed != null) {
                return parsed.get(key.wire) instanceof String s ? s : null;
            }
            return REPEATS[key.ordinal()] ? scanner.sharedString(key.ordinal()) : scanner.string(key.ordinal());
        }

        /** An integer field, or {@code null}. */
        public Long integer(Key key) {
            if (parsed == null) {
                int k = key.ordinal();
                if (scanner.kind(k) == FieldScanner.INTEGER) {
                    return scanner.integer(k);
                }
                if (scanner.kind(k) != FieldScanner.NUMBER) {
                    return null;
                }
            }
            return value(key) instanceof Long n ? n : null;
        }

        /** Whether {@link #integer} gives a value for {@code key}; read it unboxed with {@link #integerValue}. */
        public boolean isInteger(Key key) {
            return parsed == null && scanner.kind(key.ordinal()) == FieldScanner.INTEGER || integer(key) != null;
        }

        /** The value of an integer field ({@link #isInteger}), unboxed. */
        public long integerValue(Key key) {
            if (parsed == null && scanner.kind(key.ordinal()) == FieldScanner.INTEGER) {
                return scanner.integer(key.ordinal());
            }
            return integer(key);
        }

        /**
         * {@code UtcTime.parse(String.valueOf(string(key)))}: a string field in the form Warden writes
         * is read in place, without a string; any other value is parsed as that text.
         *
         * @throws java.time.format.DateTimeParseException as {@link UtcTime#parse} does
         */
        public java.time.Instant instant(Key key) {
            int k = key.ordinal();
            if (parsed == null && scanner.kind(k) == FieldScanner.STRING && !scanner.escaped(k)) {
                java.time.Instant t = UtcTime.parseWritten(scanner.bytes(), scanner.start(k), scanner.end(k));
                if (t != null) {
                    return t;
                }
            }
            return UtcTime.parse(String.valueOf(string(key)));
        }

        /** Whether the field is JSON {@code true}. */
        public boolean isTrue(Key key) {
            return parsed != null ? Boolean.TRUE.equals(parsed.get(key.wire)) : scanner.kind(key.ordinal()) == FieldScanner.TRUE;
        }

        /** Whether the field is JSON {@code false}. */
        public boolean isFalse(Key key) {
            return parsed != null ? Boolean.FALSE.equals(parsed.get(key.wire)) : scanner.kind(key.ordinal()) == FieldScanner.FALSE;
        }

        /** Whether {@code event} is this one. */
        public boolean is(Event event) {
            if (parsed != null) {
                return event.wire.equals(parsed.get(Key.EVENT.wire));
            }
            return scanner.stringIs(Key.EVENT.ordinal(), event.bytes);
        }

        /** Whether {@code event} starts with {@code subagent_}. */
        public boolean isSubagentEvent() {
            if (parsed != null) {
                return parsed.get(Key.EVENT.wire) instanceof String s && s.startsWith("subagent_");
            }
            return scanner.stringStartsWith(Key.EVENT.ordinal(), SUBAGENT_PREFIX);
        }

        /** Whether {@code prev} is the hex text {@code hex} (64 ASCII bytes). */
        public boolean prevIs(byte[] hex) {
            if (parsed != null) {
                return parsed.get(Key.PREV.wire) instanceof String s
                        && s.equals(new String(hex, StandardCharsets.ISO_8859_1));
            }
            return scanner.stringIs(Key.PREV.ordinal(), hex);
        }

        /** The strings of an array field, others skipped; empty when it is not an array. */
        public List<String> strings(Key key) {
            if (parsed == null && scanner.kind(key.ordinal()) == FieldScanner.ARRAY
                    && scanner.end(key.ordinal()) - scanner.start(key.ordinal()) == 2) {
                return List.of();
            }
            List<String> out = new ArrayList<>();
            if (parsed == null && scanner.kind(key.ordinal()) == FieldScanner.ARRAY && plainStrings(key.ordinal(), out)) {
                return out;
            }
            out.clear();
            if (value(key) instanceof List<?> list) {
                for (Object o : list) {
                    if (o instanceof String s) {
                        out.add(s);
                    }
                }
            }
            return out;
        }

        /**
         * Adds the strings of the scanned array {@code k} to {@code out}, other elements skipped;
         * {@code false} when one has an escape (then the array is parsed). The scanner accepted the
         * line, so the array is valid JSON and its strings ASCII.
         */
        private boolean plainStrings(int k, List<String> out) {
            byte[] b = scanner.bytes();
            int end = scanner.end(k) - 1;
            int p = scanner.start(k) + 1;
            while ((p = FieldScanner.nextElement(b, p, end)) < end) {
                byte c = b[p];
                int to = FieldScanner.valueEnd(b, p, end);
                if (c == '"') {
                    for (int i = p + 1; i < to - 1; i++) {
                        if (b[i] == '\\') {
                            return false;
                        }
                    }
                    out.add(new String(b, p + 1, to - p - 2, StandardCharsets.ISO_8859_1));
                }
                p = to;
            }
            return true;
        }

        /**
         * Each object of an array field (other elements skipped), read as a view valid until the next
         * call; empty when it is not an array.
         */
        public List<View> objects(Key key) {
            if (elements == null) {
                elements = new ArrayList<>();
                elementViews = new ArrayList<>();
            }
            elements.clear();
            if (parsed != null) {
                if (parsed.get(key.wire) instanceof List<?> list) {
                    for (Object o : list) {
                        if (o instanceof Map<?, ?> m) {
                            @SuppressWarnings("unchecked")
                            Map<String, Object> fields = (Map<String, Object>) m;
                            element(elements.size()).read(fields);
                        }
                    }
                }
                return elements;
            }
            int k = key.ordinal();
            if (scanner.kind(k) != FieldScanner.ARRAY) {
                return elements;
            }
            byte[] b = scanner.bytes();
            int end = scanner.end(k) - 1;
            int p = scanner.start(k) + 1;
            while ((p = FieldScanner.nextElement(b, p, end)) < end) {
                byte c = b[p];
                p = c == '{' ? element(elements.size()).readObject(b, p, end) : FieldScanner.valueEnd(b, p, end);
            }
            return elements;
        }

        private View element(int i) {
            while (elementViews.size() <= i) {
                elementViews.add(new View());
            }
            View v = elementViews.get(i);
            elements.add(v);
            return v;
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

    /**
     * Lowercase hex SHA-256 of line after line, for bulk reads: {@code MessageDigest} (the JDK's
     * intrinsic), into one reused buffer. Not for the dispatch path, where the provider start-up
     * costs more than the hash ({@link #hash}).
     */
    static final class Hasher {
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        private final java.security.MessageDigest digest;
        private final byte[] raw = new byte[32];
        private final byte[] hex = new byte[64];

        Hasher() {
            try {
                digest = java.security.MessageDigest.getInstance("SHA-256");
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("this JVM has no SHA-256", e);
            }
        }

        /** The hex hash of {@code bytes[from, to)}, in a buffer this call reuses next time. */
        byte[] hex(byte[] bytes, int from, int to) {
            digest.update(bytes, from, to - from);
            try {
                digest.digest(raw, 0, raw.length);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < 32; i++) {
                hex[2 * i] = HEX[(raw[i] >> 4) & 0xf];
                hex[2 * i + 1] = HEX[raw[i] & 0xf];
            }
            return hex;
        }
    }

    /** Lowercase hex SHA-256 of a line's bytes (plain Java: no security-provider start-up on dispatch). */
    public static String hash(byte[] bytes) {
        return Sha256.hex(bytes);
    }
}
