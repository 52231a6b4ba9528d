package dev.agentwarden.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchMain;
import dev.agentwarden.server.ForwardRequest.BadForward;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The resident transport ({@code warden serve}): an HTTP server on the loopback interface that
 * answers {@code POST /dispatch/<host>[/<NativeEvent>]} with exactly what {@code warden dispatch}
 * would print for the same payload.
 *
 * <p>A request becomes the argv {@code dispatch --host H [--native-event N] [--manifest F]
 * [--project-dir D]} and its body becomes stdin of {@link DispatchMain#respond}, so payload limits,
 * fail modes and output are those of the command. The answer is status 200, the host response's
 * stdout as body (none for no opinion), its exit code in {@code X-Warden-Exit} and its stderr note,
 * one line and capped, in {@code X-Warden-Note}. Requests without {@code Authorization: Bearer
 * <token>} get 401; other paths 404; other methods 405. The environment is the one the server was
 * started with: per-request variables (a session role) do not exist over HTTP.
 *
 * <p>{@code POST /forward} is {@code bin/warden dispatch} handing over its event ({@link
 * ForwardRequest}): the dispatch runs with the launcher's argv, environment and working directory,
 * and the answer is status 200 with {@code X-Warden-Exit}, {@code X-Warden-Stdout-Bytes} and a body
 * of exactly the bytes the one-shot process would write to stdout followed by those it would write
 * to stderr. A body that is not a forwarded event gets 400 and no dispatch runs.
 *
 * <p>Requests run on a fixed pool; when its queue is full the accepting thread runs the request
 * itself, which slows accepting instead of dropping work.
 */
public final class WardenServer implements AutoCloseable {
    /** Longest {@code X-Warden-Note} value, in characters. */
    static final int NOTE_CAP = 2000;
    static final int DEFAULT_THREADS = 4;
    private static final int QUEUE = 256;
    private static final String ENDPOINTS = "the endpoints are POST /dispatch/<host>/<NativeEvent> and POST /forward";
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private final HttpServer http;
    private final ThreadPoolExecutor pool;
    private final byte[] token;
    private final String projectDir;
    private final String manifest;
    private final Map<String, String> env;
    private final Clock clock;
    private final AtomicLong lastActivity;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong forwarded = new AtomicLong();

    private WardenServer(HttpServer http, ThreadPoolExecutor pool, String token, String projectDir, String manifest,
                         Map<String, String> env, Clock clock) {
        this.http = http;
        this.pool = pool;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.projectDir = projectDir;
        this.manifest = manifest;
        this.env = Map.copyOf(env);
        this.clock = clock;
        this.lastActivity = new AtomicLong(clock.millis());
    }

    /**
     * Binds 127.0.0.1 ({@code port} 0 picks a free one) and starts serving.
     *
     * @param projectDir passed as {@code --project-dir}, or {@code null}
     * @param manifest   passed as {@code --manifest}, or {@code null}
     * @param env        the dispatch environment of every request
     */
    public static WardenServer start(int port, String projectDir, String manifest, String token, int threads,
                                     Map<String, String> env, Clock clock) throws IOException {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("threads " + threads + " is outside 1..64");
        }
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "warden-serve-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        WardenServer server = new WardenServer(http, pool, token, projectDir, manifest, env, clock);
        http.createContext("/", server::handle);
        http.setExecutor(pool);
        http.start();
        return server;
    }

    public int port() {
        return http.getAddress().getPort();
    }

    public InetSocketAddress address() {
        return http.getAddress();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port() + "/");
    }

    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Waits up to {@code grace} for the requests being answered to finish, so that a dispatch that
     * has run is also answered, then stops. (Not {@code HttpServer.stop(delay)}: on JDK 17 it waits
     * the whole delay even when nothing is in progress.)
     */
    public void close(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        try {
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        http.stop(0);
        pool.shutdown();
    }

    /** Forwarded events answered so far. */
    public long forwardedCount() {
        return forwarded.get();
    }

    /** Milliseconds since the last authorized request ended, or 0 while one is being answered. */
    public long idleMillis() {
        return inFlight.get() > 0 ? 0 : Math.max(0, clock.millis() - lastActivity.get());
    }

    private void handle(HttpExchange exchange) {
        inFlight.incrementAndGet();
        boolean authorized = false;
        try (exchange) {
            Reply reply;
            try {
                reply = answer(exchange);
            } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                reply = Reply.of(e);
            }
            authorized = reply.status() != 401;
            send(exchange, reply);
        } catch (IOException | RuntimeException e) {
            // the client went away; nothing left to answer
        } finally {
            if (authorized) {
                lastActivity.set(clock.millis());
            }
            inFlight.decrementAndGet();
        }
    }

    private Reply answer(HttpExchange exchange) throws IOException {
        if (!authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
            throw new Refusal(401, "unauthorized", "send Authorization: Bearer <token from serve.json>");
        }
        String path = exchange.getRequestURI().getRawPath();
        boolean forward = "/forward".equals(path);
        List<String> route = forward ? List.of() : route(path);
        if (!"POST".equals(exchange.getRequestMethod())) {
            throw new Refusal(405, "method_not_allowed", exchange.getRequestMethod() + " is not allowed; use POST");
        }
        if (forward) {
            return forward(exchange);
        }
        List<String> argv = new ArrayList<>(List.of("dispatch", "--host", route.get(0)));
        if (route.size() == 2) {
            argv.add("--native-event");
            argv.add(route.get(1));
        }
        if (manifest != null) {
            argv.add("--manifest");
            argv.add(manifest);
        }
        if (projectDir != null) {
            argv.add("--project-dir");
            argv.add(projectDir);
        }
        HostResponse response;
        try (InputStream body = exchange.getRequestBody()) {
            response = DispatchMain.respond(argv.toArray(String[]::new), body, Caller.thisProcess(env), clock,
                    DecisionLog.SERVE);
        }
        byte[] body = response.stdout().getBytes(StandardCharsets.UTF_8);
        return new Reply(200, body, response.exitCode(), note(response.stderr()), -1);
    }

    /** Runs a forwarded event exactly as its launcher's JVM would have, capturing both streams. */
    private Reply forward(HttpExchange exchange) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (InputStream body = new BufferedInputStream(exchange.getRequestBody())) {
            ForwardRequest request;
            try {
                request = ForwardRequest.read(body);
            } catch (BadForward e) {
                throw new Refusal(400, "bad_forward", e.getMessage());
            }
            code = DispatchMain.run(request.argv().toArray(String[]::new), body,
                    new PrintStream(out, false, StandardCharsets.UTF_8), new PrintStream(err, false, StandardCharsets.UTF_8),
                    request.caller(), clock, DecisionLog.RESIDENT);
        }
        forwarded.incrementAndGet();
        int stdoutBytes = out.size();
        out.write(err.toByteArray());
        return new Reply(200, out.toByteArray(), code, "", stdoutBytes);
    }

    /** {@code [host]} or {@code [host, NativeEvent]} from {@code /dispatch/<host>[/<NativeEvent>]}. */
    private static List<String> route(String path) {
        String prefix = "/dispatch/";
        if (path == null || !path.startsWith(prefix)) {
            throw new Refusal(404, "not_found", ENDPOINTS);
        }
        String[] parts = path.substring(prefix.length()).split("/", -1);
        if (parts.length > 2 || !SEGMENT.matcher(parts[0]).matches()
                || (parts.length == 2 && !SEGMENT.matcher(parts[1]).matches())) {
            throw new Refusal(404, "not_found", ENDPOINTS);
        }
        return List.of(parts);
    }

    private boolean authorized(String header) {
        String prefix = "Bearer ";
        if (header == null || !header.startsWith(prefix)) {
            return false;
        }
        return MessageDigest.isEqual(token, header.substring(prefix.length()).trim().getBytes(StandardCharsets.UTF_8));
    }

    /** The stderr note as one printable-ASCII header line of at most {@link #NOTE_CAP} characters. */
    static String note(String stderr) {
        StringBuilder b = new StringBuilder(Math.min(stderr.length(), NOTE_CAP));
        for (int i = 0; i < stderr.length() && b.length() < NOTE_CAP; i++) {
            char c = stderr.charAt(i);
            if (c == '\n') {
                b.append(" | ");
            } else if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else if (c != '\r') {
                b.append('?');
            }
        }
        return b.length() > NOTE_CAP ? b.substring(0, NOTE_CAP) : b.toString();
    }

    private static void send(HttpExchange exchange, Reply reply) throws IOException {
        if (reply.exitCode() >= 0) {
            exchange.getResponseHeaders().set("X-Warden-Exit", Integer.toString(reply.exitCode()));
        }
        if (reply.stdoutBytes() >= 0) {
            exchange.getResponseHeaders().set("X-Warden-Stdout-Bytes", Integer.toString(reply.stdoutBytes()));
        }
        if (!reply.note().isEmpty()) {
            exchange.getResponseHeaders().set("X-Warden-Note", reply.note());
        }
        if (reply.status() == 405) {
            exchange.getResponseHeaders().set("Allow", "POST");
        }
        byte[] body = reply.body();
        if (body.length == 0) {
            exchange.sendResponseHeaders(reply.status(), -1);
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", reply.stdoutBytes() >= 0
                ? "application/octet-stream" : "application/json; charset=utf-8");
        exchange.sendResponseHeaders(reply.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** A request Warden answers with an HTTP error instead of a dispatch. */
    static final class Refusal extends RuntimeException {
        final int status;
        final String code;

        Refusal(int status, String code, String message) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
        }
    }

    /**
     * One answer.
     *
     * @param exitCode    the dispatch exit code, or -1 when no dispatch ran
     * @param stdoutBytes for a forwarded event, how many leading body bytes are stdout (the rest is
     *                    stderr); -1 otherwise
     */
    record Reply(int status, byte[] body, int exitCode, String note, int stdoutBytes) {
        /** The one exception-to-status mapping: a refusal keeps its status, anything else is 500. */
        static Reply of(Throwable e) {
            int status = e instanceof Refusal r ? r.status : 500;
            String code = e instanceof Refusal r ? r.code : "internal_error";
            String message = e instanceof Refusal ? e.getMessage() : "warden serve could not answer; see the server log";
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("error", code);
            error.put("message", message);
            return new Reply(status, Json.write(error).getBytes(StandardCharsets.UTF_8), -1, "", -1);
        }
    }
}
