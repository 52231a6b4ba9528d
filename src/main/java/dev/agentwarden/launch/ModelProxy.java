package dev.agentwarden.launch;

import dev.agentwarden.http.RequestHead;
import dev.agentwarden.io.PeerUid;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

/**
 * A loopback proxy between a launched host and its model provider that lets a model request through
 * only when the integrity gate allows it.
 *
 * <p>It listens on 127.0.0.1 only, on an ephemeral port, and answers only under a per-session
 * secret path prefix ({@link #baseUrl()}); any other path is 404 and never reaches the provider. A
 * POST to a model endpoint ({@link ModelWire#ofPath}) is gated by {@link PromptGate}: on LOADED or
 * LOADED_WITH_REPORT it is forwarded; on a halt the host gets 403 with a body naming the outcome,
 * and the provider is never called. Other requests (listing models, counting tokens) carry no
 * generation and are forwarded ungated. The response, SSE included, is streamed back byte for byte
 * as it arrives: status, headers (but hop-by-hop ones) and body unchanged.
 *
 * <p>Credentials the host sends (authorization headers, API keys in the query) are held only in the
 * request being forwarded: never logged, never written. Every read has a deadline and a cap: the
 * request head ({@link Limits#headMillis}, {@value #HEAD_BYTES} bytes), its body
 * ({@link Limits#bodyMillis}, {@link Limits#maxBodyBytes}), the provider's response head
 * ({@link Limits#upstreamMillis}) and each gap in its body ({@link Limits#idleMillis}). At most
 * {@value #MAX_CONNECTIONS} connections are served at once; one request per connection.
 *
 * <p>Another local user can connect too. The secret is checked on the request line, before the rest
 * of the head and before any body is read: a request without it is answered 404 at once, and a body
 * is buffered only as its bytes arrive, never allocated at its announced size. Connections from
 * users other than this process's ({@link PeerUid}) are capped at {@value #PER_PEER} per user and
 * {@value #FOREIGN_TOTAL} in all, so they can never take the slots the host's own requests need.
 */
