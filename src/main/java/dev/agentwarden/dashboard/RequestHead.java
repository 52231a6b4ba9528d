package dev.agentwarden.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A request line and its headers, read from a socket under a byte cap and a deadline. Header names
 * are lower-cased; a repeated header keeps its first value. The dashboard serves {@code GET} only,
 * so nothing after the head is read.
 */
record RequestHead(String method, String target, Map<String, String> headers) {
    /** Why a head could not be read, with the status to answer (or 0 to close without one). */
    static final class Unreadable extends Exception {
        final int status;
        final String code;

        Unreadable(int status, String code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }
    }

    String header(String name) {
        return headers.get(name);
    }

    /** The path of the target, without its query. */
    String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    /** The value of query parameter {@code name} (not URL-decoded), or {@code null}. */
    String query(String name) {
        int q = target.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : target.substring(q + 1).split("&", 16)) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return pair.substring(eq + 1);
            }
        }
        return null;
    }

    /**
     * Reads a head of at most {@code maxBytes} from {@code socket} by {@code deadlineNanos}
     * ({@link System#nanoTime}); bytes after the blank line are left unread.
     */
    static RequestHead read(Socket socket, int maxBytes, long deadlineNanos) throws IOException, Unreadable {
        InputStream in = socket.getInputStream();
        byte[] buf = new byte[maxBytes];
        int n = 0;
        int end = -1;
        while (end < 0) {
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new Unreadable(408, "head_timeout", "the request head did not arrive in time");
            }
            if (n == buf.length) {
                throw new Unreadable(431, "head_too_large", "the request head is over " + maxBytes + " bytes");
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            int r;
            try {
                r = in.read(buf, n, buf.length - n);
            } catch (SocketTimeoutException e) {
                throw new Unreadable(408, "head_timeout", "the request head did not arrive in time");
            }
            if (r < 0) {
                throw new Unreadable(0, "closed", "the client closed the connection");
            }
            int from = Math.max(0, n - 3);
            n += r;
            for (int i = from; i + 3 < n; i++) {
                if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n') {
                    end = i;
                    break;
                }
            }
        }
        return parse(new String(buf, 0, end, StandardCharsets.ISO_8859_1));
    }

    static RequestHead parse(String head) throws Unreadable {
        String[] lines = head.split("\r\n", -1);
        String[] request = lines[0].split(" ", -1);
        if (request.length != 3 || !request[2].startsWith("HTTP/1.") || request[1].isEmpty() || request[1].charAt(0) != '/') {
            throw new Unreadable(400, "bad_request_line", "not an HTTP/1.x request line in origin form");
        }
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                throw new Unreadable(400, "bad_header", "a header line without a name");
            }
            headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        return new RequestHead(request[0], request[1], headers);
    }
}
