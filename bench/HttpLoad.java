import com.sun.net.httpserver.HttpServer;
import dev.agentwarden.server.WardenServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Loopback HTTP load against {@code POST /dispatch/claude/PreToolUse} of a {@link WardenServer}
 * (warden serve's and the resident hook port's request handling) and, alternately, against a bare
 * JDK {@link HttpServer} that answers every request with a fixed empty 200 (the floor).
 *
 * <p>Per round and server: a latency phase (one keep-alive connection, sequential requests: p50 and
 * p99 of the round trip) and a throughput phase ({@code CONNS} keep-alive connections, each
 * sequential, until {@code TOTAL} requests or {@code SECONDS} have passed: hooks/s, errors, and the
 * CPU time (user and system) the server's own threads spent per request, which other load on the
 * machine changes far less than it changes hooks/s). An error is a connection failure or an answer
 * other than 200. Medians over the rounds are printed.
 *
 *   java -cp target/warden.jar [-DdecisionLog=off] bench/HttpLoad.java [ROUNDS] [LATENCY_REQUESTS] [CONNS] [TOTAL] [SECONDS]
 */
public final class HttpLoad {
    public static void main(String[] a) throws Exception {
        int rounds = a.length > 0 ? Integer.parseInt(a[0]) : 5;
        int latencyRequests = a.length > 1 ? Integer.parseInt(a[1]) : 5000;
        int conns = a.length > 2 ? Integer.parseInt(a[2]) : 4;
        int total = a.length > 3 ? Integer.parseInt(a[3]) : 50000;
        int seconds = a.length > 4 ? Integer.parseInt(a[4]) : 10;
        byte[] payload = Files.readAllBytes(Path.of(System.getProperty("payload", "bench/pretooluse-bash.json")));
        Path work = Files.createTempDirectory("warden-httpload");
        Path project = Files.createDirectories(work.resolve("project"));
        Map<String, String> env = new HashMap<>();
        env.put("WARDEN_CACHE_DIR", work.resolve("cache").toString());
        env.put("HOME", work.toString());
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        if ("off".equals(System.getProperty("decisionLog"))) {
            env.put("WARDEN_DECISION_LOG", "off");
        }
        String token = "0".repeat(64);
        WardenServer warden = WardenServer.start(0, project.toString(), null, token, 4, env, Clock.systemUTC());
        HttpServer bare = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        bare.createContext("/", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        ExecutorService bareWorkers = Executors.newFixedThreadPool(4);
        bare.setExecutor(bareWorkers);
        bare.start();
        String path = "/dispatch/claude/PreToolUse";
        byte[] wardenRequest = request(path, token, payload);
        byte[] bareRequest = request(path, token, payload);
        int wardenPort = warden.port();
        int barePort = bare.getAddress().getPort();
        // Warm-up: both servers compiled and every dispatch class loaded.
        latency(wardenPort, wardenRequest, 20000);
        latency(barePort, bareRequest, 20000);
        double[][] w = new double[rounds][], b = new double[rounds][];
        for (int r = 0; r < rounds; r++) {
            b[r] = concat(latency(barePort, bareRequest, latencyRequests),
                    throughput(barePort, bareRequest, conns, total, seconds, BARE_THREADS));
            w[r] = concat(latency(wardenPort, wardenRequest, latencyRequests),
                    throughput(wardenPort, wardenRequest, conns, total, seconds, WARDEN_THREADS));
        }
        warden.close();
        bare.stop(0);
        // its workers are not daemons: without this the JVM outlives the run
        bareWorkers.shutdown();
        System.out.printf("rounds %d, latency %d sequential requests on 1 keep-alive connection; throughput %d connections,"
                + " at most %d requests or %d s; payload %d bytes; cores %d; load %s%n", rounds, latencyRequests, conns, total,
                seconds, payload.length, Runtime.getRuntime().availableProcessors(),
                Files.readString(Path.of("/proc/loadavg")).strip());
        System.out.printf("%-34s %9s %9s %12s %8s %14s%n", "", "p50 ms", "p99 ms", "hooks/s", "errors", "server CPU µs");
        print("bare JDK HttpServer, empty 200", b);
        print("warden /dispatch (default chain)", w);
        System.out.printf("ratio warden/bare p50 %.2f, p99 %.2f, throughput %.2f, server CPU per request %.2f%n",
                median(w, 0) / median(b, 0), median(w, 1) / median(b, 1), median(w, 2) / median(b, 2),
                median(w, 4) / median(b, 4));
    }

    private static void print(String name, double[][] rows) {
        System.out.printf("%-34s %9.3f %9.3f %12.0f %8.0f %14.1f%n", name, median(rows, 0), median(rows, 1), median(rows, 2),
                Arrays.stream(rows).mapToDouble(r -> r[3]).sum(), median(rows, 4));
    }

    private static double median(double[][] rows, int column) {
        double[] v = Arrays.stream(rows).mapToDouble(r -> r[column]).sorted().toArray();
        return v[v.length / 2];
    }

    private static double[] concat(double[] x, double[] y) {
        return new double[] {x[0], x[1], y[0], x[2] + y[1], y[2]};
    }

    private static byte[] request(String path, String token, byte[] body) {
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] all = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /** p50 ms, p99 ms, errors of {@code n} sequential requests on one connection. */
    private static double[] latency(int port, byte[] request, int n) throws IOException {
        long[] took = new long[n];
        int errors = 0;
        Client c = new Client(port);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            if (!c.exchange(request)) {
                errors++;
                c.close();
                c = new Client(port);
            }
            took[i] = System.nanoTime() - t0;
        }
        c.close();
        Arrays.sort(took);
        return new double[] {took[n / 2] / 1e6, took[(int) (n * 0.99)] / 1e6, errors};
    }

