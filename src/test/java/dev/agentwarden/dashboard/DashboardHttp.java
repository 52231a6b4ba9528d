package dev.agentwarden.dashboard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A raw HTTP/1.1 client for the dashboard's tests: the request head is sent exactly as written
 * (any {@code Host}, {@code Origin} or {@code Cookie}), and every read has a deadline.
 */
final class DashboardHttp implements AutoCloseable {
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private final Socket socket;
    private final InputStream in;
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();

    private DashboardHttp(int port) throws IOException {
        socket = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port);
        in = socket.getInputStream();
    }

    /** Sends {@code head} (lines without their CRLF; the blank line is added) on a new connection. */
    static DashboardHttp send(int port, String... head) throws IOException {
        DashboardHttp h = new DashboardHttp(port);
        h.socket.getOutputStream().write((String.join("\r\n", head) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        h.socket.getOutputStream().flush();
        return h;
    }

    /** A connection that sends {@code bytes} (no blank line after) and then nothing: a head that never completes. */
    static DashboardHttp partial(int port, String bytes) throws IOException {
        DashboardHttp h = new DashboardHttp(port);
        h.socket.getOutputStream().write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        h.socket.getOutputStream().flush();
        return h;
    }

    /** A GET of {@code target} with this server's {@code Host} and the given further headers. */
    static DashboardHttp get(int port, String target, String... headers) throws IOException {
        String[] head = new String[headers.length + 2];
        head[0] = "GET " + target + " HTTP/1.1";
        head[1] = "Host: 127.0.0.1:" + port;
        System.arraycopy(headers, 0, head, 2, headers.length);
        return send(port, head);
    }

    /** A whole answer (the server closes every connection after it): status line, headers and body. */
    static String exchange(int port, String target, String... headers) throws IOException {
        try (DashboardHttp h = get(port, target, headers)) {
            return h.readToEnd();
        }
    }

    String readToEnd() throws IOException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        byte[] buf = new byte[8192];
        while (true) {
            int r = read(buf, deadline);
            if (r < 0) {
                return seen.toString(StandardCharsets.UTF_8);
            }
        }
    }

    /** Reads until what arrived so far contains {@code needle}, from {@code from} on; returns all that arrived. */
    String readUntil(String needle, int from) throws IOException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        byte[] buf = new byte[8192];
        while (seen.toString(StandardCharsets.UTF_8).indexOf(needle, from) < 0) {
            if (read(buf, deadline) < 0) {
                throw new AssertionError("connection closed before " + needle + " arrived; got: " + seen);
            }
        }
        return seen.toString(StandardCharsets.UTF_8);
    }

    private int read(byte[] buf, long deadline) throws IOException {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
            throw new AssertionError("no answer within " + DEADLINE.toSeconds() + " s; got: " + seen);
        }
        socket.setSoTimeout((int) left);
        try {
            int r = in.read(buf);
            if (r > 0) {
                seen.write(buf, 0, r);
            }
            return r;
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within " + DEADLINE.toSeconds() + " s; got: " + seen);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
