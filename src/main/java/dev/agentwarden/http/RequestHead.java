package dev.agentwarden.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.x request line and its headers, split by hand (no regular expression) under a caller's
 * {@link Limits}. Lines end at {@code \n}, one {@code \r} before it dropped; the head ends at the
 * first empty line. Header names are lower-cased; a repeated header keeps its first value, except
 * those that let two readers of one request disagree on where its body ends, which are refused:
 * a second {@code Content-Length} or {@code Transfer-Encoding}, both of them together, a folded
 * line (obs-fold), whitespace before a header's colon, and control bytes in a line.
 *
 * <p>Non-blocking callers find the head's end with {@link #end} and parse it with {@link #parse};
 * blocking callers {@link #read} it off a socket by a deadline.
 */
public final class RequestHead {
    /** The caps a caller reads heads under. */
    public static final class Limits {
        final int maxBytes;
        final int maxHeaders;
        final int maxLineBytes;

        /**
         * @param maxBytes     the whole head, up to and including its blank line
         * @param maxHeaders   header lines
         * @param maxLineBytes one line, without its line end
         */
        public Limits(int maxBytes, int maxHeaders, int maxLineBytes) {
            if (maxBytes < 16 || maxHeaders < 1 || maxLineBytes < 16) {
                throw new IllegalArgumentException("head limits " + maxBytes + "/" + maxHeaders + "/" + maxLineBytes
                        + " are too small for any request");
            }
            this.maxBytes = maxBytes;
            this.maxHeaders = maxHeaders;
            this.maxLineBytes = maxLineBytes;
        }

        public int maxBytes() {
            return maxBytes;
        }
    }

    /** Why a head was refused, with the status that fits (0: the client left, answer nothing). */
    public enum Problem {
        CLOSED(0),
        TIMEOUT(408),
        TOO_LARGE(431),
        LINE_TOO_LONG(431),
        TOO_MANY_HEADERS(431),
        BAD_REQUEST_LINE(400),
        BAD_HEADER(400),
        OBS_FOLD(400),
        DUPLICATE_CONTENT_LENGTH(400),
        DUPLICATE_TRANSFER_ENCODING(400),
        LENGTH_WITH_TRANSFER_ENCODING(400);

        public final int status;

        Problem(int status) {
            this.status = status;
        }
    }

    /** A head that cannot be read; the caller maps {@link #problem} to its answer. */
    public static final class Malformed extends Exception {
        public final Problem problem;

        public Malformed(Problem problem, String message) {
            super(message, null, false, false);
            this.problem = problem;
        }
    }

    /** Looks at the request line as soon as it has arrived, before the rest of the head is read. */
    public interface RequestLineCheck {
        /** Throws to refuse the request on its request line alone. */
        void check(String method, String target) throws IOException;
    }

    private static final byte[] NONE = new byte[0];

    private final String method;
    private final String target;
    private final String version;
    private final Map<String, String> headers;
    private byte[] rest = NONE;

    private RequestHead(String method, String target, String version, Map<String, String> headers) {
        this.method = method;
        this.target = target;
        this.version = version;
        this.headers = headers;
    }

    public String method() {
        return method;
    }

    /** The request target as sent, query included. */
    public String target() {
        return target;
    }

    /** {@code HTTP/1.0}, {@code HTTP/1.1}, ... */
    public String version() {
        return version;
    }

    /** Whether the target is a path ({@code /...}), not {@code *} or an absolute URI. */
    public boolean originForm() {
        return target.charAt(0) == '/';
    }

    /** The target without its query. */
    public String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The target's query (after {@code ?}), or {@code null}. */
    public String query() {
        int q = target.indexOf('?');
        return q < 0 ? null : target.substring(q + 1);
    }

    /** The value of query parameter {@code name} (not URL-decoded), or {@code null}. */
    public String query(String name) {
        String query = query();
        if (query == null) {
            return null;
        }
        for (int from = 0; from <= query.length(); ) {
            int amp = query.indexOf('&', from);
            int to = amp < 0 ? query.length() : amp;
            int eq = query.indexOf('=', from);
            if (eq > from && eq < to && query.regionMatches(from, name, 0, name.length()) && eq - from == name.length()) {
                return query.substring(eq + 1, to);
            }
            from = to + 1;
        }
        return null;
    }

    /** The first value of header {@code name} (lower case), or {@code null}. */
    public String header(String name) {
        return headers.get(name);
    }

    /** Every header by lower-case name, first value, in the order sent; read-only. */
    public Map<String, String> headers() {
        return Collections.unmodifiableMap(headers);
    }

    /** The headers' own map, for a caller in this codec's place that keeps it (read-only by convention). */
    public Map<String, String> headerMap() {
        return headers;
    }

    /** The declared body length: 0 without {@code Content-Length}, -1 when it is not 1 to 18 decimal digits. */
    public long contentLength() {
        return digits(headers.get("content-length"), 18, 0);
    }

    /** Bytes {@link #read} took off the stream after the head (the start of the body), possibly none. */
    public byte[] rest() {
        return rest;
    }

    /**
     * {@code s} as a number of 1 to {@code max} decimal digits that fits a {@code long}; {@code absent} when
     * {@code s} is {@code null}; -1 otherwise.
     */
    public static long digits(String s, int max, long absent) {
        if (s == null) {
            return absent;
        }
        if (s.isEmpty() || s.length() > max) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
            if (v < 0) {
                return -1;
            }
        }
        return v;
    }

    /**
     * The offset just past the empty line that ends the head in {@code a[0..to)}, or -1 when it has
     * not arrived; the search starts at {@code from} (0, or 2 before where the last search ended).
     */
    public static int end(byte[] a, int from, int to) {
        for (int i = Math.max(0, from); i + 1 < to; i++) {
            if (a[i] == '\n') {
                if (a[i + 1] == '\n') {
                    return i + 2;
                }
                if (a[i + 1] == '\r' && i + 2 < to && a[i + 2] == '\n') {
                    return i + 3;
                }
            }
        }
        return -1;
    }

    /** The head in {@code a[0..end)}, {@code end} as {@link #end} found it. */
    public static RequestHead parse(byte[] a, int end, Limits limits) throws Malformed {
        if (end > limits.maxBytes) {
            throw new Malformed(Problem.TOO_LARGE, "the request head is over " + limits.maxBytes + " bytes");
        }
        int lineEnd = lineEnd(a, 0, end, limits);
        String[] line = requestLine(a, 0, lineEnd);
        Map<String, String> headers = new LinkedHashMap<>(16);
        int count = 0;
        for (int from = next(a, lineEnd, end); from < end; ) {
            int to = lineEnd(a, from, end, limits);
            if (to == from) {
                break;
            }
            if (++count > limits.maxHeaders) {
                throw new Malformed(Problem.TOO_MANY_HEADERS, "the request has over " + limits.maxHeaders + " header lines");
            }
            header(a, from, to, headers);
            from = next(a, to, end);
        }
        if (headers.containsKey("content-length") && headers.containsKey("transfer-encoding")) {
            throw new Malformed(Problem.LENGTH_WITH_TRANSFER_ENCODING,
                    "the request has both Content-Length and Transfer-Encoding");
        }
        return new RequestHead(line[0], line[1], line[2], headers);
    }

    /**
     * Reads a head of at most {@code limits.maxBytes} from {@code socket} by {@code deadlineNanos}
     * ({@link System#nanoTime}); bytes read past it are kept in {@link #rest}. {@code check}, when
     * not {@code null}, sees the request line as soon as it arrives.
     */
    public static RequestHead read(Socket socket, Limits limits, long deadlineNanos, RequestLineCheck check)
            throws IOException, Malformed {
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[Math.min(limits.maxBytes, 4096)];
        int n = 0;
        boolean lineSeen = check == null;
        while (true) {
            if (n == buf.length) {
                if (buf.length >= limits.maxBytes) {
                    throw new Malformed(Problem.TOO_LARGE, "the request head is over " + limits.maxBytes + " bytes");
                }
                buf = Arrays.copyOf(buf, Math.min(limits.maxBytes, buf.length * 2));
            }
            long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                throw new Malformed(Problem.TIMEOUT, "the request head did not arrive in time");
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMs));
            int r;
            try {
                r = in.read(buf, n, buf.length - n);
            } catch (SocketTimeoutException e) {
                throw new Malformed(Problem.TIMEOUT, "the request head did not arrive in time");
            }
            if (r < 0) {
                throw new Malformed(Problem.CLOSED, "the client closed the connection before the head ended");
            }
            int scan = Math.max(0, n - 2);
            n += r;
            if (!lineSeen) {
                for (int i = scan; i < n; i++) {
                    if (buf[i] == '\n') {
                        String[] line = requestLine(buf, 0, lineEnd(buf, 0, n, limits));
                        check.check(line[0], line[1]);
                        lineSeen = true;
                        break;
                    }
                }
            }
            int end = end(buf, scan, n);
            if (end >= 0) {
                RequestHead head = parse(buf, end, limits);
                if (end < n) {
                    head.rest = Arrays.copyOfRange(buf, end, n);
                }
                return head;
            }
        }
    }

    /** Where the line starting at {@code from} ends: before its {@code \n} and one {@code \r} ahead of it. */
    private static int lineEnd(byte[] a, int from, int end, Limits limits) throws Malformed {
        int to = from;
        while (to < end && a[to] != '\n') {
            to++;
        }
        if (to > from && a[to - 1] == '\r') {
            to--;
        }
        if (to - from > limits.maxLineBytes) {
            throw new Malformed(Problem.LINE_TOO_LONG, "a request head line is over " + limits.maxLineBytes + " bytes");
        }
        return to;
    }

    /** Where the line after the one ending at {@code lineEnd} starts. */
    private static int next(byte[] a, int lineEnd, int end) {
        int i = lineEnd;
        while (i < end && a[i] != '\n') {
            i++;
        }
        return i + 1;
    }

    /** Method, target and version: exactly {@code METHOD SP target SP HTTP/1.x}. */
    private static String[] requestLine(byte[] a, int from, int to) throws Malformed {
        int sp1 = -1;
        int sp2 = -1;
        boolean bad = false;
        for (int i = from; i < to; i++) {
            byte b = a[i];
            if (b == ' ') {
                if (sp1 < 0) {
                    sp1 = i;
                } else if (sp2 < 0) {
                    sp2 = i;
                } else {
                    bad = true;
                }
            } else if (b < 0x21 || b == 0x7f) {
                bad = true;
            }
        }
        if (bad || sp1 <= from || sp2 <= sp1 + 1 || to - sp2 < 8 || !startsWith(a, sp2 + 1, "HTTP/1.")) {
            throw new Malformed(Problem.BAD_REQUEST_LINE, "not an HTTP/1.x request line");
        }
        return new String[] {ascii(a, from, sp1), ascii(a, sp1 + 1, sp2), ascii(a, sp2 + 1, to)};
    }

    private static void header(byte[] a, int from, int to, Map<String, String> headers) throws Malformed {
        if (a[from] == ' ' || a[from] == '\t') {
            throw new Malformed(Problem.OBS_FOLD, "a folded header line (obs-fold)");
        }
        int colon = -1;
        for (int i = from; i < to; i++) {
            byte b = a[i];
            if (colon < 0) {
                if (b == ':') {
                    colon = i;
                } else if (!tokenByte(b)) {
                    throw new Malformed(Problem.BAD_HEADER, "a header name with a byte HTTP does not allow");
                }
            } else if ((b < 0x20 && b != '\t') || b == 0x7f) {
                throw new Malformed(Problem.BAD_HEADER, "a control byte in a header value");
            }
        }
        if (colon <= from) {
            throw new Malformed(Problem.BAD_HEADER, "a header line without a name");
        }
        int vFrom = colon + 1;
        int vTo = to;
        while (vFrom < vTo && (a[vFrom] == ' ' || a[vFrom] == '\t')) {
            vFrom++;
        }
        while (vTo > vFrom && (a[vTo - 1] == ' ' || a[vTo - 1] == '\t')) {
            vTo--;
        }
        String name = ascii(a, from, colon).toLowerCase(Locale.ROOT);
        if (headers.containsKey(name)) {
            if (name.equals("content-length")) {
                throw new Malformed(Problem.DUPLICATE_CONTENT_LENGTH, "Content-Length is sent twice");
            }
            if (name.equals("transfer-encoding")) {
                throw new Malformed(Problem.DUPLICATE_TRANSFER_ENCODING, "Transfer-Encoding is sent twice");
            }
            return;
        }
        headers.put(name, new String(a, vFrom, vTo - vFrom, StandardCharsets.ISO_8859_1));
    }

    /** A byte of an RFC 9110 token: visible ASCII but delimiters. */
    private static boolean tokenByte(byte b) {
        if (b <= 0x20 || b >= 0x7f) {
            return false;
        }
        switch (b) {
            case '"': case '(': case ')': case ',': case '/': case ':': case ';': case '<': case '=': case '>':
            case '?': case '@': case '[': case '\\': case ']': case '{': case '}':
                return false;
            default:
                return true;
        }
    }

    private static boolean startsWith(byte[] a, int at, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (a[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static String ascii(byte[] a, int from, int to) {
        return new String(a, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