    /** Names the server threads start with: the bare server's dispatcher and its executor's pool; warden's front and workers. */
    private static final String[] BARE_THREADS = {"HTTP-Dispatcher", "pool-"};
    private static final String[] WARDEN_THREADS = {"warden-front", "warden-hook-front", "warden-serve-"};

    /**
     * hooks/s, errors, and server CPU µs per request of {@code conns} connections until
     * {@code total} requests or {@code seconds}.
     */
    private static double[] throughput(int port, byte[] request, int conns, int total, int seconds, String[] server)
            throws Exception {
        long cpu0 = serverCpuNanos(server);
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] threads = new Thread[conns];
        long t0 = System.nanoTime();
        for (int i = 0; i < conns; i++) {
            threads[i] = new Thread(() -> {
                try {
                    Client c = new Client(port);
                    while (done.getAndIncrement() < total && System.nanoTime() < deadline) {
                        if (!c.exchange(request)) {
                            errors.incrementAndGet();
                            c.close();
                            c = new Client(port);
                        }
                    }
                    c.close();
                } catch (IOException e) {
                    errors.incrementAndGet();
                }
            });
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        double secondsTaken = (System.nanoTime() - t0) / 1e9;
        long completed = Math.min(done.get(), total);
        double cpuPerRequest = (serverCpuNanos(server) - cpu0) / 1e3 / Math.max(1, completed);
        return new double[] {(completed - errors.get()) / secondsTaken, errors.get(), cpuPerRequest};
    }

    /** CPU time so far of the live threads whose names start with one of {@code prefixes}. */
    private static long serverCpuNanos(String[] prefixes) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null) {
                continue;
            }
            for (String p : prefixes) {
                if (t.getThreadName().startsWith(p)) {
                    sum += Math.max(0, mx.getThreadCpuTime(t.getThreadId()));
                    break;
                }
            }
        }
        return sum;
    }

    /** One keep-alive connection: writes a request, reads the status line, headers and body. */
    private static final class Client {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final byte[] buf = new byte[65536];
        private int at;
        private int len;

        Client(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
        }

        boolean exchange(byte[] request) {
            try {
                out.write(request);
                out.flush();
                String status = line();
                long length = 0;
                boolean close = false;
                for (String h = line(); !h.isEmpty(); h = line()) {
                    String lower = h.toLowerCase();
                    if (lower.startsWith("content-length:")) {
                        length = Long.parseLong(h.substring(15).trim());
                    } else if (lower.startsWith("connection:") && lower.contains("close")) {
                        close = true;
                    }
                }
                for (long i = 0; i < length; i++) {
                    if (read() < 0) {
                        return false;
                    }
                }
                return status.startsWith("HTTP/1.1 200") && !close;
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        private int read() throws IOException {
            if (at == len) {
                len = in.read(buf);
                at = 0;
                if (len <= 0) {
                    len = 0;
                    return -1;
                }
            }
            return buf[at++] & 0xff;
        }

        private String line() throws IOException {
            StringBuilder b = new StringBuilder(64);
            int c;
            while ((c = read()) >= 0 && c != '\n') {
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            if (c < 0) {
                throw new IOException("closed");
            }
            return b.toString();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // gone
            }
        }
    }
}
