package dev.agentwarden.server;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the resident for a key is doing, asked the way a launcher talks to it: the endpoint file
 * is believed only when it and its directory are this user's alone ({@link OwnedPath}), the
 * process it names only when it is that resident ({@link Resident#process}), and the token is sent
 * only after the server greeted with the file's proof. Every step has a deadline.
 */
public final class ResidentStatus {
    /** Longest status answer read. */
    static final int MAX_ANSWER_BYTES = 16 * 1024;

    private ResidentStatus() {
    }

    /** How a query ended. */
    public enum State {
        /** No resident directory or endpoint file: none is running (the next hook starts one). */
        NOT_RUNNING,
        /** The endpoint file names a process that is not that resident (it stopped): harmless. */
        STALE,
        /** The directory or endpoint file is not this user's alone: nothing in it is believed. */
        UNSAFE,
        /** The resident process is alive but did not prove itself or answer in time. */
        UNANSWERED,
        RUNNING
    }

    /**
     * @param detail    why, for every state but {@link State#RUNNING}
     * @param startedAt epoch milliseconds, and {@code forwarded} the events it answered, when running
     * @param otlp      its live OpenTelemetry export's status when it runs one ({@code WardenServer}'s
     *                  {@code "otlp"}), else {@code null}
     */
    public record Answer(State state, Path endpointFile, long pid, long startedAt, long forwarded, String detail,
                         Map<String, Object> otlp) {
        public Answer(State state, Path endpointFile, long pid, long startedAt, long forwarded, String detail) {
            this(state, endpointFile, pid, startedAt, forwarded, detail, null);
        }
    }

    /** Asks the resident of {@code key} in {@code dir}, within {@code deadline} for each network step. */
    public static Answer query(Path dir, String key, Duration deadline) {
        Path file = Resident.endpointFile(dir, key);
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return new Answer(State.NOT_RUNNING, file, 0, 0, 0, "no resident directory " + dir);
        }
        String problem = OwnedPath.problem(dir);
        if (problem != null) {
            return new Answer(State.UNSAFE, file, 0, 0, 0, "resident directory " + dir + ": " + problem);
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return new Answer(State.NOT_RUNNING, file, 0, 0, 0, "no endpoint file " + file);
        }
        problem = OwnedPath.problem(file);
        if (problem != null) {
            return new Answer(State.UNSAFE, file, 0, 0, 0, "endpoint file: " + problem);
        }
        Resident.Endpoint endpoint = Resident.read(file);
        if (endpoint == null) {
            return new Answer(State.STALE, file, 0, 0, 0, file + " is not an endpoint line");
        }
        Optional<ProcessHandle> process = Resident.process(endpoint, key);
        if (process.isEmpty()) {
            return new Answer(State.STALE, file, endpoint.pid(), 0, 0, file + " names pid " + endpoint.pid()
                    + ", which is not this resident (it stopped)");
        }
        try {
            Map<String, Object> status = ask(endpoint, deadline);
            @SuppressWarnings("unchecked")
            Map<String, Object> otlp = status.get("otlp") instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
            return new Answer(State.RUNNING, file, endpoint.pid(), number(status.get("started_at")),
                    number(status.get("forwarded")), null, otlp);
        } catch (IOException e) {
            return new Answer(State.UNANSWERED, file, endpoint.pid(), 0, 0, e.getMessage());
        }
    }

    private static Map<String, Object> ask(Resident.Endpoint endpoint, Duration deadline) throws IOException {
        int timeout = (int) Math.max(1, Math.min(Integer.MAX_VALUE, deadline.toMillis()));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", endpoint.port()), timeout);
            socket.setSoTimeout(timeout);
            InputStream in = socket.getInputStream();
            String greeting = line(in, 200);
            if (!greeting.equals(WardenServer.GREETING + endpoint.proof())) {
                throw new IOException("the server on port " + endpoint.port() + " did not prove it is the resident;"
                        + " sent it nothing");
            }
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + WardenServer.STATUS_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + endpoint.token() + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] answer = in.readNBytes(MAX_ANSWER_BYTES);
            String text = new String(answer, StandardCharsets.UTF_8);
            if (!text.startsWith("HTTP/1.1 200 ")) {
                throw new IOException("the resident answered the status query with "
                        + text.lines().findFirst().orElse("nothing") + " (an older resident? `warden resident stop`)");
            }
            int body = text.indexOf("\r\n\r\n");
            try {
                return Json.parseObject(text.substring(body + 4));
            } catch (JsonException | IllegalArgumentException e) {
                throw new IOException("the resident's status answer is not JSON: " + e.getMessage());
            }
        } catch (SocketTimeoutException e) {
            throw new IOException("no answer within " + timeout + " ms");
        }
    }

    /** One {@code \n}-ended line of at most {@code cap} bytes. */
    private static String line(InputStream in, int cap) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0 || b.size() >= cap) {
                throw new IOException("the server on the resident's port sent no greeting line");
            }
            b.write(c);
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    private static long number(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }
}
