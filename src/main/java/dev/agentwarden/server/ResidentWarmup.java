package dev.agentwarden.server;

import dev.agentwarden.dispatch.DispatchRuntime;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.http.RequestHead;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.trust.ProjectManifest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The resident's warm-up: right after it starts listening, synthetic events run through the code a
 * forwarded event takes (the request head read as {@link HookSocket} reads it, {@link ForwardRequest},
 * the dispatch, the decision line, the answer rendered), so that the JIT has compiled that path before
 * a host's first tool calls arrive instead of during them; every few events a status query goes over
 * the hook socket itself, so its connection code is compiled too.
 *
 * <p>What it may touch: only its scratch directory {@code <key>.warmup} in the (private) resident
 * directory, created 0700 and removed at the end, which holds the project its events name and the
 * state directory its trust lookups read. Its events carry an environment of its own, not the
 * resident's (no project-directory variable, no capture directory, no {@code WARDEN_*} setting but
 * the resident's own cache directory, whose compiled built-in manifest real events read too; its home
 * and XDG directories in the scratch directory, so trust store and user state are fresh and its own),
 * so the project is the scratch one and the manifest in force is the built-in default, which runs only
 * built-in concerns: no process, no network. It checks that before the first event and does not run
 * otherwise.
 *
 * <p>Bounds: at most {@link #MAX_EVENTS} events, {@link #MAX_WALL_MS} of wall time and
 * {@link #MAX_CPU_MS} of the process's CPU time (all its threads, the JIT's included), and it rests
 * after each event as long as the event took, so it uses at most about half a core. It stops at once
 * when a real event arrives (the activity it is given moves), since real events then compile the path
 * themselves and must not share the CPU with synthetic ones.
 */
final class ResidentWarmup implements Runnable {
    static final int MAX_EVENTS = 3000;
    static final long MAX_WALL_MS = 8_000;
    static final long MAX_CPU_MS = 1_000;
    /** One status query over the hook socket per this many events. */
    static final int SOCKET_EVERY = 8;
    static final long SOCKET_DEADLINE_MS = 2_000;
    /** The scratch directory's name in the resident directory: {@code <key>} then this. */
    static final String SUFFIX = ".warmup";
    /** {@code WARDEN_RESIDENT_WARMUP=0} in the resident's environment turns it off. */
    static final String SWITCH = "WARDEN_RESIDENT_WARMUP";
    /** The Linux clock tick of {@code /proc/self/stat}'s CPU fields (USER_HZ), in ms. */
    private static final long TICK_MS = 10;

    /** How a warm-up ended. */
    record Result(int events, long wallMs, long cpuMs, String stopped) {
        String line() {
            return "warden resident: warm-up ran " + events + " synthetic events in " + wallMs + " ms (" + cpuMs
                    + " ms CPU); stopped: " + stopped;
        }
    }

    /** Per-run bounds; {@link #DEFAULT} in the resident. */
    record Limits(int events, long wallMs, long cpuMs) {
        static final Limits DEFAULT = new Limits(MAX_EVENTS, MAX_WALL_MS, MAX_CPU_MS);
    }

    private final Path scratch;
    private final Path cacheRoot;
    private final Path socket;
    private final String token;
    private final LongSupplier activity;
    private final long quiet;
    private final Limits limits;
    private final Clock clock;
    private final PrintWriter log;
    private volatile boolean stopping;
    private volatile Result result;

    /**
     * @param cacheRoot the resident's Warden cache directory, whose compiled built-in manifest its
     *                  events read as real ones do (compiling it there if absent, as a real one would)
     * @param socket   the hook socket to send status queries to, or {@code null} for none
     * @param activity a count that moves when a real event arrives on any transport
     * @param quiet    what {@code activity} said before any real event could arrive (before the
     *                 endpoint was published): a real event that comes before this thread runs counts too
     */
    ResidentWarmup(Path scratch, Path cacheRoot, Path socket, String token, LongSupplier activity, long quiet,
                   Limits limits, Clock clock, PrintWriter log) {
        this.scratch = scratch;
        this.cacheRoot = cacheRoot;
        this.socket = socket;
        this.token = token;
        this.activity = activity;
        this.quiet = quiet;
        this.limits = limits;
        this.clock = clock;
        this.log = log;
    }

    /** The scratch directory for {@code key} in the resident directory {@code dir}. */
    static Path scratch(Path dir, String key) {
        return dir.resolve(key + SUFFIX);
    }

    /** Whether the resident's environment leaves the warm-up on. */
    static boolean enabled(Map<String, String> env) {
        return !"0".equals(env.get(SWITCH));
    }

    /** Starts it on a daemon thread of the lowest priority (a hint Linux may ignore; the bounds hold anyway). */
    Thread start() {
        Thread t = new Thread(this, "warden-resident-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return t;
    }

    /** Asks it to stop after the event it is running. */
    void stop() {
        stopping = true;
    }

    /** How it ended, or {@code null} while it runs. */
    Result result() {
        return result;
    }

    @Override
    public void run() {
        Result r;
        try {
            r = warmUp();
        } catch (IOException | RuntimeException e) {
            r = new Result(0, 0, 0, "failed (" + e + ")");
        } finally {
            try {
                removeTree(scratch);
            } catch (IOException e) {
                if (log != null) {
                    log.println("warden resident: warm-up scratch " + scratch + " not removed: " + e.getMessage());
                }
            }
        }
        result = r;
        if (log != null) {
            log.println(r.line());
            log.flush();
        }
    }

    private Result warmUp() throws IOException {
        long startNanos = System.nanoTime();
        long startCpu = cpuMillis();
        removeTree(scratch);
        Files.createDirectory(scratch, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path project = Files.createDirectory(scratch.resolve("project"));
        Path state = Files.createDirectory(scratch.resolve("state"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", scratch.toString());
        // every per-user directory a dispatch may read or write (trust store, compiled manifests, state)
        for (String xdg : new String[] {"XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"}) {
            env.put(xdg, state.toString());
        }
        env.put("WARDEN_CACHE_DIR", cacheRoot.toString());
        env.put("PATH", "/usr/bin:/bin");
        env.put("LANG", "C.UTF-8");
        try {
            if (ProjectManifest.resolve(null, project.toString(), env).source() != ManifestLoader.builtinDefault()) {
                return new Result(0, 0, 0, "the scratch project's manifest is not the built-in default; not run");
            }
        } catch (ManifestException e) {
            return new Result(0, 0, 0, "the scratch project's manifest does not resolve (" + e.getMessage() + "); not run");
        }
        byte[][] requests = new byte[PAYLOADS.length][];
        for (int i = 0; i < PAYLOADS.length; i++) {
            requests[i] = request(project, env, PAYLOADS[i][0], PAYLOADS[i][1].replace("$PROJECT", jsonString(project)));
        }
        byte[] status = head("/status", 0);
        ProcessAttributes own = ProcessAttributes.self();
        String stopped = "after " + limits.events() + " events";
        int events = 0;
        try (DispatchRuntime runtime = DispatchRuntime.longLived(clock)) {
            while (events < limits.events()) {
                if (stopping) {
                    stopped = "the resident stopped";
                    break;
                }
                if (activity.getAsLong() != quiet) {
                    stopped = "a real event arrived";
                    break;
                }
                long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
                if (wallMs >= limits.wallMs()) {
                    stopped = "time cap " + limits.wallMs() + " ms";
                    break;
                }
                if (events % 32 == 0 && cpuMillis() - startCpu >= limits.cpuMs()) {
                    stopped = "CPU cap " + limits.cpuMs() + " ms";
                    break;
                }
                long t = System.nanoTime();
                byte[] request = requests[events % requests.length];
                int end = RequestHead.end(request, 0, request.length);
                RequestHead h;
                try {
                    h = RequestHead.parse(request, end, Front.LIMITS);
                } catch (RequestHead.Malformed e) {
                    throw new IllegalStateException("a warm-up request the hook socket would refuse: " + e.getMessage(), e);
                }
                byte[] body = Arrays.copyOfRange(request, end, end + (int) h.contentLength());
                ResidentForward.answer(body, own, runtime).bytes();
                if (socket != null && events % SOCKET_EVERY == 0) {
                    exchange(status);
                }
                events++;
                // rest as long as the event took: at most about half a core
                LockSupport.parkNanos(System.nanoTime() - t);
            }
        }
        return new Result(events, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                cpuMillis() - startCpu, stopped);
    }

    /** The synthetic events: native event, payload of {@link Hosts#warmup()}'s host ({@code $PROJECT}: the project, as a JSON string). */
    private static final String[][] PAYLOADS = {
            {"PreToolUse", "{\"session_id\":\"warden-warmup\",\"cwd\":$PROJECT,\"hook_event_name\":\"PreToolUse\","
                    + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo hello\",\"description\":\"Print hello\"},"
                    + "\"tool_use_id\":\"toolu_warmup\"}"},
            {"PostToolUse", "{\"session_id\":\"warden-warmup\",\"cwd\":$PROJECT,\"hook_event_name\":\"PostToolUse\","
                    + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{\"stdout\":\"a\\nb\","
                    + "\"stderr\":\"\",\"interrupted\":false},\"tool_use_id\":\"toolu_warmup\"}"},
            {"PreToolUse", "{\"session_id\":\"warden-warmup\",\"cwd\":$PROJECT,\"hook_event_name\":\"PreToolUse\","
                    + "\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"README.md\"},\"tool_use_id\":\"toolu_warmup\"}"},
    };

    /** The compiled hook's request for one event in {@code project}: head and warden-forward/1 body. */
    private byte[] request(Path project, Map<String, String> env, String nativeEvent, String payload)
            throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(4096);
        record(b, ForwardRequest.MAGIC);
        record(b, "d" + project);
        for (String a : new String[] {"dispatch", "--host", Hosts.warmup().id(), "--native-event", nativeEvent}) {
            record(b, "a" + a);
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            record(b, "e" + e.getKey() + "=" + e.getValue());
        }
        String status = readOrEmpty("/proc/self/status");
        int u = status.indexOf("\nUmask:");
        if (u >= 0) {
            int eol = status.indexOf('\n', u + 1);
            record(b, "u" + status.substring(u + 7, eol < 0 ? status.length() : eol).strip());
        }
        for (String line : readOrEmpty("/proc/self/limits").split("\n")) {
            if (!line.isEmpty()) {
                record(b, "l" + line);
            }
        }
        b.write(0);
        b.write(payload.getBytes(StandardCharsets.UTF_8));
        byte[] body = b.toByteArray();
        ByteArrayOutputStream r = new ByteArrayOutputStream(body.length + 256);
        r.write(head("/forward", body.length));
        r.write(body);
        return r.toByteArray();
    }

    private byte[] head(String path, int length) {
        return ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token + "\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: " + length + "\r\n"
                + "X-Warden-Sent: " + System.nanoTime() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void record(ByteArrayOutputStream b, String text) {
        b.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        b.write(0);
    }

    private static String jsonString(Path p) {
        StringBuilder b = new StringBuilder();
        Json.quote(b, p.toString());
        return b.toString();
    }

    /** Sends {@code request} over the hook socket and reads the answer to its end, under {@link #SOCKET_DEADLINE_MS}. */
    private void exchange(byte[] request) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SOCKET_DEADLINE_MS);
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX); Selector selector = Selector.open()) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.configureBlocking(false);
            SelectionKey key = ch.register(selector, SelectionKey.OP_WRITE);
            ByteBuffer out = ByteBuffer.wrap(request);
            ByteBuffer in = ByteBuffer.allocate(4096);
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return;
                }
                if (out.hasRemaining()) {
                    ch.write(out);
                    if (!out.hasRemaining()) {
                        key.interestOps(SelectionKey.OP_READ);
                    }
                } else {
                    in.clear();
                    if (ch.read(in) < 0) {
                        return;
                    }
                }
                selector.select(left);
                selector.selectedKeys().clear();
            }
        }
    }

    /** This process's CPU time so far (user and system, all threads), in ms; 0 when {@code /proc} cannot say. */
    static long cpuMillis() {
        String stat = readOrEmpty("/proc/self/stat");
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return 0;
        }
        // fields after the command: state (3) ... utime (14), stime (15)
        String[] f = stat.substring(close + 2).split(" ");
        if (f.length < 13) {
            return 0;
        }
        try {
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_MS;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String readOrEmpty(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    /** Removes {@code dir} and what it holds, following no symlink (a link is removed, not its target). */
    static void removeTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
