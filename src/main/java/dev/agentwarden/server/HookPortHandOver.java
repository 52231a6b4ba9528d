package dev.agentwarden.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a resident takes the HTTP hook port from another resident of the same directory (an older
 * jar's, after an upgrade): it asks each other resident whose endpoint is published there to let go
 * ({@code POST /hand-over} on that resident's launcher port, after checking its greeting's proof and
 * sending its token, as a launcher does); a resident too old to know the request (404) is stopped
 * instead (SIGTERM, only when the endpoint's PID is that resident: this user's, started when
 * recorded, running {@code resident start} for that key). Either way the old resident finishes the
 * events it is answering; the caller then binds the port.
 */
final class HookPortHandOver {
    /** Longest each network step (connect, greeting, answer) may take. */
    static final int STEP_MS = 2_000;
    private static final int MAX_ANSWER_BYTES = 4096;

    private HookPortHandOver() {
    }

    /**
     * Asks every other resident in {@code dir} (keys other than {@code ownKey}) to hand the hook
     * port over.
     *
     * @return one line per resident asked, saying what it did, for the resident's log
     */
    static List<String> ask(Path dir, String ownKey) {
        List<String> said = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.endpoint")) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String key = name.substring(0, name.length() - ".endpoint".length());
                if (key.equals(ownKey) || !key.matches("[0-9a-f]{16}")) {
                    continue;
                }
                Resident.Endpoint endpoint = Resident.read(file);
                if (endpoint != null) {
                    said.add("resident " + key + " (pid " + endpoint.pid() + "): " + askOne(endpoint, key));
                }
            }
        } catch (IOException e) {
            said.add("cannot list " + dir + ": " + e.getMessage());
        }
        return said;
    }

    private static String askOne(Resident.Endpoint endpoint, String key) {
        int status;
        try {
            status = post(endpoint);
        } catch (IOException e) {
            return "not asked (" + e.getMessage() + ")";
        }
        if (status == 200) {
            return "handed the hook port over";
        }
        if (status == 404) {
            Optional<ProcessHandle> process = Resident.process(endpoint, key);
            if (process.isPresent()) {
                process.get().destroy();
                return "knows no hand-over (an older Warden); asked it to stop (SIGTERM)";
            }
            return "knows no hand-over, and its PID is not that resident; left alone";
        }
        return "answered " + status + "; left alone";
    }

    /** The status of {@code POST /hand-over} on the resident's launcher port, once its greeting proved it. */
    private static int post(Resident.Endpoint endpoint) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", endpoint.port()), STEP_MS);
            socket.setSoTimeout(STEP_MS);
            InputStream in = socket.getInputStream();
            String greeting = line(in, 200);
            if (!greeting.equals(WardenServer.GREETING + endpoint.proof())) {
                throw new IOException("the server on port " + endpoint.port() + " did not prove it is that resident");
            }
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + WardenServer.HAND_OVER_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + endpoint.token() + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String statusLine = new String(in.readNBytes(MAX_ANSWER_BYTES), StandardCharsets.US_ASCII);
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new IOException("no HTTP answer");
            }
            try {
                return Integer.parseInt(statusLine.substring(9, 12));
            } catch (NumberFormatException e) {
                throw new IOException("no HTTP status");
            }
        }
    }

    /** One {@code \n}-ended line of at most {@code cap} bytes. */
    private static String line(InputStream in, int cap) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0 || b.size() >= cap) {
                throw new IOException("no greeting line");
            }
            b.write(c);
        }
        return b.toString(StandardCharsets.US_ASCII);
    }
}
