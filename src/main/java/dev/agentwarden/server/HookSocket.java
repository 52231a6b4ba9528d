package dev.agentwarden.server;

import dev.agentwarden.http.RequestHead;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The resident's socket for the compiled hook: a Unix domain socket {@code <key>.sock} in the
 * resident's private directory, beside the endpoint file. The kernel tells each side who the other
 * is ({@code SO_PEERCRED}), so neither a greeting nor a walk of the TCP socket tables is needed: the
 * client checks that the listener is the process its endpoint file names before it sends a byte,
 * and sends its {@code POST /forward} at once; a worker here serves only a peer of this process's
 * user.
 *
 * <p>Workers: a fixed set, started with the socket, each taking the next connection off the socket
 * itself and serving it to the end, so an event costs no thread and no hand-over. One request per
 * connection: the head within {@link #HEAD_DEADLINE_MS} of the accept and at most
 * {@link #HEAD_BYTES}, checked ({@link WardenServer#checkHookSocket}) before the body is read; the
 * body within {@link #BODY_DEADLINE_MS} of the head and at most {@link Front#BODY_BYTES}; the answer
 * written within {@link #WRITE_DEADLINE_MS}. A connection waits in the kernel's queue while every
 * worker is busy; the client states when it sent ({@code X-Warden-Sent}, {@code CLOCK_MONOTONIC}
 * nanoseconds, the clock of {@link System#nanoTime} on Linux), and an event that waited longer
 * than the server's queue wait gets 503 before it runs, as on the TCP port.
 */
final class HookSocket implements AutoCloseable {
    /** The socket's name in the resident directory: {@code <key>} then this. */
    static final String SUFFIX = ".sock";
    /** The longest socket path the kernel binds ({@code sun_path} less its NUL), in bytes. */
    static final int PATH_BYTES = 107;
    static final int HEAD_BYTES = 16 * 1024;
    static final long HEAD_DEADLINE_MS = 2_000;
    static final long BODY_DEADLINE_MS = 10_000;
    static final long WRITE_DEADLINE_MS = 10_000;
    /** The client's send time, {@code CLOCK_MONOTONIC} nanoseconds. */
    static final String SENT_HEADER = "x-warden-sent";
    private static final long BACKOFF_MS = 50;

    private final Path path;
    private final Object fileKey;
    private final ServerSocketChannel listener;
    private final UserPrincipal owner;
    private final WardenServer server;
    private final Thread[] workers;
    /** Authorized {@code /forward} requests whose head has arrived: real events, for {@link ResidentWarmup}. */
    private final AtomicLong forwardsArrived = new AtomicLong();
    private volatile boolean closed;

    private HookSocket(Path path, Object fileKey, ServerSocketChannel listener, UserPrincipal owner, WardenServer server,
                       int workers) {
        this.path = path;
        this.fileKey = fileKey;
        this.listener = listener;
        this.owner = owner;
        this.server = server;
        this.workers = new Thread[workers];
    }

    /** The socket path for {@code key} in the resident directory {@code dir}. */
    static Path path(Path dir, String key) {
        return dir.resolve(key + SUFFIX);
    }

    /**
     * Binds {@code path} (mode 0600; a socket or symlink left there by a resident that died is
     * replaced: the caller holds the key's lock) and starts {@code workers} workers for {@code server}.
     * The directory's privacy is the caller's to check.
     */
    static HookSocket open(Path path, WardenServer server, int workers) throws IOException {
        if (workers < 1 || workers > 64) {
            throw new IllegalArgumentException("workers " + workers + " is outside 1..64");
        }
        if (path.toString().getBytes(StandardCharsets.UTF_8).length > PATH_BYTES) {
            throw new IOException("hook socket path " + path + " is longer than " + PATH_BYTES
                    + " bytes, which a Unix socket cannot be bound at (a shorter WARDEN_CACHE_DIR)");
        }
        if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isOther() && !a.isSymbolicLink()) {
                throw new IOException("hook socket path " + path + " holds a file or directory; not replacing it (remove it)");
            }
            Files.delete(path);
        }
        ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            listener.bind(UnixDomainSocketAddress.of(path), WardenServer.BACKLOG);
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            HookSocket socket = new HookSocket(path, a.fileKey(), listener,
                    Files.getOwner(path, LinkOption.NOFOLLOW_LINKS), server, workers);
            for (int i = 0; i < workers; i++) {
                Thread t = new Thread(socket::work, "warden-hook-socket-" + (i + 1));
                t.setDaemon(true);
                socket.workers[i] = t;
                t.start();
            }
            return socket;
        } catch (IOException | RuntimeException e) {
            listener.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    Path path() {
        return path;
    }

    /** How many authorized {@code /forward} heads have arrived so far. */
    long forwardsArrived() {
        return forwardsArrived.get();
    }

    /** Stops taking connections and removes the socket (if it is still this one); requests being served finish. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        try {
            BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (fileKey != null && fileKey.equals(a.fileKey())) {
                Files.delete(path);
            }
        } catch (IOException e) {
            // gone already
        }
    }

    /** One worker: takes a connection off the socket and serves it, until the socket closes. */
    private void work() {
        Selector selector;
        try {
            selector = Selector.open();
        } catch (IOException e) {
            return;
        }
        ByteBuffer head = ByteBuffer.allocate(HEAD_BYTES);
        try {
            while (!closed) {
                SocketChannel ch;
                try {
                    ch = listener.accept();
                } catch (ClosedChannelException e) {
                    return;
                } catch (IOException e) {
                    // out of descriptors, or a connection reset before it was taken: pause, not spin
                    pause();
                    continue;
                }
                Connection c = new Connection(ch, selector);
                try {
                    c.serve(head);
                } catch (IOException | RuntimeException e) {
                    // the client went away, or missed a deadline
                } finally {
                    c.close();
                }
            }
        } finally {
            try {
                selector.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(BACKOFF_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One accepted connection, read and written without blocking, under deadlines. */
    private final class Connection {
        private final SocketChannel ch;
        private final Selector selector;
        private final long acceptedNanos = System.nanoTime();
        private SelectionKey key;

        Connection(SocketChannel ch, Selector selector) {
            this.ch = ch;
            this.selector = selector;
        }

        void serve(ByteBuffer head) throws IOException {
            UnixDomainPrincipal peer = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (peer == null || !owner.equals(peer.user())) {
                return;
            }
            ch.configureBlocking(false);
            head.clear();
            long deadline = acceptedNanos + TimeUnit.MILLISECONDS.toNanos(HEAD_DEADLINE_MS);
            int end;
            while ((end = RequestHead.end(head.array(), 0, head.position())) < 0) {
                if (!head.hasRemaining()) {
                    send(Reply.refusal(431, "head_too_large", "the request head exceeds " + HEAD_BYTES + " bytes"));
                    return;
                }
                if (!read(head, deadline)) {
                    return;
                }
            }
            RequestHead h;
            try {
                h = RequestHead.parse(head.array(), end, Front.LIMITS);
                if (!h.originForm()) {
                    throw new RequestHead.Malformed(RequestHead.Problem.BAD_REQUEST_LINE, "the target is not a path");
                }
            } catch (RequestHead.Malformed e) {
                send(Front.refusal(e));
                return;
            }
            String path = h.target();
            Reply refusal = server.checkHookSocket(h.method(), path, h.header("authorization"));
            if (refusal != null) {
                send(refusal);
                return;
            }
            if (!WardenServer.STATUS_PATH.equals(path)) {
                forwardsArrived.incrementAndGet();
            }
            boolean counted = true;
            try {
                long length = h.header("transfer-encoding") != null ? -1
                        : RequestHead.digits(h.header("content-length"), 10, 0);
                if (length < 0 || length > Front.BODY_BYTES || head.position() - end > length) {
                    send(Reply.refusal(400, "bad_request", "send one request per connection with a Content-Length"
                            + " of at most " + Front.BODY_BYTES + " bytes"));
                    return;
                }
                byte[] body = new byte[(int) length];
                ByteBuffer b = ByteBuffer.wrap(body);
                b.put(head.array(), end, head.position() - end);
                deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BODY_DEADLINE_MS);
                while (b.hasRemaining()) {
                    if (!read(b, deadline)) {
                        return;
                    }
                }
                long now = System.nanoTime();
                long sentNanos = RequestHead.digits(h.header(SENT_HEADER), 19, 0);
                long waited = sentNanos > 0 && sentNanos <= now ? now - sentNanos : now - acceptedNanos;
                counted = false;
                byte[] answer = server.answerHookSocket(path, body, waited);
                write(ByteBuffer.wrap(answer), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WRITE_DEADLINE_MS));
                ch.shutdownOutput();
            } finally {
                if (counted) {
                    server.abandonedHookSocket();
                }
            }
        }

        /** Reads what has arrived into {@code b}, waiting until {@code deadline}; {@code false} at its end or past it. */
        private boolean read(ByteBuffer b, long deadline) throws IOException {
            for (;;) {
                int n = ch.read(b);
                if (n < 0) {
                    return false;
                }
                if (n > 0) {
                    return true;
                }
                if (!await(SelectionKey.OP_READ, deadline)) {
                    return false;
                }
            }
        }

        private void write(ByteBuffer b, long deadline) throws IOException {
            while (b.hasRemaining()) {
                if (ch.write(b) == 0 && !await(SelectionKey.OP_WRITE, deadline)) {
                    throw new IOException("the client read no answer within " + WRITE_DEADLINE_MS + " ms");
                }
            }
        }

        private void send(Reply reply) throws IOException {
            write(ByteBuffer.wrap(reply.bytes()), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WRITE_DEADLINE_MS));
            ch.shutdownOutput();
        }

        /** Waits until the channel is ready for {@code ops} or {@code deadline} passes; {@code false} when it passed. */
        private boolean await(int ops, long deadline) throws IOException {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return false;
            }
            if (key == null) {
                key = ch.register(selector, ops);
            } else {
                key.interestOps(ops);
            }
            selector.select(left);
            selector.selectedKeys().clear();
            return true;
        }

        /** Deregisters (so the descriptor is released now) and closes. */
        void close() {
            try {
                if (key != null) {
                    key.cancel();
                    selector.selectNow();
                }
            } catch (IOException e) {
                // closing anyway
            }
            try {
                ch.close();
            } catch (IOException e) {
                // already gone
            }
        }
    }
}
