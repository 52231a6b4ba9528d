package dev.agentwarden.server;

import dev.agentwarden.http.RequestHead;
import dev.agentwarden.io.PeerUid;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The front of {@link WardenServer}: one thread that accepts loopback connections and reads each
 * request's head and body without blocking, under deadlines, so that a slow, silent or flooding
 * client holds a socket and a buffer but never a worker. Only a request whose head the {@link Gate}
 * accepts (a valid token) and whose body has fully arrived is handed over. A socket stays
 * non-blocking and registered throughout, its selection key reading nothing while a worker has it.
 *
 * <p>Limits: the head within {@link #HEAD_DEADLINE_MS} of the accept and at most {@link #HEAD_BYTES};
 * the body within {@link #BODY_DEADLINE_MS} of the head and at most {@link #BODY_BYTES}; at most
 * {@link #PER_PEER} connections being read per peer user, and {@link #TOTAL} in all: a new
 * connection past either limit closes that user's (or anyone's) oldest connection whose head is
 * still incomplete, so a flood cannot shut out a client that sends its request at once. Accepting
 * is cheap so that a flood does not fill the kernel's accept queue: every pending connection is
 * accepted at once, one that its peer already closed is dropped unread, and the users behind the
 * rest are resolved with one pass over the socket tables ({@link PeerUid#ofAll}).
 *
 * <p>Keep-alive: a worker that answered a request may give its connection back ({@link #keep});
 * the front then reads the next request on it as on a new connection, under the same caps, with
 * {@link #KEEP_ALIVE_MS} for its head to arrive. A request whose head arrived with more bytes than
 * its body (a pipelined next request) is not kept ({@link Request#keepable}).
 */
final class Front implements Runnable {
    static final int HEAD_BYTES = 16 * 1024;
    /** The caps of a head here and on the {@link HookSocket}: {@link #HEAD_BYTES}, 100 header lines of at most 8 KiB. */
    static final RequestHead.Limits LIMITS = new RequestHead.Limits(HEAD_BYTES, 100, 8 * 1024);
    /**
     * The head buffer a connection starts with; it doubles, up to {@link #HEAD_BYTES}, only for a
     * head that does not fit. A host hook's head and a small body fit in one read.
     */
    static final int FIRST_HEAD_BYTES = 2 * 1024;
    static final long HEAD_DEADLINE_MS = 2_000;
    static final long BODY_DEADLINE_MS = 10_000;
    /**
     * How long a kept connection may wait for its next request's head: longer than the
     * {@code Keep-Alive: timeout} the server announces ({@link #KEEP_ALIVE_ANNOUNCED_S}), so that a
     * client closes an idle connection before the server does and never sends into a closing one.
     */
    static final long KEEP_ALIVE_MS = 10_000;
    static final int KEEP_ALIVE_ANNOUNCED_S = 5;
    /** Twice the default payload cap plus the launcher's records (argv and environment) with room to spare. */
    static final int BODY_BYTES = 32 * 1024 * 1024;
    static final int PER_PEER = 32;
    static final int TOTAL = 512;
    /** The most connections accepted before the front reads and serves again. */
    static final int ACCEPT_BATCH = 4096;
    private static final long TICK_MS = 100;
    /** The first and the longest pause after a failed accept (EMFILE, ENFILE, ENOBUFS...), doubling in between. */
    static final long ACCEPT_BACKOFF_FIRST_MS = 10;
    static final long ACCEPT_BACKOFF_MAX_MS = 500;

    /** Takes the next pending connection off the listener, or {@code null} when none is pending. */
    interface Acceptor {
        SocketChannel accept() throws IOException;
    }

    /** What the server decides at the two points where the front needs a decision. */
    interface Gate {
        /** The bytes a new connection gets first (possibly none), or {@code null} to close it at once. */
        byte[] greeting(int peerUid);

        /** A reply to send instead of reading the body (a refusal), or {@code null} to read it. */
        Reply check(Head head);

        /** A complete, accepted request; the gate now owns its socket (blocking). */
        void accepted(Request request);

        /** A request {@link #check} accepted was dropped before it was complete. */
        void abandoned();
    }

    /** A parsed request line and headers (names lower-cased; a repeated header keeps its first value). */
    record Head(String method, String path, Map<String, String> headers) {
        String header(String name) {
            return headers.get(name);
        }
    }

    /**
     * A complete request.
     *
     * @param channel  non-blocking, as the front reads it
     * @param keepable whether nothing beyond its body has been read, so that its connection can
     *                 carry the next request
     * @param key      the channel's registration with the front, reading nothing until {@link #keep}
     */
    record Request(Head head, byte[] body, SocketChannel channel, int peerUid, boolean keepable, SelectionKey key) {
    }

    private final ServerSocketChannel listener;
    private final Acceptor acceptor;
    /** Accepts that failed in a row; 0 once one succeeds. */
    private int acceptFailures;
    /** Why the loop ended other than by {@link #stop}, or {@code null}. */
    private volatile String died;
    private final Selector selector;
    private final Gate gate;
    private final int serverPort;
    private final Map<Integer, ArrayDeque<Conn>> byPeer = new HashMap<>();
    private final ArrayDeque<Conn> all = new ArrayDeque<>();
    /** Where a new connection's first bytes are read before it is known to be worth a buffer of its own. */
    private final ByteBuffer scratch = ByteBuffer.allocate(HEAD_BYTES);
    /** Connections workers gave back after answering, to be read again. */
    private final ConcurrentLinkedQueue<Request> kept = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;
    /** When {@link #expire} last looked. */
    private long lastExpiry = System.nanoTime();

    Front(ServerSocketChannel listener, Gate gate) throws IOException {
        this(listener, gate, listener::accept);
    }

    /** A front whose connections come from {@code acceptor} (the listener's own accept, or a test's). */
    Front(ServerSocketChannel listener, Gate gate, Acceptor acceptor) throws IOException {
        this.listener = listener;
        this.acceptor = acceptor;
        this.gate = gate;
        this.serverPort = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        this.selector = Selector.open();
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    /**
     * Gives the connection of an answered {@code request} back, to read its next request. Any
     * thread; the connection is closed when the front has stopped.
     */
    void keep(Request request) {
        kept.add(request);
        selector.wakeup();
        if (stopping) {
            closeKept();
        }
    }

    /** A worker closed a connection it had: the front lets go of its registration now rather than at its next tick. */
    void closed() {
        selector.wakeup();
    }

    private void closeKept() {
        Request r;
        while ((r = kept.poll()) != null) {
            close(r.channel());
        }
    }

    /** Stops accepting and closes every connection still being read. */
    void stop() {
        stopping = true;
        selector.wakeup();
    }

    @Override
    public void run() {
        try {
            while (!stopping) {
                selector.select(TICK_MS);
                List<Conn> complete = new ArrayList<>();
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        acceptAll(complete);
                    } else if (key.isReadable()) {
                        Conn c = (Conn) key.attachment();
                        if (read(c)) {
                            complete.add(c);
                        }
                    }
                }
                resumeKept();
                expire();
                if (!complete.isEmpty()) {
                    handOver(complete);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the selector failed: nothing more can be served; say so, so the server stops being offered
            if (!stopping) {
                died = String.valueOf(e);
                System.err.println("warden: the front of port " + serverPort + " stopped: " + e);
            }
        } finally {
            closeKept();
            for (Conn c : new ArrayList<>(all)) {
                if (c.head != null && !c.draining) {
                    gate.abandoned();
                }
                drop(c);
            }
            try {
                selector.close();
                listener.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    /**
     * Accepts every pending connection (up to {@link #ACCEPT_BATCH}), drops those whose peer has
     * already closed, resolves the users behind the rest with one pass over the socket tables, and
     * closes at once those the gate refuses. Cheap per connection, so that a flood of connections
     * is taken off the kernel's queue faster than it fills.
     */
    private void acceptAll(List<Conn> complete) throws IOException {
        List<SocketChannel> batch = new ArrayList<>();
        List<ByteBuffer> early = new ArrayList<>();
        List<InetSocketAddress> peers = new ArrayList<>();
        SocketChannel ch;
        IOException failed = null;
        while (batch.size() < ACCEPT_BATCH) {
            try {
                ch = acceptor.accept();
            } catch (IOException e) {
                // a transient failure (too many open files, no buffers): the connection stays queued
                failed = e;
                break;
            }
            if (ch == null) {
                break;
            }
            ByteBuffer head = null;
            InetSocketAddress peer;
            try {
                ch.configureBlocking(false);
                // what arrived with the connection: a peer that already closed needs no answer
                scratch.clear();
                int n = ch.read(scratch);
                if (n < 0) {
                    ch.close();
                    continue;
                }
                if (n > 0) {
                    head = ByteBuffer.allocate(Math.max(FIRST_HEAD_BYTES, n));
                    head.put(scratch.flip());
                }
                peer = (InetSocketAddress) ch.getRemoteAddress();
            } catch (IOException e) {
                close(ch);
                continue;
            }
            batch.add(ch);
            early.add(head);
            peers.add(peer);
        }
        if (failed != null) {
            acceptFailed(failed);
        } else if (acceptFailures > 0) {
            System.err.println("warden: port " + serverPort + " accepts again after " + acceptFailures + " failed accept(s)");
            acceptFailures = 0;
        }
        if (batch.isEmpty()) {
            return;
        }
        int[] uids = PeerUid.ofAll(peers, serverPort);
        for (int i = 0; i < batch.size(); i++) {
            admit(batch.get(i), uids[i], early.get(i), complete);
        }
    }

    /**
     * A failed accept: logged at the first failure of a run (and every 100th), then a pause that
     * doubles from {@link #ACCEPT_BACKOFF_FIRST_MS} to {@link #ACCEPT_BACKOFF_MAX_MS}, so that the
     * front neither spins nor gives up while descriptors are short; the connection waits in the
     * kernel's queue and is accepted once one is free.
     */
    private void acceptFailed(IOException e) {
        acceptFailures++;
        long pause = Math.min(ACCEPT_BACKOFF_MAX_MS, ACCEPT_BACKOFF_FIRST_MS << Math.min(acceptFailures - 1, 10));
        if (acceptFailures == 1 || acceptFailures % 100 == 0) {
            System.err.println("warden: port " + serverPort + " could not accept a connection (" + e.getMessage()
                    + "; failure " + acceptFailures + " in a row); retrying in " + pause + " ms");
        }
        try {
            Thread.sleep(pause);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }

    /** Why the front stopped serving on its own (the selector failed), or {@code null} while it serves or after {@link #stop}. */
    String died() {
        return died;
    }

    /** Greets or closes one accepted connection; {@code head} holds what it sent already, or is {@code null}. */
    private void admit(SocketChannel ch, int uid, ByteBuffer head, List<Conn> complete) throws IOException {
        byte[] greeting = gate.greeting(uid);
        if (greeting == null) {
            close(ch);
            return;
        }
        if (greeting.length > 0) {
            ByteBuffer g = ByteBuffer.wrap(greeting);
            try {
                ch.write(g);
            } catch (IOException e) {
                close(ch);
                return;
            }
            if (g.hasRemaining()) {
                close(ch);
                return;
            }
        }
        Conn c = new Conn(ch, uid, System.nanoTime(), head != null ? head : ByteBuffer.allocate(FIRST_HEAD_BYTES));
        ArrayDeque<Conn> mine = byPeer.computeIfAbsent(uid, u -> new ArrayDeque<>());
        if (mine.size() >= PER_PEER) {
            evictOldestIncomplete(mine);
        }
        if (all.size() >= TOTAL) {
            evictOldestIncomplete(all);
        }
        if (mine.size() >= PER_PEER || all.size() >= TOTAL) {
            if (mine.isEmpty()) {
                byPeer.remove(uid);
            }
            close(ch);
            return;
        }
        mine.addLast(c);
        all.addLast(c);
        c.key = ch.register(selector, SelectionKey.OP_READ, c);
        // bytes that came with the connection may already be a whole request: no read event will say so
        if (head != null && read(c)) {
            complete.add(c);
        }
    }

    /** Reads kept connections again, each as a new connection of its user (same caps). */
    private void resumeKept() {
        Request r;
        while ((r = kept.poll()) != null) {
            SocketChannel ch = r.channel();
            if (!r.key().isValid()) {
                close(ch);
                continue;
            }
            Conn c = new Conn(ch, r.peerUid(), System.nanoTime(), ByteBuffer.allocate(FIRST_HEAD_BYTES));
            c.headDeadlineMs = KEEP_ALIVE_MS;
            ArrayDeque<Conn> mine = byPeer.computeIfAbsent(c.uid, u -> new ArrayDeque<>());
            if (mine.size() >= PER_PEER || all.size() >= TOTAL) {
                if (mine.isEmpty()) {
                    byPeer.remove(c.uid);
                }
                close(ch);
                continue;
            }
            mine.addLast(c);
            all.addLast(c);
            c.key = r.key();
            try {
                c.key.attach(c);
                c.key.interestOps(SelectionKey.OP_READ);
            } catch (CancelledKeyException e) {
                drop(c);
            }
        }
    }

    private void evictOldestIncomplete(ArrayDeque<Conn> queue) {
        for (Conn c : queue) {
            if (c.head == null || c.draining) {
                drop(c);
                return;
            }
        }
    }

    /** Reads what has arrived; {@code true} once the request is complete and accepted. */
    private boolean read(Conn c) {
        try {
            if (c.draining) {
                c.headBuffer.clear();
                if (c.channel.read(c.headBuffer) < 0) {
                    drop(c);
                }
                return false;
            }
            if (c.head == null) {
                int end;
                while (true) {
                    int n = c.channel.read(c.headBuffer);
                    end = headEnd(c.headBuffer);
                    if (end >= 0) {
                        break;
                    }
                    if (n < 0 || !c.headBuffer.hasRemaining() && c.headBuffer.capacity() >= HEAD_BYTES) {
                        refuse(c, n < 0 ? null : Reply.refusal(431, "head_too_large",
                                "the request head exceeds " + HEAD_BYTES + " bytes"));
                        return false;
                    }
                    if (c.headBuffer.hasRemaining()) {
                        return false;
                    }
                    // full but under the cap: a larger head, perhaps more of it waiting
                    c.headBuffer = grown(c.headBuffer);
                }
                Head head;
                try {
                    head = head(c.headBuffer, end);
                } catch (RequestHead.Malformed e) {
                    refuse(c, refusal(e));
                    return false;
                }
                Reply refusal = gate.check(head);
                if (refusal == null) {
                    refusal = bodyProblem(head);
                    if (refusal != null) {
                        gate.abandoned();
                    }
                }
                if (refusal != null) {
                    refuse(c, refusal);
                    return false;
                }
                c.head = head;
                c.body = new byte[(int) contentLength(head)];
                c.headDoneAt = System.nanoTime();
                int extra = c.headBuffer.position() - end;
                c.pipelined = extra > c.body.length;
                System.arraycopy(c.headBuffer.array(), end, c.body, 0, Math.min(extra, c.body.length));
                c.filled = Math.min(extra, c.body.length);
                c.headBuffer = null;
                if ("100-continue".equalsIgnoreCase(head.header("expect")) && c.filled < c.body.length) {
                    c.channel.write(ByteBuffer.wrap("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
                }
            } else {
                int n = c.channel.read(ByteBuffer.wrap(c.body, c.filled, c.body.length - c.filled));
                if (n < 0) {
                    gate.abandoned();
                    drop(c);
                    return false;
                }
                c.filled += n;
            }
            return c.filled == c.body.length;
        } catch (IOException e) {
            if (c.head != null && !c.draining) {
                gate.abandoned();
            }
            drop(c);
            return false;
        }
    }

    /** A buffer of twice {@code b}'s capacity (at most {@link #HEAD_BYTES}) holding what {@code b} holds. */
    static ByteBuffer grown(ByteBuffer b) {
        ByteBuffer larger = ByteBuffer.allocate(Math.min(HEAD_BYTES, b.capacity() * 2));
        return larger.put(b.flip());
    }

    /** Closes connections past their deadline; looks at most once a tick (deadlines are seconds). */
    private void expire() {
        long now = System.nanoTime();
        if (now - lastExpiry < TICK_MS * 1_000_000) {
            return;
        }
        lastExpiry = now;
        for (Conn c : new ArrayList<>(all)) {
            if ((c.head == null || c.draining) && now - c.acceptedAt > c.headDeadlineMs * 1_000_000) {
                drop(c);
            } else if (c.head != null && !c.draining && now - c.headDoneAt > BODY_DEADLINE_MS * 1_000_000) {
                gate.abandoned();
                drop(c);
            }
        }
    }

    /** Hands complete requests to the gate; each connection's key stays registered, reading nothing. */
    private void handOver(List<Conn> complete) {
        for (Conn c : complete) {
            forget(c);
            try {
                c.key.interestOps(0);
            } catch (CancelledKeyException e) {
                gate.abandoned();
                close(c.channel);
                continue;
            }
            gate.accepted(new Request(c.head, c.body, c.channel, c.uid, !c.pipelined, c.key));
        }
    }

    /**
     * Sends a refusal, then reads and discards what the client still sends until it closes or the
     * head deadline passes: closing with unread input would reset the connection and could destroy
     * the refusal before the client reads it.
     */
    private void refuse(Conn c, Reply reply) {
        if (reply == null) {
            drop(c);
            return;
        }
        try {
            c.channel.write(ByteBuffer.wrap(reply.bytes()));
            c.channel.shutdownOutput();
        } catch (IOException e) {
            drop(c);
            return;
        }
        c.draining = true;
        c.headBuffer = ByteBuffer.allocate(4096);
        c.acceptedAt = System.nanoTime();
        c.headDeadlineMs = HEAD_DEADLINE_MS;
    }

    private void drop(Conn c) {
        if (c.key != null) {
            c.key.cancel();
        }
        forget(c);
        close(c.channel);
    }

    private void forget(Conn c) {
        all.remove(c);
        ArrayDeque<Conn> mine = byPeer.get(c.uid);
        if (mine != null) {
            mine.remove(c);
            if (mine.isEmpty()) {
                byPeer.remove(c.uid);
            }
        }
    }

    private static void close(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // already gone
        }
    }

    private static Reply bodyProblem(Head head) {
        if (head.header("transfer-encoding") != null) {
            return Reply.refusal(411, "length_required", "send the body with Content-Length, not Transfer-Encoding");
        }
        long length = contentLength(head);
        if (length < 0) {
            return Reply.refusal(400, "bad_request", "Content-Length '" + head.header("content-length")
                    + "' is not a number of bytes");
        }
        if (length > BODY_BYTES) {
            return Reply.refusal(413, "body_too_large", "the body exceeds " + BODY_BYTES + " bytes");
        }
        return null;
    }

    /** The declared body length (0 when absent), or -1 when it is not plain digits. */
    static long contentLength(Head head) {
        return RequestHead.digits(head.header("content-length"), 10, 0);
    }

    /** The offset just past the blank line that ends the head, or -1 when it has not arrived. */
    static int headEnd(ByteBuffer b) {
        return RequestHead.end(b.array(), 0, b.position());
    }

    /** The request line and headers, or {@code null} when they are not HTTP/1.x in origin form. */
    static Head parse(ByteBuffer b, int end) {
        try {
            return head(b, end);
        } catch (RequestHead.Malformed e) {
            return null;
        }
    }

    private static Head head(ByteBuffer b, int end) throws RequestHead.Malformed {
        RequestHead h = RequestHead.parse(b.array(), end, LIMITS);
        if (!h.originForm()) {
            throw new RequestHead.Malformed(RequestHead.Problem.BAD_REQUEST_LINE, "the target is not a path");
        }
        return new Head(h.method(), h.path(), h.headerMap());
    }

    /** The refusal of a head the codec would not read. */
    static Reply refusal(RequestHead.Malformed e) {
        switch (e.problem) {
            case BAD_REQUEST_LINE:
            case BAD_HEADER:
                return Reply.refusal(400, "bad_request", "the request head is not HTTP/1.1");
            case TOO_LARGE:
            case LINE_TOO_LONG:
            case TOO_MANY_HEADERS:
                return Reply.refusal(431, "head_too_large", e.getMessage());
            default:
                return Reply.refusal(400, "bad_request", e.getMessage());
        }
    }

    /** One connection being read. */
    private static final class Conn {
        final SocketChannel channel;
        final int uid;
        /** When it was accepted, or when its refusal was sent while draining. */
        long acceptedAt;
        /** How long after {@link #acceptedAt} its head (or, draining, its end) may take. */
        long headDeadlineMs = HEAD_DEADLINE_MS;
        boolean draining;
        /** More bytes than the body arrived with the head. */
        boolean pipelined;
        SelectionKey key;
        ByteBuffer headBuffer;
        Head head;
        long headDoneAt;
        byte[] body;
        int filled;

        Conn(SocketChannel channel, int uid, long acceptedAt, ByteBuffer headBuffer) {
            this.channel = channel;
            this.headBuffer = headBuffer;
            this.uid = uid;
            this.acceptedAt = acceptedAt;
        }
    }
}