public final class ModelProxy implements Closeable {
    static final int HEAD_BYTES = 64 * 1024;
    /** A provider client's head: {@link #HEAD_BYTES} in all, 256 header lines, any one as long as the head. */
    private static final RequestHead.Limits LIMITS = new RequestHead.Limits(HEAD_BYTES, 256, HEAD_BYTES);
    static final int MAX_CONNECTIONS = 32;
    /** Connections served at once for one user other than this process's (or one whose user is unknown). */
    static final int PER_PEER = 8;
    /** Connections served at once for all other users together: the rest are the host's. */
    static final int FOREIGN_TOTAL = MAX_CONNECTIONS / 2;
    /** Bytes read from a request body at a time: the body grows as it arrives. */
    private static final int BODY_CHUNK = 64 * 1024;
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
            "content-length", "expect", "http2-settings");
    private static final JsonLimits REQUEST_JSON = new JsonLimits(256, 64 * 1024 * 1024, false, false, false);

    /**
     * Deadlines and caps.
     *
     * @param headMillis     for the request head to arrive after the connection is accepted
     * @param bodyMillis     for the request body to arrive after its head
     * @param maxBodyBytes   largest request body
     * @param connectMillis  to connect to the provider
     * @param upstreamMillis for the provider's response head after the request is sent
     * @param idleMillis     longest gap between two chunks of the provider's response body
     */
    public record Limits(long headMillis, long bodyMillis, long maxBodyBytes, long connectMillis, long upstreamMillis,
                         long idleMillis) {
        public static Limits defaults() {
            return new Limits(5_000, 60_000, 32L * 1024 * 1024, 10_000, 300_000, 300_000);
        }
    }

    private final URI upstream;
    private final PromptGate gate;
    private final Limits limits;
    private final PrintWriter log;
    private final String secret;
    private final ServerSocket server;
    private final ExecutorService workers;
    private final ScheduledExecutorService watchdog;
    private final Semaphore slots = new Semaphore(MAX_CONNECTIONS);
    private final HttpClient client;
    private final Thread acceptor;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong upstreamCalls = new AtomicLong();
    private final AtomicLong peerRefusals = new AtomicLong();
    /** The user behind an accepted connection, or {@link PeerUid#UNKNOWN}. */
    private final ToIntFunction<Socket> peerUid;
    private final int ownUid;
    /** Connections being served per other user; guarded by itself. */
    private final Map<Integer, Integer> foreign = new HashMap<>();
    private int foreignTotal;
    private volatile boolean closed;

    private ModelProxy(URI upstream, PromptGate gate, Limits limits, PrintWriter log, ToIntFunction<Socket> peerUid,
                       int ownUid) throws IOException {
        this.upstream = upstream;
        this.gate = gate;
        this.limits = limits;
        this.log = log;
        this.peerUid = peerUid;
        this.ownUid = ownUid;
        byte[] s = new byte[24];
        new SecureRandom().nextBytes(s);
        this.secret = HexFormat.of().formatHex(s);
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 64);
        this.workers = Executors.newFixedThreadPool(MAX_CONNECTIONS, daemon("warden-proxy-worker"));
        this.watchdog = Executors.newSingleThreadScheduledExecutor(daemon("warden-proxy-deadline"));
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofMillis(limits.connectMillis()))
                .build();
        this.acceptor = daemon("warden-proxy-accept").newThread(this::acceptLoop);
    }

    /**
     * Starts a proxy in front of {@code upstream} (an {@code https} URL, or {@code http} to a
     * loopback address only, so no credential crosses a network in the clear).
     *
     * @throws IllegalArgumentException for an unusable upstream URL
     */
    public static ModelProxy start(URI upstream, PromptGate gate, Limits limits, PrintWriter log) throws IOException {
        return start(upstream, gate, limits, log, null, PeerUid.self());
    }

    /**
     * As {@link #start(URI, PromptGate, Limits, PrintWriter)}, with the users behind connections
     * told by {@code peerUid} ({@code null}: the kernel's socket tables) and this process's user.
     */
    static ModelProxy start(URI upstream, PromptGate gate, Limits limits, PrintWriter log, ToIntFunction<Socket> peerUid,
                            int ownUid) throws IOException {
        checkUpstream(upstream);
        ModelProxy[] self = new ModelProxy[1];
        ToIntFunction<Socket> uids = peerUid != null ? peerUid
                : s -> s.getRemoteSocketAddress() instanceof InetSocketAddress a ? PeerUid.of(a, self[0].port())
                : PeerUid.UNKNOWN;
        ModelProxy p = new ModelProxy(stripSlash(upstream), gate, limits, log, uids, ownUid);
        self[0] = p;
        p.acceptor.start();
        return p;
    }

    /** Connections closed unread because their user already had {@link #PER_PEER} (or others {@link #FOREIGN_TOTAL}). */
    long peerRefusals() {
        return peerRefusals.get();
    }

    /** The URL a host uses in place of the upstream URL: {@code http://127.0.0.1:PORT/<secret>}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/" + secret;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Model requests forwarded, refused, and calls made to the provider. */
    public long forwarded() {
        return forwarded.get();
    }

    public long refused() {
        return refused.get();
    }

    public long upstreamCalls() {
        return upstreamCalls.get();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing a listening socket cannot fail in a way that matters
        }
        workers.shutdownNow();
        watchdog.shutdownNow();
    }

    static void checkUpstream(URI u) {
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (u.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            throw new IllegalArgumentException("--upstream must be an http(s) URL with a host, got '" + u + "'");
        }
        if (u.getRawQuery() != null || u.getRawFragment() != null || u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("--upstream must be a base URL without query, fragment or user info");
        }
        if (scheme.equals("http") && !loopback(u.getHost())) {
            throw new IllegalArgumentException("--upstream " + u.getHost() + " over plain http would send the host's"
                    + " credentials unencrypted; use https, or http only to 127.0.0.1 / localhost / [::1]");
        }
    }

    private static boolean loopback(String host) {
        return host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]") || host.equals("::1");
    }

    private static URI stripSlash(URI u) {
        String s = u.toString();
        return s.endsWith("/") ? URI.create(s.substring(0, s.length() - 1)) : u;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    note("accept failed: " + e.getMessage());
                }
                return;
            }
            int uid = ownUid == PeerUid.UNKNOWN ? PeerUid.UNKNOWN : peerUid.applyAsInt(s);
            boolean other = ownUid != PeerUid.UNKNOWN && uid != ownUid;
            if (other && !admitForeign(uid)) {
                peerRefusals.incrementAndGet();
                closeQuietly(s);
                continue;
            }
            if (!slots.tryAcquire()) {
                closeQuietly(s);
                if (other) {
                    releaseForeign(uid);
                }
                continue;
            }
            try {
                workers.execute(() -> {
                    try {
                        serve(s);
                    } finally {
                        closeQuietly(s);
                        slots.release();
                        if (other) {
                            releaseForeign(uid);
                        }
                    }
                });
            } catch (RuntimeException e) {
                closeQuietly(s);
                slots.release();
                if (other) {
                    releaseForeign(uid);
                }
            }
        }
    }

    /** Takes a place for a connection of another user, or says there is none. */
    private boolean admitForeign(int uid) {
        synchronized (foreign) {
            int held = foreign.getOrDefault(uid, 0);
            if (held >= PER_PEER || foreignTotal >= FOREIGN_TOTAL) {
                return false;
            }
            foreign.put(uid, held + 1);
            foreignTotal++;
            return true;
        }
    }

    private void releaseForeign(int uid) {
        synchronized (foreign) {
            int held = foreign.getOrDefault(uid, 0) - 1;
            if (held <= 0) {
                foreign.remove(uid);
            } else {
                foreign.put(uid, held);
            }
            foreignTotal--;
        }
    }

    /** A parsed request. {@code query} is kept only to forward it. */
    private record Request(String method, String path, String query, Map<String, String> headers, byte[] body) {
    }

    private void serve(Socket s) {
        Request req;
        try {
            s.setTcpNoDelay(true);
            req = read(s);
        } catch (BadRequest e) {
            respondPlain(s, e.status, e.getMessage());
            return;
        } catch (IOException e) {
            return;
        }
        String rest = req.path.substring(1 + secret.length());
        ModelWire wire = "POST".equals(req.method) ? ModelWire.ofPath(rest) : null;
        long t0 = System.nanoTime();
        if (wire != null) {
            Map<String, Object> json;
            try {
                Object parsed = Json.parse(req.body, REQUEST_JSON);
                if (!(parsed instanceof Map)) {
                    throw new JsonException("json_not_object", "expected a JSON object", 0);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) parsed;
                json = m;
            } catch (JsonException e) {
                refused.incrementAndGet();
                note("refused " + wire.label() + " " + rest + ": the request body is not a JSON object (" + e.getMessage()
                        + "); not forwarded");
                respond(s, 400, "application/json", wire.errorBody("warden_bad_request",
                        "[warden] the model request is not a JSON object; it was not forwarded"));
                return;
            }
            PromptGate.Decision d;
            try {
                d = gate.check(wire, json);
            } catch (RuntimeException e) {
                refused.incrementAndGet();
                note("the gate failed on " + wire.label() + " " + rest + " (" + e + "); not forwarded");
                respond(s, 500, "application/json", wire.errorBody("warden_gate_error",
                        "[warden] the integrity gate failed on this request; it was not forwarded"));
                return;
            }
            long gated = System.nanoTime() - t0;
            if (!d.forwards()) {
                refused.incrementAndGet();
                String outcome = d.verdict().outcome().name();
                List<String> reasons = d.verdict().evaluation().reasons();
                String why = reasons.isEmpty() ? "" : ": " + reasons.get(0);
                String msg = "[warden] integrity " + outcome + why + " (request " + d.request()
                        + (d.repeated() ? ", session halted earlier in " + d.verdict().session() : ", session "
                        + d.verdict().session()) + "); the model was not called";
                note("request " + d.request() + " " + wire.label() + ": " + outcome + (d.repeated() ? " (repeated)" : "")
                        + "; refused, not forwarded");
                respond(s, 403, "application/json", wire.errorBody(outcome, msg));
                return;
            }
            note("request " + d.request() + " " + wire.label() + ": " + d.verdict().outcome() + " (payload in "
                    + d.where() + ", session " + d.verdict().session() + "); forwarded; gate " + (gated / 1000) + " us");
        }
        forward(s, req, rest, wire != null);
    }

    private boolean secretMatches(String path) {
        String prefix = "/" + secret;
        if (path.length() < prefix.length() + 1 || path.charAt(prefix.length()) != '/') {
            return false;
        }
        return MessageDigest.isEqual(path.substring(0, prefix.length()).getBytes(StandardCharsets.US_ASCII),
                prefix.getBytes(StandardCharsets.US_ASCII));
    }

    private void forward(Socket s, Request req, String rest, boolean model) {
        URI target = URI.create(upstream + rest + (req.query == null ? "" : "?" + req.query));
        HttpRequest.Builder b = HttpRequest.newBuilder(target)
                .timeout(Duration.ofMillis(limits.upstreamMillis()))
                .method(req.method, req.body.length == 0 && !"POST".equals(req.method)
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(req.body));
        for (Map.Entry<String, String> h : req.headers.entrySet()) {
            if (!HOP_BY_HOP.contains(h.getKey())) {
                try {
                    b.header(h.getKey(), h.getValue());
                } catch (IllegalArgumentException e) {
                    // a header the JDK client sets itself; the provider gets the client's value
                }
            }
        }
        HttpResponse<InputStream> resp;
        try {
            upstreamCalls.incrementAndGet();
            resp = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            note("the provider did not answer within " + limits.upstreamMillis() + " ms (" + rest + ")");
            respondPlain(s, 504, "[warden] the model provider did not answer within " + limits.upstreamMillis() + " ms");
            return;
        } catch (IOException e) {
            note("cannot reach the provider at " + upstream.getHost() + ": " + e.getClass().getSimpleName());
            respondPlain(s, 502, "[warden] cannot reach the model provider: " + e.getClass().getSimpleName());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (model) {
            forwarded.incrementAndGet();
        }
        try (InputStream in = resp.body()) {
            OutputStream out = s.getOutputStream();
            out.write(responseHead(resp));
            out.flush();
            pump(in, out);
        } catch (IOException e) {
            // the host went away or the provider broke off: nothing left to tell either side
        }
    }

    /** Copies the provider's body as it arrives, closing it when a gap exceeds the idle deadline. */
    private void pump(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[16 * 1024];
        while (true) {
            ScheduledFuture<?> stop = watchdog.schedule(() -> {
                note("the provider's response stalled over " + limits.idleMillis() + " ms; closed");
                try {
                    in.close();
                } catch (IOException ignored) {
                    // closing is the deadline's whole effect
                }
            }, limits.idleMillis(), TimeUnit.MILLISECONDS);
            int n;
            try {
                n = in.read(buf);
            } finally {
                stop.cancel(false);
            }
            if (n < 0) {
                return;
            }
            out.write(buf, 0, n);
            out.flush();
        }
    }

    private static byte[] responseHead(HttpResponse<?> resp) {
        StringBuilder h = new StringBuilder();
        h.append("HTTP/1.1 ").append(resp.statusCode()).append(' ').append(reason(resp.statusCode())).append("\r\n");
        HttpHeaders headers = resp.headers();
        for (Map.Entry<String, List<String>> e : headers.map().entrySet()) {
            String name = e.getKey().toLowerCase(Locale.ROOT);
            if (name.startsWith(":") || (HOP_BY_HOP.contains(name) && !name.equals("content-length"))) {
                continue;
            }
            for (String v : e.getValue()) {
                h.append(e.getKey()).append(": ").append(v).append("\r\n");
            }
        }
        h.append("Connection: close\r\n\r\n");
        return h.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Reads one request: its request line, refused with 404 unless its path is under the secret;
     * then the rest of the head and the body, each under its deadline and cap.
     */
    private Request read(Socket s) throws IOException {
        RequestHead head;
        try {
            head = RequestHead.read(s, LIMITS, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.headMillis()),
                    this::checkRequestLine);
        } catch (RequestHead.Malformed e) {
            throw refusal(e);
        }
        if (head.header("transfer-encoding") != null) {
            throw new BadRequest(411, "[warden] chunked request bodies are not accepted; send Content-Length");
        }
        long length = head.contentLength();
        if (length < 0) {
            throw new BadRequest(400, "[warden] Content-Length is not a number");
        }
        if (length > limits.maxBodyBytes()) {
            throw new BadRequest(413, "[warden] request body of " + length + " bytes; the limit is " + limits.maxBodyBytes());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.min(length, BODY_CHUNK));
        byte[] rest = head.rest();
        long got = Math.min(rest.length, length);
        body.write(rest, 0, (int) got);
        byte[] chunk = new byte[(int) Math.min(length, BODY_CHUNK)];
        long bodyDeadline = System.currentTimeMillis() + limits.bodyMillis();
        InputStream in = s.getInputStream();
        while (got < length) {
            int n = readSome(in, s, chunk, 0, (int) Math.min(chunk.length, length - got), bodyDeadline);
            if (n < 0) {
                throw new BadRequest(400, "[warden] request body ended after " + got + " of " + length + " bytes");
            }
            body.write(chunk, 0, n);
            got += n;
        }
        return new Request(head.method(), head.path(), head.query(), head.headerMap(), body.toByteArray());
    }

    /** Refuses with 404, on its request line alone, a request whose path is not under the secret. */
    private void checkRequestLine(String method, String target) throws BadRequest {
        int q = target.indexOf('?');
        if (!secretMatches(q < 0 ? target : target.substring(0, q))) {
            throw new BadRequest(404, "not found");
        }
    }

    /** The answer to a head the codec would not read; a client that left gets none. */
    private static IOException refusal(RequestHead.Malformed e) {
        switch (e.problem) {
            case CLOSED:
                return new IOException("closed before the request head ended");
            case TIMEOUT:
                return new BadRequest(408, "[warden] the request head did not arrive in time");
            case TOO_LARGE:
                return new BadRequest(431, "[warden] request head over " + HEAD_BYTES + " bytes");
            case LINE_TOO_LONG:
            case TOO_MANY_HEADERS:
                return new BadRequest(431, "[warden] " + e.getMessage());
            case BAD_REQUEST_LINE:
                return new BadRequest(400, "[warden] not an HTTP/1.x request line");
            case BAD_HEADER:
                return new BadRequest(400, "[warden] malformed header line");
            default:
                return new BadRequest(400, "[warden] " + e.getMessage());
        }
    }

    private static int readSome(InputStream in, Socket s, byte[] b, int off, int len, long deadline) throws IOException {
        setTimeout(s, deadline, "request body");
        try {
            return in.read(b, off, len);
        } catch (SocketTimeoutException e) {
            throw new BadRequest(408, "[warden] the request body did not arrive in time");
        }
    }

    private static void setTimeout(Socket s, long deadline, String what) throws IOException {
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) {
            throw new BadRequest(408, "[warden] the " + what + " did not arrive in time");
        }
        s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
    }

    private static void respondPlain(Socket s, int status, String text) {
        respond(s, status, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void respond(Socket s, int status, String type, byte[] body) {
        try {
            OutputStream out = s.getOutputStream();
            out.write(("HTTP/1.1 " + status + " " + reason(status) + "\r\nContent-Type: " + type + "\r\nContent-Length: "
                    + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
        } catch (IOException ignored) {
            // the host went away
        }
    }

    private static String reason(int status) {
        switch (status) {
            case 200: return "OK";
            case 400: return "Bad Request";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 408: return "Request Timeout";
            case 411: return "Length Required";
            case 413: return "Payload Too Large";
            case 500: return "Internal Server Error";
            case 431: return "Request Header Fields Too Large";
            case 502: return "Bad Gateway";
            case 504: return "Gateway Timeout";
            default: return "Status";
        }
    }

    private void note(String line) {
        synchronized (log) {
            log.println("warden proxy: " + line);
            log.flush();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A request refused before it is understood, with the status it gets. */
    private static final class BadRequest extends IOException {
        final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }
}
