package dev.agentwarden.server;

import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.export.LiveExport;
import dev.agentwarden.io.PeerUid;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The loopback transport: {@code warden serve} answers {@code POST /dispatch/<host>[/<NativeEvent>]}
 * over HTTP/1.1 with exactly what {@code warden dispatch} would print for the same payload; the
 * resident server ({@link Resident}) answers {@code POST /forward}, {@code bin/warden dispatch}
 * handing over its event. Each serves only its own endpoint (404 for the other).
 *
 * <p>Who does what: the {@link Front}s read requests whole; this class checks their heads, queues
 * them to workers and answers the resident's {@code /status} and {@code /hand-over};
 * {@link HttpDispatch} runs {@code /dispatch} and host HTTP hooks, {@link ResidentForward} runs
 * {@code /forward}, each through the server's one {@link DispatchRuntime}; {@link Reply} is the
 * answer on the wire.
 *
 * <p>{@code serve}: a request becomes a {@link dev.agentwarden.dispatch.DispatchRequest} for
 * {@code --host H [--native-event N] [--manifest F] [--project-dir D]} with its body as the payload, so
 * payload limits, fail modes and output are those of the command. The answer is status 200, the
 * host response's stdout as body (none for no opinion), its exit code in {@code X-Warden-Exit} and
 * its stderr note, one line and capped, in {@code X-Warden-Note}. The environment is the one the
 * server was started with: per-request variables (a session role) do not exist over HTTP.
 *
 * <p>Resident: the server speaks first, {@code warden-resident/3 <proof>\n} with the proof from its
 * owner-only endpoint file, and only to a peer of its own uid, so the launcher can tell it from
 * whatever else listens on a stale endpoint's port before it sends a byte. The launcher then sends
 * {@code POST /forward} ({@link ForwardRequest}) in one write, and the worker that takes it runs it at
 * once, unless it waited in the queue longer than {@link #QUEUE_WAIT_MS}: then it gets 503 before
 * anything runs, and the launcher evaluates it in its own JVM (any other answer but 200 also means
 * nothing ran). Once sent, an event is the resident's: a launcher that gets no answer in time
 * applies the fail mode, never a JVM, so no event is evaluated twice. The answer is status 200 with {@code X-Warden-Exit},
 * {@code X-Warden-Stdout-Bytes} and a body of exactly the bytes the one-shot process would write to
 * stdout followed by those it would write to stderr. A body that is not a forwarded event gets 400
 * and no dispatch runs. The compiled hook sends the same request over the resident's Unix socket
 * instead ({@link HookSocket}: no greeting, the kernel names the peer), answered the same way.
 *
 * <p>Host HTTP hooks: a resident given an HTTP port ({@link #startResident(String, String, int, Map, Clock, HookPort)})
 * also serves {@code /dispatch} there as {@code serve} does, under its own token, to peers of its
 * own uid only, without a greeting (an HTTP client speaks first).
 *
 * <p>Either way: requests without {@code Authorization: Bearer <token>} get 401, other paths 404,
 * other methods 405, all as {@code {"error": code, "message": …}}. {@code /forward} is one request per
 * connection; {@code /dispatch} keeps the connection for the next request (HTTP/1.1 keep-alive)
 * unless the client sends {@code Connection: close}. The
 * {@link Front} reads every request whole under deadlines before a worker sees it; workers run on a
 * fixed pool with a bounded queue, and a request that finds it full gets 503.
 */
public final class WardenServer implements AutoCloseable {
    static final int DEFAULT_THREADS = 4;
    /** How long a forwarded event may wait for a worker ({@link #queueWaitNanos}) unless told otherwise. */
    static final long QUEUE_WAIT_MS = 10_000;
    /** Longest a client may take to read an answer that did not fit in its socket's buffer at once. */
    static final long WRITE_DEADLINE_MS = 10_000;
    /** The line a resident sends first, before its proof (version 3: no {@code 102}/{@code g} exchange). */
    public static final String GREETING = "warden-resident/3 ";
    private static final int QUEUE = 256;
    /** The kernel's accept queue asked for; Linux caps it at net.core.somaxconn (4096 by default since 5.4). */
    static final int BACKLOG = 65535;
    private static final String FORWARD_ENDPOINT = "the endpoints are POST /forward, POST /status and POST /hand-over";
    /** The resident's status query ({@link #status}). */
    public static final String STATUS_PATH = "/status";
    /**
     * A newer resident's request that this one let go of the HTTP hook port ({@link #handOverHookPort}),
     * proven as every launcher request is: the greeting's proof checked, the endpoint's token sent.
     */
    public static final String HAND_OVER_PATH = "/hand-over";

    private final ServerSocketChannel listener;
    private final Front front;
    private final Thread frontThread;
    /** The resident's host-hook port, or {@code null}. */
    private final ServerSocketChannel hookListener;
    private final Front hookFront;
    private final Thread hookThread;
    private final ThreadPoolExecutor pool;
    /**
     * How long a forwarded event may wait in the queue for a worker; one that waited longer is
     * refused (503) by the worker that takes it, before it runs, and its launcher evaluates it in its
     * own JVM. The resident decides, so no event runs twice.
     */
    private final long queueWaitNanos;
    private final byte[] token;
    /** The resident's greeting line; {@code null} for {@code serve}. */
    private final byte[] greeting;
    private final int ownUid;
    /** This JVM's umask, nice value and limits, which a forwarded event's concerns would otherwise get. */
    private final ProcessAttributes own;
    private final Map<String, String> env;
    /** Where this server's dispatches run: the decision-log segments it keeps open and the manifests it keeps. */
    private final DispatchRuntime runtime;
    /** {@code serve}'s {@code /dispatch} and the resident's host HTTP hooks. */
    private final HttpDispatch http;
    private final Clock clock;
    private final AtomicLong lastActivity;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong forwarded = new AtomicLong();
    private final long startedMillis;
    /** The live OpenTelemetry export of every decision line this server writes, or {@code null}. */
    private final LiveExport live;
    /** Why live export was asked for and is off (its {@code OTEL_*} variables are wrong), or {@code null}. */
    private final String liveProblem;

    /**
     * A port for host HTTP hooks, the token they must send, and the resident directory whose
     * {@link dev.agentwarden.io.HookProjects} file binds each hook URL's project ({@code null}: none
     * is bound, and every event is refused).
     */
    public record HookPort(int port, String token, Path projectsDir) {
        public HookPort(int port, String token) {
            this(port, token, null);
        }
    }

    private WardenServer(ServerSocketChannel listener, int threads, String token, String proof, String projectDir,
                         String manifest, Map<String, String> env, Clock clock, ServerSocketChannel hookListener,
                         HookPort hooks, long queueWaitMs) throws IOException {
        this.listener = listener;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "warden-serve-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        // started now, not one per request until the pool is full: no event pays for a new thread
        pool.prestartAllCoreThreads();
        this.queueWaitNanos = TimeUnit.MILLISECONDS.toNanos(queueWaitMs);
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.greeting = proof == null ? null : (GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII);
        this.ownUid = PeerUid.self();
        this.own = ProcessAttributes.self();
        this.env = Map.copyOf(env);
        this.clock = clock;
        this.runtime = DispatchRuntime.longLived(clock);
        this.http = new HttpDispatch(runtime, this.env, manifest, projectDir, hooks == null ? null : hooks.projectsDir());
        this.lastActivity = new AtomicLong(clock.millis());
        this.startedMillis = clock.millis();
        Gate gate = proof != null ? new Gate(Mode.FORWARD, this.token, false) : new Gate(Mode.DISPATCH, this.token, false);
        this.front = new Front(listener, gate);
        gate.front = front;
        this.frontThread = new Thread(front, "warden-front");
        frontThread.setDaemon(true);
        this.hookListener = hookListener;
        if (hookListener != null) {
            Gate hookGate = new Gate(Mode.HOOK, hooks.token().getBytes(StandardCharsets.UTF_8), true);
            this.hookFront = new Front(hookListener, hookGate);
            hookGate.front = hookFront;
            this.hookThread = new Thread(hookFront, "warden-hook-front");
            hookThread.setDaemon(true);
        } else {
            this.hookFront = null;
            this.hookThread = null;
        }
        // last, so that nothing after it can fail and leave its thread running
        LiveExport started = null;
        String problem = null;
        Map<String, String> exportEnv = dev.agentwarden.managed.ManagedLayer.load().settings()
                .forLiveExport(this.env, LiveExport.SWITCH);
        if (LiveExport.wanted(exportEnv)) {
            try {
                started = LiveExport.start(exportEnv, clock);
                runtime.segments().tap(started);
            } catch (IllegalArgumentException e) {
                problem = e.getMessage();
                System.err.println("warden: " + LiveExport.SWITCH + " is on but live export is off: " + problem);
            }
        }
        this.live = started;
        this.liveProblem = problem;
    }

    /**
     * {@code warden serve}: binds 127.0.0.1 ({@code port} 0 picks a free one) and serves
     * {@code /dispatch}.
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
        return start(port, threads, token, null, projectDir, manifest, env, clock, null, QUEUE_WAIT_MS);
    }

    /**
     * The resident: binds a free port on 127.0.0.1 and serves {@code /forward} to peers of this
     * process's uid, greeting each with {@code proof}.
     *
     * @param env the resident's own environment (each forwarded event brings the launcher's)
     */
    public static WardenServer startResident(String token, String proof, int threads, Map<String, String> env,
                                             Clock clock) throws IOException {
        return startResident(token, proof, threads, env, clock, null);
    }

    /**
     * The resident, also serving host HTTP hooks on {@code hooks} (127.0.0.1) when it is not
     * {@code null}; a port that cannot be bound (another process holds it) throws.
     */
    public static WardenServer startResident(String token, String proof, int threads, Map<String, String> env,
                                             Clock clock, HookPort hooks) throws IOException {
        return startResident(token, proof, threads, env, clock, hooks, QUEUE_WAIT_MS);
    }

    /** {@link #startResident(String, String, int, Map, Clock, HookPort)} with another queue wait for forwarded events. */
    static WardenServer startResident(String token, String proof, int threads, Map<String, String> env, Clock clock,
                                      HookPort hooks, long queueWaitMs) throws IOException {
        if (!proof.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("the proof must be 64 lowercase hex digits");
        }
        return start(0, threads, token, proof, null, null, env, clock, hooks, queueWaitMs);
    }

    private static WardenServer start(int port, int threads, String token, String proof, String projectDir,
                                      String manifest, Map<String, String> env, Clock clock, HookPort hooks,
                                      long queueWaitMs) throws IOException {
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("threads " + threads + " is outside 1..64");
        }
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.INET);
        ServerSocketChannel hookListener = null;
        try {
            listener.bind(loopback(port), BACKLOG);
            if (hooks != null) {
                hookListener = ServerSocketChannel.open(StandardProtocolFamily.INET);
                hookListener.bind(loopback(hooks.port()), BACKLOG);
            }
            WardenServer server = new WardenServer(listener, threads, token, proof, projectDir, manifest, env, clock,
                    hookListener, hooks, queueWaitMs);
            server.frontThread.start();
            if (server.hookThread != null) {
                server.hookThread.start();
            }
            return server;
        } catch (IOException | RuntimeException e) {
            listener.close();
            if (hookListener != null) {
                hookListener.close();
            }
            throw e;
        }
    }

    private static InetSocketAddress loopback(int port) throws IOException {
        return new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port);
    }

    public int port() {
        return address().getPort();
    }

    /** The HTTP hook port this server holds, or -1 when it serves none. */
    public int hookPort() {
        if (hookListener == null) {
            return -1;
        }
        try {
            InetSocketAddress a = (InetSocketAddress) hookListener.getLocalAddress();
            return a == null ? -1 : a.getPort();
        } catch (IOException e) {
            return -1;
        }
    }

    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) listener.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the server is closed", e);
        }
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port() + "/");
    }

    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Waits up to {@code grace} for the requests being read or answered to finish, so that a
     * dispatch that has run is also answered, then stops.
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
        front.stop();
        if (hookFront != null) {
            hookFront.stop();
        }
        try {
            frontThread.join(2_000);
            if (hookThread != null) {
                hookThread.join(2_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            listener.close();
            if (hookListener != null) {
                hookListener.close();
            }
        } catch (IOException e) {
            // closing anyway
        }
        pool.shutdown();
        // a dispatch still running appends its line the one-shot way
        runtime.close();
        if (live != null) {
            runtime.segments().tap(null);
            live.close();
        }
    }

    /**
     * Why one of its fronts stopped serving on its own (its selector failed), or {@code null} while
     * both serve: such a server answers nothing more on that port and should be stopped.
     */
    public String frontDied() {
        String launcher = front.died();
        return launcher != null ? launcher : hookFront == null ? null : hookFront.died();
    }

    /** Forwarded events answered so far. */
    public long forwardedCount() {
        return forwarded.get();
    }

    /** Worker threads running (idle or not). */
    int workerThreads() {
        return pool.getPoolSize();
    }

    /** Complete requests waiting for a worker. */
    int queuedRequests() {
        return pool.getQueue().size();
    }

    /** Authorized requests being read or answered. */
    int requestsInProgress() {
        return inFlight.get();
    }

    /** When the last authorized request other than a status query ended (epoch ms of the clock), or the start. */
    long lastActivityMillis() {
        return lastActivity.get();
    }

    /** Milliseconds since the last authorized request ended, or 0 while one is being read or answered. */
    public long idleMillis() {
        return inFlight.get() > 0 ? 0 : Math.max(0, clock.millis() - lastActivity.get());
    }

    /**
     * What a front serves: forwarded events (the resident's launcher port), {@code serve}'s
     * dispatches, or host HTTP hooks bound to their project ({@link HookCaller}).
     */
    private enum Mode { FORWARD, DISPATCH, HOOK }

    /** The server's side of a {@link Front}: who is greeted, which heads are accepted, where requests run. */
    private final class Gate implements Front.Gate {
        private final Mode mode;
        private final byte[] token;
        private final boolean ownUserOnly;
        private Front front;

        Gate(Mode mode, byte[] token, boolean ownUserOnly) {
            this.mode = mode;
            this.token = token;
            this.ownUserOnly = ownUserOnly;
        }

        @Override
        public byte[] greeting(int peerUid) {
            boolean own = peerUid != PeerUid.UNKNOWN && peerUid == ownUid;
            if (mode == Mode.FORWARD) {
                return own ? greeting : null;
            }
            return own || !ownUserOnly ? new byte[0] : null;
        }

        @Override
        public Reply check(Front.Head head) {
            try {
                accept(head.method(), head.path(), head.header("authorization"), mode, token);
            } catch (Reply.Refusal r) {
                return Reply.of(r);
            }
            inFlight.incrementAndGet();
            return null;
        }

        @Override
        public void accepted(Front.Request request) {
            try {
                long queued = System.nanoTime();
                pool.execute(() -> serve(request, mode, this, queued));
            } catch (RejectedExecutionException e) {
                try (SocketChannel ch = request.channel()) {
                    // on the front's thread: one attempt, never a wait (a client that cannot take it is closed)
                    ch.write(ByteBuffer.wrap(Reply.refusal(503, "busy", "every worker is busy; try again").bytes()));
                } catch (IOException ignored) {
                    // the client is gone
                }
                front.closed();
                abandoned();
            }
        }

        @Override
        public void abandoned() {
            inFlight.decrementAndGet();
        }
    }

    /** Refuses a head that is not an authorized request for this front's endpoint. */
    private void accept(String method, String path, String authorization, Mode mode, byte[] token) {
        if (!authorized(authorization, token)) {
            throw new Reply.Refusal(401, "unauthorized", mode == Mode.FORWARD ? "send Authorization: Bearer <token from the endpoint file>"
                    : greeting != null ? "send Authorization: Bearer $WARDEN_HOOK_TOKEN (the token warden install wrote)"
                    : "send Authorization: Bearer <token from serve.json>");
        }
        if (mode == Mode.FORWARD) {
            if (!"/forward".equals(path) && !STATUS_PATH.equals(path) && !HAND_OVER_PATH.equals(path)) {
                throw new Reply.Refusal(404, "not_found", FORWARD_ENDPOINT);
            }
        } else if (mode == Mode.HOOK) {
            HttpDispatch.hookRoute(path);
        } else {
            HttpDispatch.serveRoute(path);
        }
        if (!"POST".equals(method)) {
            throw new Reply.Refusal(405, "method_not_allowed", method + " is not allowed; use POST");
        }
    }

    /**
     * The {@link HookSocket}'s check of a head, as the launcher port's: a refusal, or {@code null}
     * when the request is accepted and counts as in progress until {@link #answerHookSocket} or
     * {@link #abandonedHookSocket}.
     */
    Reply checkHookSocket(String method, String path, String authorization) {
        if (greeting == null) {
            return Reply.refusal(404, "not_found", HttpDispatch.DISPATCH_ENDPOINT);
        }
        try {
            accept(method, path, authorization, Mode.FORWARD, token);
        } catch (Reply.Refusal r) {
            return Reply.of(r);
        }
        inFlight.incrementAndGet();
        return null;
    }

    /** A request {@link #checkHookSocket} accepted was dropped before it was complete. */
    void abandonedHookSocket() {
        inFlight.decrementAndGet();
    }

    /**
     * Answers a complete request from the {@link HookSocket} that {@link #checkHookSocket} accepted,
     * on the calling thread, as a launcher-port worker answers it; {@code waitedNanos}: how long it
     * waited for a worker.
     */
    byte[] answerHookSocket(String path, byte[] body, long waitedNanos) {
        try {
            Reply reply;
            try {
                reply = forwardReply(path, body, waitedNanos);
            } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                reply = Reply.of(e);
            }
            return reply.bytes();
        } finally {
            if (!STATUS_PATH.equals(path) && !HAND_OVER_PATH.equals(path)) {
                lastActivity.set(clock.millis());
            }
            inFlight.decrementAndGet();
        }
    }

    /** The answer to an authorized {@code /forward} or {@code /status} that waited {@code waitedNanos} for a worker. */
    private Reply forwardReply(String path, byte[] body, long waitedNanos) throws IOException {
        return STATUS_PATH.equals(path) ? status()
                : HAND_OVER_PATH.equals(path) ? handOverHookPort()
                : waitedNanos > queueWaitNanos ? Reply.refusal(503, "busy",
                        "no worker was free for " + TimeUnit.NANOSECONDS.toMillis(queueWaitNanos)
                        + " ms; evaluate the event yourself")
                : forward(body);
    }

    /**
     * Runs one complete request on a worker and answers it; a dispatch whose client keeps the
     * connection goes back to its front for the next request.
     */
    private void serve(Front.Request request, Mode mode, Gate gate, long queuedNanos) {
        SocketChannel ch = request.channel();
        boolean keep = false;
        try {
            Reply reply;
            try {
                reply = mode == Mode.HOOK ? http.hook(request) : mode == Mode.DISPATCH ? http.serve(request)
                        : forwardReply(request.head().path(), request.body(), System.nanoTime() - queuedNanos);
            } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
                reply = Reply.of(e);
            }
            keep = mode != Mode.FORWARD && reply != null && reply.status() == 200 && request.keepable()
                    && !"close".equalsIgnoreCase(request.head().header("connection"));
            if (reply != null) {
                write(ch, reply.bytes(keep));
                if (!keep) {
                    ch.shutdownOutput();
                }
            }
        } catch (IOException | RuntimeException e) {
            keep = false;
        } finally {
            // a status query or a hand-over is not use: it does not keep the resident running
            if (!STATUS_PATH.equals(request.head().path()) && !HAND_OVER_PATH.equals(request.head().path())) {
                lastActivity.set(clock.millis());
            }
            inFlight.decrementAndGet();
            if (keep) {
                gate.front.keep(request);
            } else {
                try {
                    ch.close();
                } catch (IOException e) {
                    // the client went away
                }
                gate.front.closed();
            }
        }
    }

    /** Runs a forwarded event exactly as its launcher's JVM would have ({@link ResidentForward}). */
    private Reply forward(byte[] request) throws IOException {
        Reply reply = ResidentForward.answer(request, own, runtime);
        forwarded.incrementAndGet();
        return reply;
    }

    /**
     * Lets go of the HTTP hook port so that a newer resident can bind it: the hook front stops
     * (connections being read are closed; events already running are answered) and the port is
     * closed before the answer, {@code {"released": PORT}} ({@code -1} when it held none). The
     * launcher port keeps serving until the resident goes idle.
     */
    private Reply handOverHookPort() {
        int port = hookPort();
        if (hookFront != null && port >= 0) {
            hookFront.stop();
            try {
                hookThread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                hookListener.close();
            } catch (IOException e) {
                // closed by its front already
            }
            System.err.println("warden resident: handed HTTP hook port 127.0.0.1:" + port + " over to a newer resident");
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("released", (long) port);
        return new Reply(200, Json.write(s).getBytes(StandardCharsets.UTF_8), -1, "", -1);
    }

    /**
     * The resident's {@code POST /status} answer: {@code {"pid", "started_at" (epoch ms), "forwarded",
     * "in_progress"}} and, when live export was asked for, {@code "otlp"} ({@link LiveExport#status}, or
     * {@code {"error"}} when its variables were wrong), for {@code warden doctor}; no dispatch runs.
     */
    private Reply status() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("pid", ProcessHandle.current().pid());
        s.put("started_at", startedMillis);
        s.put("forwarded", forwarded.get());
        s.put("in_progress", Math.max(0, inFlight.get() - 1));
        if (live != null) {
            s.put("otlp", live.status());
        } else if (liveProblem != null) {
            s.put("otlp", Map.of("error", liveProblem));
        }
        return new Reply(200, Json.write(s).getBytes(StandardCharsets.UTF_8), -1, "", -1);
    }

    /**
     * Writes a whole answer to a non-blocking {@code ch} (as the {@link Front} hands it over): at
     * once when the socket takes it, as it nearly always does; else waiting for room, at most
     * {@link #WRITE_DEADLINE_MS} in all.
     *
     * @throws IOException when the client did not take the answer in time, or went away
     */
    private static void write(SocketChannel ch, byte[] bytes) throws IOException {
        write(ch, bytes, WRITE_DEADLINE_MS);
    }

    /** {@link #write(SocketChannel, byte[])} within {@code deadlineMs}. */
    static void write(SocketChannel ch, byte[] bytes, long deadlineMs) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        ch.write(b);
        if (!b.hasRemaining()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
        try (Selector room = Selector.open()) {
            ch.register(room, SelectionKey.OP_WRITE);
            while (b.hasRemaining()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IOException("the client took no answer for " + deadlineMs + " ms");
                }
                room.select(left);
                room.selectedKeys().clear();
                ch.write(b);
            }
        }
    }

    private static boolean authorized(String header, byte[] token) {
        String prefix = "Bearer ";
        if (header == null || !header.startsWith(prefix)) {
            return false;
        }
        return MessageDigest.isEqual(token, header.substring(prefix.length()).trim().getBytes(StandardCharsets.UTF_8));
    }
}
