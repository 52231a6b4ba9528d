package dev.agentwarden.server;

import dev.agentwarden.inventory.InventoryCache;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.io.OwnedPath;
import java.io.IOException;
import java.net.BindException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The resident server: a {@link WardenServer} that {@code bin/warden dispatch} starts in the
 * background and then hands events to ({@code POST /forward}) instead of starting a JVM per event.
 * It stops itself after an idle period.
 *
 * <p>Files in its directory, per key (the first 16 hex digits of the jar's SHA-256, so a new jar
 * never talks to an old server):
 * <ul>
 *   <li>{@code <key>.endpoint}: {@code PORT TOKEN PID START PROOF}, one line, mode 0600; present
 *       while it serves. {@code START} is the process's start time ({@code /proc/PID/stat} field 22),
 *       so a reused PID is told apart; {@code PROOF} is what the server greets each connection of
 *       its own user with, so a launcher can tell it from whatever else listens on the port.
 *   <li>{@code <key>.sock}: the compiled hook's Unix socket ({@link HookSocket}), mode 0600, bound
 *       before the endpoint is written and removed when it stops; absent when it cannot be bound
 *       (a path too long for a Unix socket), and then the hook uses the port.
 *   <li>{@code <key>.lock}: locked while it runs, so at most one resident per key and directory.
 *   <li>{@code <key>.starting}: the launcher's start marker, removed once the endpoint is written.
 * </ul>
 * The directory must exist: a resident never creates it, so one that starts while its directory is
 * being deleted fails instead of serving a directory no launcher looks in. It must be private
 * ({@link #requirePrivate}), and the lock is opened without following a symlink.
 */
public final class Resident {
    /** How long the server waits after the last request before it stops, unless told otherwise. */
    public static final Duration DEFAULT_IDLE = Duration.ofMinutes(30);
    /**
     * Request threads. Forwarded events arrive concurrently (parallel tool calls, subagents) and a
     * process concern may hold its thread for its whole timeout, so more than {@code warden serve}'s
     * default.
     */
    static final int THREADS = 16;
    /**
     * How long stopping waits for events being answered: a process concern's default timeout plus
     * margin. Launchers arriving meanwhile find no endpoint (it is withdrawn first) or a refused
     * connection, and use a JVM.
     */
    static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /** How long stopping waits for the warm-up to finish its event and remove its scratch directory. */
    static final long WARMUP_STOP_MS = 2_000;
    /**
     * How long a starting resident waits for the hook port once another resident was asked to hand
     * it over (an older one stopping finishes the events it is answering first).
     */
    static final Duration HAND_OVER_WAIT = Duration.ofSeconds(5);

    private final WardenServer server;
    /** The compiled hook's socket, or {@code null} when it could not be bound. */
    private final HookSocket hookSocket;
    private final Path endpoint;
    private final String token;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final Path dir;
    private final String key;
    private final Clock clock;
    /** {@link #activity} before the endpoint was published, so before any real event could arrive. */
    private final long quietActivity;
    private ResidentWarmup warmup;
    private Thread warmupThread;
    private boolean closed;

    private Resident(WardenServer server, HookSocket hookSocket, Path endpoint, String token, FileChannel lockChannel,
                     FileLock lock, Path dir, String key, Clock clock) {
        this.dir = dir;
        this.quietActivity = activity(server, hookSocket);
        this.clock = clock;
        this.key = key;
        this.server = server;
        this.hookSocket = hookSocket;
        this.endpoint = endpoint;
        this.token = token;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** A resident's address, credential, process identity and proof, as its endpoint file states them. */
    public record Endpoint(int port, String token, long pid, long startTicks, String proof) {
        /** The fields of the file's one line, in order, as the launcher reads them. */
        public static final String FIELDS = "port token pid start proof";

        /** The file's one line. */
        String line() {
            return port + " " + token + " " + pid + " " + startTicks + " " + proof + "\n";
        }
    }

    /**
     * Takes the key's lock, starts serving on a free loopback port and publishes the endpoint.
     *
     * @return the running resident, or {@code null} when another one already holds the key
     */
    public static Resident start(Path dir, String key, Map<String, String> env, Clock clock) throws IOException {
        checkKey(key);
        requirePrivate(dir);
        Path lockFile = dir.resolve(key + ".lock");
        if (Files.isSymbolicLink(lockFile)) {
            throw new IOException("resident lock " + lockFile + " is a symlink; not opening it (remove it)");
        }
        FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            return null;
        }
        WardenServer server = null;
        HookSocket socket = null;
        try {
            String token = ServeState.newToken();
            String proof = ServeState.newToken();
            long pid = ProcessHandle.current().pid();
            long start = ProcessIdentity.startTicks(pid);
            if (start < 0) {
                throw new IOException("cannot read this process's start time from /proc/" + pid + "/stat");
            }
            WardenServer.HookPort hooks = HookPorts.read(dir);
            try {
                server = WardenServer.startResident(token, proof, THREADS, env, clock, hooks);
            } catch (BindException e) {
                if (hooks == null) {
                    throw e;
                }
                server = takeHookPort(dir, key, token, proof, env, clock, hooks);
                if (server == null) {
                    // Someone else holds the HTTP hook port: serve the launcher anyway, and say so where
                    // `resident status` looks.
                    System.err.println("warden resident: HTTP hook port 127.0.0.1:" + hooks.port() + " is taken ("
                            + e.getMessage() + ") and no resident handed it over; serving command hooks only");
                    server = WardenServer.startResident(token, proof, THREADS, env, clock);
                }
            }
            try {
                socket = HookSocket.open(HookSocket.path(dir, key), server, THREADS);
            } catch (IOException e) {
                System.err.println("warden resident: no hook socket (" + e.getMessage() + "); the compiled hook uses"
                        + " port " + server.port());
            }
            Path endpoint = endpointFile(dir, key);
            // before the endpoint is published: no real event can have arrived yet
            Resident resident = new Resident(server, socket, endpoint, token, channel, lock, dir, key, clock);
            ServeState.writeOwnerOnly(endpoint, new Endpoint(server.port(), token, pid, start, proof).line());
            Files.deleteIfExists(dir.resolve(key + ".starting"));
            InventoryCache.keepInThisProcess();
            return resident;
        } catch (IOException | RuntimeException e) {
            if (socket != null) {
                socket.close();
            }
            if (server != null) {
                server.close();
            }
            lock.release();
            channel.close();
            throw e;
        }
    }

    /**
     * The server with the hook port taken over from the resident that holds it (an older jar's,
     * after an upgrade: {@link HookPortHandOver}), or {@code null} when none handed it over within
     * {@link #HAND_OVER_WAIT}: every transport then reaches the newest jar.
     */
    private static WardenServer takeHookPort(Path dir, String key, String token, String proof, Map<String, String> env,
                                             Clock clock, WardenServer.HookPort hooks) throws IOException {
        for (String line : HookPortHandOver.ask(dir, key)) {
            System.err.println("warden resident: hook port hand-over: " + line);
        }
        long deadline = System.nanoTime() + HAND_OVER_WAIT.toNanos();
        while (true) {
            try {
                WardenServer server = WardenServer.startResident(token, proof, THREADS, env, clock, hooks);
                System.err.println("warden resident: took over HTTP hook port 127.0.0.1:" + hooks.port());
                return server;
            } catch (BindException e) {
                if (System.nanoTime() > deadline) {
                    return null;
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /**
     * Refuses a directory that is missing or not this user's alone by the {@link OwnedPath} rule:
     * anyone who can write it could plant links that turn the resident's lock and log writes
     * against this user, or files a launcher would trust.
     */
    public static void requirePrivate(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("resident directory " + dir + " does not exist (removed while the resident started?)");
        }
        String problem = OwnedPath.problem(dir);
        if (problem != null) {
            throw new IOException("resident directory " + dir + " is not private (" + problem
                    + "); not serving from it; use a directory only this user can write (WARDEN_CACHE_DIR)");
        }
    }

    /** Opens {@code file} for appending (created 0600), never through a symlink. */
    public static java.io.OutputStream openLog(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new IOException("resident log " + file + " is a symlink; not writing through it (remove it)");
        }
        return java.nio.channels.Channels.newOutputStream(Files.newByteChannel(file, java.util.Set.of(
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"))));
    }

    public WardenServer server() {
        return server;
    }

    /**
     * Starts the {@link ResidentWarmup} in the background, unless {@code env} (the resident's own)
     * turns it off; it reports how it ended to {@code log}.
     */
    public synchronized void warmUp(Map<String, String> env, java.io.PrintWriter log) {
        if (closed || warmup != null || !ResidentWarmup.enabled(env)) {
            return;
        }
        warmup = new ResidentWarmup(ResidentWarmup.scratch(dir, key), CacheDir.root(env), hookSocket(), token,
                () -> activity(server, hookSocket), quietActivity, ResidentWarmup.Limits.DEFAULT, clock, log);
        warmupThread = warmup.start();
    }

    /** A number that moves whenever a real event arrives at {@code socket} or ends on any transport of {@code server}. */
    private static long activity(WardenServer server, HookSocket socket) {
        return (socket == null ? 0 : socket.forwardsArrived()) + server.forwardedCount() + server.lastActivityMillis();
    }

    /** The compiled hook's socket, or {@code null} when this resident serves none. */
    Path hookSocket() {
        return hookSocket == null ? null : hookSocket.path();
    }

    /**
     * Blocks until no request has arrived for {@code idle}, or until its endpoint file no longer
     * names it (deleted with its cache directory, or taken over), since no launcher can find it then;
     * then stops.
     */
    public void serveUntilIdle(Duration idle) throws InterruptedException {
        long limit = idle.toMillis();
        long poll = Math.max(50, Math.min(limit / 4, 10_000));
        while ((server.idleMillis() < limit || holdsConfiguredHookPort()) && published()) {
            String died = server.frontDied();
            if (died != null) {
                // a port that answers nothing must not stay offered: withdrawn, the next launcher starts a new resident
                System.err.println("warden resident: stopping, a port no longer serves (" + died + ")");
                break;
            }
            Thread.sleep(Math.min(poll, 1_000));
        }
        close();
    }

    /**
     * Whether this resident serves the HTTP hook port that {@code http-hooks} still names. Such a
     * resident does not stop when idle: a host's HTTP hook whose server is gone fails open, and the
     * free port could be taken by another user, so it keeps the port until uninstall removes the file,
     * {@code warden resident stop} stops it, or a newer resident asks for it ({@code POST /hand-over}:
     * then it holds none, and idles out).
     */
    boolean holdsConfiguredHookPort() {
        int held = server.hookPort();
        if (held < 0) {
            return false;
        }
        WardenServer.HookPort configured = HookPorts.read(endpoint.getParent());
        return configured != null && configured.port() == held;
    }

    private boolean published() {
        Endpoint current = read(endpoint);
        return current != null && current.token().equals(token);
    }

    /**
     * Withdraws the endpoint (if it is still ours), stops serving and releases the key.
     *
     * @return whether this call stopped it ({@code false} when it was already stopped)
     */
    public synchronized boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        if (warmup != null) {
            warmup.stop();
            try {
                warmupThread.join(WARMUP_STOP_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (published()) {
            try {
                Files.deleteIfExists(endpoint);
            } catch (IOException e) {
                // a stale endpoint only costs a launcher one refused connection
            }
        }
        if (hookSocket != null) {
            hookSocket.close();
        }
        server.close(STOP_GRACE);
        InventoryCache.closeAll();
        try {
            if (lock.isValid()) {
                lock.release();
            }
            lockChannel.close();
        } catch (IOException e) {
            // the lock dies with the process
        }
        return true;
    }

    /**
     * Asks a resident process to stop (SIGTERM: it withdraws its endpoint and finishes the events
     * it is answering) and waits up to {@code wait} for it, then kills it.
     */
    public static void terminate(ProcessHandle process, Duration wait) throws InterruptedException {
        process.destroy();
        try {
            process.onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
        }
    }

    /**
     * The live process an endpoint names, if it is that resident: owned by this user, started at the
     * recorded time (not a later process given the same PID) and running {@code resident start}
     * for {@code key}.
     */
    public static Optional<ProcessHandle> process(Endpoint endpoint, String key) {
        Optional<ProcessHandle> process = ProcessHandle.of(endpoint.pid());
        if (process.isEmpty() || !ProcessIdentity.ownedByMe(endpoint.pid())
                || ProcessIdentity.startTicks(endpoint.pid()) != endpoint.startTicks()) {
            return Optional.empty();
        }
        List<String> args = ProcessIdentity.cmdline(endpoint.pid());
        int at = args.indexOf("resident");
        boolean resident = at >= 0 && at + 1 < args.size() && args.get(at + 1).equals("start");
        int k = args.indexOf("--key");
        boolean ourKey = k >= 0 && k + 1 < args.size() && args.get(k + 1).equals(key);
        return resident && ourKey ? process : Optional.empty();
    }

    public static Path endpointFile(Path dir, String key) {
        checkKey(key);
        return dir.resolve(key + ".endpoint");
    }

    /** The endpoint a file states, or {@code null} when it is absent or not one line {@code PORT TOKEN PID START PROOF}. */
    public static Endpoint read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return null;
        }
        String[] parts = text.split(" ");
        if (parts.length != 5 || !parts[1].matches("[0-9a-f]{64}") || !parts[4].matches("[0-9a-f]{64}")) {
            return null;
        }
        try {
            return new Endpoint(Integer.parseInt(parts[0]), parts[1], Long.parseLong(parts[2]), Long.parseLong(parts[3]),
                    parts[4]);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static void checkKey(String key) {
        if (key == null || !key.matches("[0-9a-f]{16}")) {
            throw new IllegalArgumentException("resident key '" + key + "' is not 16 lowercase hex digits");
        }
    }
}
