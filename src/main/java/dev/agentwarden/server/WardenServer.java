package dev.agentwarden.server;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchMain;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.export.LiveExport;
import dev.agentwarden.io.PeerUid;
import dev.agentwarden.server.ForwardRequest.BadForward;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>{@code serve}: a request becomes the argv {@code dispatch --host H [--native-event N]
 * [--manifest F] [--project-dir D]} and its body becomes stdin of {@link DispatchMain#respond}, so
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
    /** Longest {@code X-Warden-Note} value, in characters. */
    static final int NOTE_CAP = 2000;
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
    private static final String DISPATCH_ENDPOINT = "the endpoint is POST /dispatch/<host>/<NativeEvent>";
    private static final String HOOK_ENDPOINT = "the endpoint is POST /project/<id>/dispatch/<host>/<NativeEvent>"
            + " (the URL warden install --transport http writes)";
    private static final String FORWARD_ENDPOINT = "the endpoints are POST /forward, POST /status and POST /hand-over";
    /** The resident's status query ({@link #status}). */
    public static final String STATUS_PATH = "/status";
    /**
     * A newer resident's request that this one let go of the HTTP hook port ({@link #handOverHookPort}),
     * proven as every launcher request is: the greeting's proof checked, the endpoint's token sent.
     */
    public static final String HAND_OVER_PATH = "/hand-over";
    /** Longest segment of a {@code /dispatch} route (a host id, a native event name). */
    private static final int SEGMENT_CHARS = 64;

    private final ServerSocketChannel listener;
    private final Front front;
    private final Thread frontThread;
    /** The resident's host-hook port, or {@code null}. */
    private final ServerSocketChannel hookListener;
    /** Where the projects bound to hook URLs are registered, or {@code null}. */
    private final Path hookProjectsDir;
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
    private final String projectDir;
    private final String manifest;
    private final Map<String, String> env;
    /** The caller of every {@code /dispatch}: this process, with {@link #env}. */
    private final Caller caller;
    /** Where this server's dispatches run: the decision-log segments it keeps open and the manifests it keeps. */
    private final DispatchRuntime runtime;
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
        this.projectDir = projectDir;
        this.manifest = manifest;
        this.env = Map.copyOf(env);
        this.caller = Caller.thisProcess(this.env);
        this.clock = clock;
        this.runtime = DispatchRuntime.longLived(clock);
        this.lastActivity = new AtomicLong(clock.millis());
        this.startedMillis = clock.millis();
        Gate gate = proof != null ? new Gate(Mode.FORWARD, this.token, false) : new Gate(Mode.DISPATCH, this.token, false);
        this.front = new Front(listener, gate);
        gate.front = front;
        this.frontThread = new Thread(front, "warden-front");
        frontThread.setDaemon(true);
        this.hookListener = hookListener;
        this.hookProjectsDir = hooks == null ? null : hooks.projectsDir();
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
            } catch (Refusal r) {
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
            throw new Refusal(401, "unauthorized", mode == Mode.FORWARD ? "send Authorization: Bearer <token from the endpoint file>"
                    : greeting != null ? "send Authorization: Bearer $WARDEN_HOOK_TOKEN (the token warden install wrote)"
                    : "send Authorization: Bearer <token from serve.json>");
        }
        if (mode == Mode.FORWARD) {
            if (!"/forward".equals(path) && !STATUS_PATH.equals(path) && !HAND_OVER_PATH.equals(path)) {
                throw new Refusal(404, "not_found", FORWARD_ENDPOINT);
            }
        } else if (mode == Mode.HOOK) {
            hookRoute(path);
        } else {
            route(path);
        }
        if (!"POST".equals(method)) {
            throw new Refusal(405, "method_not_allowed", method + " is not allowed; use POST");
        }
    }

    /**
     * The {@link HookSocket}'s check of a head, as the launcher port's: a refusal, or {@code null}
     * when the request is accepted and counts as in progress until {@link #answerHookSocket} or
     * {@link #abandonedHookSocket}.
     */
    Reply checkHookSocket(String method, String path, String authorization) {
        if (greeting == null) {
            return Reply.refusal(404, "not_found", DISPATCH_ENDPOINT);
        }
        try {
            accept(method, path, authorization, Mode.FORWARD, token);
        } catch (Refusal r) {
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
                reply = mode == Mode.HOOK ? hookDispatch(request) : mode == Mode.DISPATCH ? dispatch(request)
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

    private Reply dispatch(Front.Request request) {
        List<String> route = route(request.head().path());
        DispatchRequest.Route dispatch = new DispatchRequest.Route(route.get(0), null,
                route.size() == 2 ? route.get(1) : null, manifest, projectDir);
        HostResponse response = runtime.respond(DispatchRequest.of(dispatch, request.body(), caller,
                DispatchRequest.Transport.SERVE));
        byte[] body = response.stdout().getBytes(StandardCharsets.UTF_8);
        return new Reply(200, body, response.exitCode(), note(response.stderr()), -1);
    }

    /**
     * A host HTTP hook's event, judged only under what it carries ({@link HookCaller}): the project
     * its URL is bound to and its payload's {@code cwd}, never the resident's own environment. An
     * event it cannot bind (an unbound URL, an unknown project, a cwd outside the project) is
     * refused in the host's protocol, and the refusal goes to the resident's log too.
     */
    private Reply hookDispatch(Front.Request request) {
        String path = request.head().path();
        HookRoute route = hookRoute(path);
        String refusal;
        HostResponse response;
        if (route.projectId() == null) {
            refusal = "this HTTP hook is bound to no project (its URL is /dispatch/..., written by an older Warden);"
                    + " re-run warden install --transport http in the project";
        } else {
            HookCaller.Bound bound = hookProjectsDir == null
                    ? HookCaller.Bound.refused("this resident has no registry of projects bound to HTTP hooks")
                    : HookCaller.bind(hookProjectsDir, route.projectId(), cwdOf(request.body()), env);
            refusal = bound.refusal();
            if (refusal == null) {
                DispatchRequest.Route dispatch = new DispatchRequest.Route(route.host(), null, route.nativeEvent(), null,
                        bound.root().toString());
                response = runtime.respond(DispatchRequest.of(dispatch, request.body(), bound.caller(),
                        DispatchRequest.Transport.SERVE));
                return new Reply(200, response.stdout().getBytes(StandardCharsets.UTF_8), response.exitCode(),
                        note(response.stderr()), -1);
            }
        }
        System.err.println("warden resident: refused an HTTP hook event (" + path + "): " + refusal);
        response = DispatchMain.refused(route.host(), route.nativeEvent(), refusal);
        return new Reply(200, response.stdout().getBytes(StandardCharsets.UTF_8), response.exitCode(),
                note(response.stderr()), -1);
    }

    /** The payload's {@code cwd}, or {@code null} when the body is not a JSON object naming one. */
    static String cwdOf(byte[] body) {
        try {
            Object payload = Json.parse(new String(body, StandardCharsets.UTF_8), JsonLimits.LENIENT);
            return payload instanceof Map<?, ?> m && m.get("cwd") instanceof String cwd ? cwd : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A host HTTP hook's route: the bound project's id ({@code null} on the unbound {@code /dispatch/...}), host, event. */
    record HookRoute(String projectId, String host, String nativeEvent) {
    }

    /** {@code /project/<id>/dispatch/<host>[/<NativeEvent>]}, or the unbound {@code /dispatch/<host>[/<NativeEvent>]}. */
    static HookRoute hookRoute(String path) {
        String prefix = "/project/";
        String id = null;
        String rest = path;
        if (path != null && path.startsWith(prefix)) {
            int slash = path.indexOf('/', prefix.length());
            id = slash < 0 ? "" : path.substring(prefix.length(), slash);
            if (!dev.agentwarden.io.HookProjects.isId(id)) {
                throw new Refusal(404, "not_found", HOOK_ENDPOINT);
            }
            rest = path.substring(slash);
        }
        List<String> route;
        try {
            route = route(rest);
        } catch (Refusal r) {
            throw new Refusal(404, "not_found", HOOK_ENDPOINT);
        }
        return new HookRoute(id, route.get(0), route.size() == 2 ? route.get(1) : null);
    }

    /** Runs a forwarded event exactly as its launcher's JVM would have, capturing both streams. */
    private Reply forward(byte[] request) throws IOException {
        Reply reply = forward(request, own, runtime);
        forwarded.incrementAndGet();
        return reply;
    }

    /**
     * The answer to the forwarded event {@code request}, run in {@code runtime}: the one code path of
     * every forwarded event, and of {@link ResidentWarmup}'s. The body is exactly what the one-shot
     * process writes: the host response's stdout, then its stderr and a newline when it has one.
     *
     * @param own the resident's umask, nice value and limits
     */
    static Reply forward(byte[] request, ProcessAttributes own, DispatchRuntime runtime) throws IOException {
        ForwardRequest.Framed framed;
        try {
            framed = ForwardRequest.frame(request);
        } catch (BadForward e) {
            throw new Refusal(400, "bad_forward", e.getMessage());
        }
        ForwardRequest forward = framed.request();
        InputStream body = new ByteArrayInputStream(request, framed.payloadAt(), request.length - framed.payloadAt());
        HostResponse response = runtime.respond(DispatchRequest.read(
                DispatchRequest.Route.parse(forward.argv().toArray(new String[0])), forward.stdin(body),
                forward.caller(own), DispatchRequest.Transport.RESIDENT));
        byte[] stdout = response.stdout().getBytes(StandardCharsets.UTF_8);
        byte[] stderr = response.stderr().isEmpty() ? new byte[0]
                : (response.stderr() + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] answer = Arrays.copyOf(stdout, stdout.length + stderr.length);
        System.arraycopy(stderr, 0, answer, stdout.length, stderr.length);
        return new Reply(200, answer, response.exitCode(), "", stdout.length);
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

    /** {@code [host]} or {@code [host, NativeEvent]} from {@code /dispatch/<host>[/<NativeEvent>]}. */
    private static List<String> route(String path) {
        String prefix = "/dispatch/";
        if (path == null || !path.startsWith(prefix)) {
            throw new Refusal(404, "not_found", DISPATCH_ENDPOINT);
        }
        int from = prefix.length();
        int slash = path.indexOf('/', from);
        int hostEnd = slash < 0 ? path.length() : slash;
        if (!segment(path, from, hostEnd) || slash >= 0 && !segment(path, slash + 1, path.length())) {
            throw new Refusal(404, "not_found", DISPATCH_ENDPOINT);
        }
        return slash < 0 ? List.of(path.substring(from))
                : List.of(path.substring(from, slash), path.substring(slash + 1));
    }

    /** Whether {@code path[from, to)} is a route segment: 1 to {@link #SEGMENT_CHARS} of {@code A-Za-z0-9_.-}. */
    private static boolean segment(String path, int from, int to) {
        if (to <= from || to - from > SEGMENT_CHARS) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = path.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static boolean authorized(String header, byte[] token) {
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

        static Reply refusal(int status, String code, String message) {
            return of(new Refusal(status, code, message));
        }

        /** The whole HTTP/1.1 response: status line, headers, body; the connection closes after it. */
        byte[] bytes() {
            return bytes(false);
        }

        /** The whole HTTP/1.1 response; {@code keepAlive}: the connection stays open for the next request. */
        byte[] bytes(boolean keepAlive) {
            StringBuilder h = new StringBuilder(256);
            h.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
            if (exitCode >= 0) {
                h.append("X-Warden-Exit: ").append(exitCode).append("\r\n");
            }
            if (stdoutBytes >= 0) {
                h.append("X-Warden-Stdout-Bytes: ").append(stdoutBytes).append("\r\n");
            }
            if (!note.isEmpty()) {
                h.append("X-Warden-Note: ").append(note).append("\r\n");
            }
            if (status == 405) {
                h.append("Allow: POST\r\n");
            }
            if (body.length > 0) {
                h.append("Content-Type: ").append(stdoutBytes >= 0 ? "application/octet-stream"
                        : "application/json; charset=utf-8").append("\r\n");
            }
            h.append("Content-Length: ").append(body.length).append(keepAlive
                    ? "\r\nConnection: keep-alive\r\nKeep-Alive: timeout=" + Front.KEEP_ALIVE_ANNOUNCED_S + "\r\n\r\n"
                    : "\r\nConnection: close\r\n\r\n");
            byte[] head = h.toString().getBytes(StandardCharsets.US_ASCII);
            byte[] all = new byte[head.length + body.length];
            System.arraycopy(head, 0, all, 0, head.length);
            System.arraycopy(body, 0, all, head.length, body.length);
            return all;
        }

        private static String reason(int status) {
            switch (status) {
                case 200: return "OK";
                case 400: return "Bad Request";
                case 401: return "Unauthorized";
                case 404: return "Not Found";
                case 405: return "Method Not Allowed";
                case 411: return "Length Required";
                case 413: return "Payload Too Large";
                case 431: return "Request Header Fields Too Large";
                case 503: return "Service Unavailable";
                default: return "Internal Server Error";
            }
        }
    }
}
