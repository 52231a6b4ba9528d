package dev.agentwarden.dashboard;

import dev.agentwarden.decision.DecisionTail;
import dev.agentwarden.http.RequestHead;
import dev.agentwarden.io.PeerUid;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import dev.agentwarden.report.Report;
import dev.agentwarden.report.ReportHtml;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code warden dashboard}'s server: the report's views ({@link ReportHtml#sections}) on
 * 127.0.0.1, kept current with server-sent events as the decision logs of its projects grow.
 *
 * <p>Who is served: a connection is accepted only when the kernel names its peer as this process's
 * user ({@link PeerUid}, the rule of the resident's host-hook port), and a request only as
 * {@link DashboardGate} allows (this port's {@code Host}, no foreign {@code Origin}, the URL token
 * once, then the session cookie). Anything else gets 403 and no data.
 *
 * <p>Limits: {@code GET} only and no body; the head within {@link #HEAD_DEADLINE_MS} and
 * {@link #HEAD_BYTES}; {@link #MAX_CONNECTIONS} connections at once (one thread each) of which at
 * most {@code maxEventClients} event streams; every write must finish within
 * {@link #WRITE_DEADLINE_MS} or the connection is closed (a watchdog on the poll thread). One
 * request per connection.
 *
 * <p>Live updates: one thread polls each project's {@link DecisionTail} every {@link #POLL_MS};
 * each new decision is sent as a {@code decision} event, and the report is read again and sent as a
 * {@code report} event, no sooner than {@link #MIN_REFRESH_MS} (or twice the last read's time, when
 * longer) after the previous read.
 */
public final class Dashboard implements AutoCloseable {
    static final int HEAD_BYTES = 8 * 1024;
    private static final RequestHead.Limits LIMITS = new RequestHead.Limits(HEAD_BYTES, 100, HEAD_BYTES);
    static final long HEAD_DEADLINE_MS = 5_000;
    static final long WRITE_DEADLINE_MS = 10_000;
    /** How long past a read's own deadline the watchdog waits before it closes the connection. */
    static final long WATCHDOG_GRACE_MS = 2_000;
    static final int MAX_CONNECTIONS = 32;
    /** What {@link #finish} reads and drops at most after an answer, and for how long. */
    static final int DRAIN_BYTES = 64 * 1024;
    static final long DRAIN_MS = 1_000;
    public static final int MAX_EVENT_CLIENTS = 8;
    static final long POLL_MS = 250;
    /** An idle event stream gets a comment this often, which also finds clients that went away. */
    static final long KEEPALIVE_MS = 15_000;
    static final long MIN_REFRESH_MS = 1_000;
    /** Decisions sent per poll at most; the report still counts every one. */
    static final int MAX_DECISIONS_PER_POLL = 100;
    /** Longest {@code asked} text sent in a decision event. */
    static final int ASKED_CHARS = 300;

    /**
     * What a dashboard shows and where.
     *
     * @param port            the port on 127.0.0.1; 0 picks a free one
     * @param roots           the projects whose decision logs and ledgers are read
     * @param sinceIso        the first instant the report counts, or {@code null} for all
     * @param maxEventClients event streams served at once
     */
    public record Settings(int port, List<String> roots, String sinceIso, Clock clock, int maxEventClients) {
        public Settings {
            roots = List.copyOf(roots);
            if (maxEventClients < 1 || maxEventClients > MAX_CONNECTIONS / 2) {
                throw new IllegalArgumentException("event clients " + maxEventClients + " outside 1.." + MAX_CONNECTIONS / 2);
            }
        }
    }

    /** The port was taken: the message says which and what to do. */
    public static final class PortTaken extends IOException {
        PortTaken(int port, BindException cause) {
            super("port " + port + " on 127.0.0.1 is taken (" + cause.getMessage() + "); choose another with --port N, "
                    + "or --port 0 for a free one", cause);
        }
    }

    /** One open connection and the instant its current read or write must end by (0: none pending). */
    private static final class Conn {
        final Socket socket;
        volatile long deadlineNanos;

        Conn(Socket socket) {
            this.socket = socket;
        }
    }

    private final Settings settings;
    private final long headDeadlineMs;
    private final ServerSocket listener;
    private final DashboardGate gate;
    private final String token;
    private final int ownUid = PeerUid.self();
    private final LiveFeed feed;
    private final List<DecisionTail> tails = new ArrayList<>();
    private final Set<Conn> conns = ConcurrentHashMap.newKeySet();
    private final ThreadPoolExecutor workers;
    private final Thread acceptThread;
    private final Thread pollThread;
    private volatile boolean closing;
    private boolean dirty;
    private long lastRefreshNanos;
    private long lastReadNanos;

    private Dashboard(Settings settings, long headDeadlineMs, ServerSocket listener) {
        this.settings = settings;
        this.headDeadlineMs = headDeadlineMs;
        this.listener = listener;
        this.token = DashboardGate.newSecret();
        this.gate = new DashboardGate(listener.getLocalPort(), token, DashboardGate.newSecret());
        this.feed = new LiveFeed(settings.maxEventClients());
        this.workers = new ThreadPoolExecutor(0, MAX_CONNECTIONS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "warden-dashboard-request");
            t.setDaemon(true);
            return t;
        });
        this.acceptThread = new Thread(this::acceptLoop, "warden-dashboard-accept");
        this.pollThread = new Thread(this::pollLoop, "warden-dashboard-poll");
        acceptThread.setDaemon(true);
        pollThread.setDaemon(true);
    }

    /** Binds the port, reads the report once, and starts serving. */
    public static Dashboard start(Settings settings) throws IOException {
        return start(settings, HEAD_DEADLINE_MS);
    }

    /** {@link #start(Settings)} with another time a request head must arrive in (tests on a busy machine). */
    static Dashboard start(Settings settings, long headDeadlineMs) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), settings.port()), 64);
        } catch (BindException e) {
            listener.close();
            throw new PortTaken(settings.port(), e);
        }
        Dashboard d = new Dashboard(settings, headDeadlineMs, listener);
        try {
            for (String root : settings.roots()) {
                d.tails.add(DecisionTail.atEnd(root));
            }
            d.refresh();
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw e;
        }
        d.acceptThread.start();
        d.pollThread.start();
        return d;
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The URL to open: it carries the token, which the first visit trades for a cookie. */
    public String url() {
        return "http://127.0.0.1:" + port() + "/?token=" + token;
    }

    /** Event streams connected now. */
    public int eventClients() {
        return feed.clients();
    }

    /** Stops accepting, closes every connection and waits (bounded) for the threads to end. */
    @Override
    public void close() {
        closing = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Conn c : conns) {
            closeQuietly(c.socket);
        }
        workers.shutdownNow();
        pollThread.interrupt();
        try {
            acceptThread.join(2_000);
            pollThread.join(2_000);
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closing) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (closing) {
                    return;
                }
                continue;
            }
            if (conns.size() >= MAX_CONNECTIONS) {
                closeQuietly(s);
                continue;
            }
            int peer = PeerUid.of((InetSocketAddress) s.getRemoteSocketAddress(), port());
            if (peer == PeerUid.UNKNOWN || peer != ownUid) {
                closeQuietly(s);
                continue;
            }
            Conn c = new Conn(s);
            conns.add(c);
            try {
                workers.execute(() -> serve(c));
            } catch (RejectedExecutionException e) {
                conns.remove(c);
                closeQuietly(s);
            }
        }
    }

    private void serve(Conn c) {
        try (Socket s = c.socket) {
            RequestHead head;
            try {
                long headDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(headDeadlineMs);
                // the read's own timeout answers 408; the watchdog only backs it up
                c.deadlineNanos = headDeadline + TimeUnit.MILLISECONDS.toNanos(WATCHDOG_GRACE_MS);
                head = RequestHead.read(s, LIMITS, headDeadline, null);
                c.deadlineNanos = 0;
                if (!head.originForm()) {
                    throw new RequestHead.Malformed(RequestHead.Problem.BAD_REQUEST_LINE, "the target is not a path");
                }
            } catch (RequestHead.Malformed e) {
                if (e.problem != RequestHead.Problem.CLOSED) {
                    write(c, refusal(e));
                    finish(c);
                }
                return;
            }
            respond(c, head);
            finish(c);
        } catch (IOException e) {
            // the client went away or missed a deadline
        } finally {
            conns.remove(c);
        }
    }

    /** The answer to a head the codec would not read. */
    private static byte[] refusal(RequestHead.Malformed e) {
        switch (e.problem) {
            case TIMEOUT:
                return refusal(408, "head_timeout", "the request head did not arrive in time");
            case TOO_LARGE:
            case LINE_TOO_LONG:
            case TOO_MANY_HEADERS:
                return refusal(431, "head_too_large", e.getMessage());
            case BAD_REQUEST_LINE:
                return refusal(400, "bad_request_line", "not an HTTP/1.x request line in origin form");
            default:
                return refusal(400, "bad_header", e.getMessage());
        }
    }

    private void respond(Conn c, RequestHead head) throws IOException {
        if (!"GET".equals(head.method())) {
            write(c, refusal(405, "method_not_allowed", "the dashboard answers GET only"));
            return;
        }
        String length = head.header("content-length");
        if ((length != null && !length.equals("0")) || head.header("transfer-encoding") != null) {
            write(c, refusal(413, "body_not_accepted", "the dashboard accepts no request body"));
            return;
        }
        if (!gate.hostAllowed(head.header("host"))) {
            write(c, refusal(403, "host_refused", "the Host header must be 127.0.0.1:" + port() + " or localhost:" + port()));
            return;
        }
        if (!gate.originAllowed(head.header("origin"))) {
            write(c, refusal(403, "origin_refused", "requests from another origin are refused"));
            return;
        }
        String offered = head.query("token");
        if (offered != null) {
            if (!"/".equals(head.path()) || !gate.tokenMatches(offered)) {
                write(c, refusal(403, "forbidden", "open the URL warden dashboard printed"));
                return;
            }
            write(c, response(303, "See Other", "text/plain; charset=utf-8", new byte[0],
                    "Location: /\r\nSet-Cookie: " + gate.setCookie() + "\r\n"));
            return;
        }
        if (!gate.cookieMatches(head.header("cookie"))) {
            write(c, refusal(403, "forbidden", "open the URL warden dashboard printed"));
            return;
        }
        switch (head.path()) {
            case "/" -> {
                String nonce = DashboardGate.newSecret();
                byte[] page = DashboardPage.render(feed.sections(), feed.version(), nonce).getBytes(StandardCharsets.UTF_8);
                write(c, response(200, "OK", "text/html; charset=utf-8", page,
                        "Content-Security-Policy: " + DashboardPage.policy(nonce) + "\r\n"));
            }
            case "/events" -> events(c);
            default -> write(c, refusal(404, "not_found", "the dashboard serves / and /events"));
        }
    }

    /** Streams events to one client until it goes, falls behind, or the dashboard closes. */
    private void events(Conn c) throws IOException {
        LiveFeed.Client client = feed.join();
        if (client == null) {
            write(c, refusal(503, "too_many_clients", "at most " + settings.maxEventClients()
                    + " live views at once; close one and reload"));
            return;
        }
        try {
            write(c, ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                    + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\nretry: 2000\n\n").getBytes(StandardCharsets.US_ASCII));
            byte[] keepAlive = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);
            while (!closing && !client.dropped) {
                byte[] event;
                try {
                    event = client.events.poll(KEEPALIVE_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                write(c, event == null ? keepAlive : event);
            }
        } finally {
            feed.leave(client);
        }
    }

    /**
     * Ends an answered connection: no more output, then what the client still sends (an unread
     * body, the rest of an oversized head) is read and dropped, at most {@link #DRAIN_BYTES} within
     * {@link #DRAIN_MS}, so that closing does not reset the connection before the answer is read.
     */
    private static void finish(Conn c) throws IOException {
        Socket s = c.socket;
        s.shutdownOutput();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
        c.deadlineNanos = deadline + TimeUnit.MILLISECONDS.toNanos(WATCHDOG_GRACE_MS);
        byte[] sink = new byte[8192];
        int drained = 0;
        while (drained < DRAIN_BYTES) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return;
            }
            s.setSoTimeout((int) left);
            int r;
            try {
                r = s.getInputStream().read(sink);
            } catch (java.net.SocketTimeoutException e) {
                return;
            }
            if (r < 0) {
                return;
            }
            drained += r;
        }
    }

    /** Writes and flushes {@code bytes}, the watchdog closing the socket when it takes past {@link #WRITE_DEADLINE_MS}. */
    private static void write(Conn c, byte[] bytes) throws IOException {
        c.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WRITE_DEADLINE_MS);
        OutputStream out = c.socket.getOutputStream();
        out.write(bytes);
        out.flush();
        c.deadlineNanos = 0;
    }

    private static byte[] refusal(int status, String code, String message) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("error", code);
        o.put("message", message);
        return response(status, reason(status), "application/json", (Json.write(o) + "\n").getBytes(StandardCharsets.UTF_8), "");
    }

    private static byte[] response(int status, String reason, String type, byte[] body, String extraHeaders) {
        String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: " + type + "\r\nContent-Length: " + body.length
                + "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\n"
                + "Referrer-Policy: no-referrer\r\nConnection: close\r\n" + extraHeaders + "\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 413 -> "Content Too Large";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }

    private void pollLoop() {
        while (!closing) {
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
            expire();
            try {
                poll();
                long now = System.nanoTime();
                long gap = Math.max(TimeUnit.MILLISECONDS.toNanos(MIN_REFRESH_MS), 2 * lastReadNanos);
                if (dirty && now - lastRefreshNanos >= gap) {
                    refresh();
                }
            } catch (IOException | RuntimeException e) {
                feed.problem("cannot read the decision log or ledger: " + e.getMessage());
                dirty = false;
                lastRefreshNanos = System.nanoTime();
            }
        }
    }

    /** Closes connections whose read or write is past its deadline. */
    private void expire() {
        long now = System.nanoTime();
        for (Conn c : conns) {
            long d = c.deadlineNanos;
            if (d != 0 && now - d > 0) {
                closeQuietly(c.socket);
            }
        }
    }

    private void poll() throws IOException {
        int[] sent = {0};
        for (DecisionTail tail : tails) {
            int n = tail.poll(d -> {
                if (sent[0]++ < MAX_DECISIONS_PER_POLL) {
                    feed.decision(Json.write(summary(d, tail.root())));
                }
            });
            dirty |= n > 0;
        }
    }

    /** What the live table shows of a decision line. */
    static Map<String, Object> summary(Map<String, Object> d, String root) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("ts", d.get("ts"));
        o.put("host", d.get("host"));
        o.put("event", d.get("native_event") != null ? d.get("native_event") : d.get("event"));
        o.put("verdict", d.get("verdict"));
        Object asked = d.get("asked");
        o.put("asked", asked instanceof String a && a.length() > ASKED_CHARS ? a.substring(0, ASKED_CHARS) + "…" : asked);
        o.put("session_id", d.get("session_id"));
        o.put("project", root);
        return o;
    }

    private void refresh() throws IOException {
        long start = System.nanoTime();
        Report report = Report.read(settings.roots(), settings.sinceIso(), settings.clock(), ReadProgress.NONE);
        feed.report(ReportHtml.sections(report));
        lastRefreshNanos = System.nanoTime();
        lastReadNanos = lastRefreshNanos - start;
        dirty = false;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
