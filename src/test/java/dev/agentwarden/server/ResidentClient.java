package dev.agentwarden.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A client of the resident server's protocol, as {@code bin/warden} speaks it: read the greeting,
 * send the request, read the answer.
 */
final class ResidentClient {
    private ResidentClient() {
    }

    /** A status line, headers (looked up case-insensitively) and the body. */
    record Response(String statusLine, Map<String, String> headerMap, byte[] body) {
        int statusCode() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        Headers headers() {
            return name -> Optional.ofNullable(headerMap.get(name.toLowerCase(Locale.ROOT)));
        }
    }

    /** Header lookup shaped like {@code HttpHeaders.firstValue}. */
    @FunctionalInterface
    interface Headers {
        Optional<String> firstValue(String name);
    }

    /** One request on a fresh connection; {@code token} {@code null} sends no Authorization. */
    static Response send(int port, String method, String path, String token, byte[] body) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            InputStream in = socket.getInputStream();
            String greeting = line(in);
            if (!greeting.startsWith(WardenServer.GREETING)) {
                throw new IOException("no resident greeting: '" + greeting + "'");
            }
            OutputStream out = socket.getOutputStream();
            out.write(head(method, path, token, body.length));
            out.write(body);
            out.flush();
            return answer(in, out);
        }
    }

    static byte[] head(String method, String path, String token, int length) {
        return (method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                + "Content-Length: " + length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Reads the answer; a resident sends no interim response. */
    static Response answer(InputStream in, OutputStream out) throws IOException {
        return read(in);
    }

    static Response read(InputStream in) throws IOException {
        String status = line(in);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).strip().toLowerCase(Locale.ROOT), h.substring(colon + 1).strip());
        }
        if (status.startsWith("HTTP/1.1 1")) {
            return new Response(status, headers, new byte[0]);
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        return new Response(status, headers, in.readNBytes(length));
    }

    static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the connection closed inside a line: '" + b.toString(StandardCharsets.US_ASCII) + "'");
            }
            b.write(c);
        }
        String s = b.toString(StandardCharsets.US_ASCII);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}
