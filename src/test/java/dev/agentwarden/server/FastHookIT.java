package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.testing.ResidentProcess;
import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.ResourceLockTarget;

/**
 * The compiled hook ({@code bin/warden build-hook}, {@code src/main/c/warden-hook.c}) when the
 * resident cannot answer: it hands the event to {@code bin/warden} (which answers from a JVM) or
 * applies the fail mode, and sends nothing to a peer that has not proved it is the resident; and
 * how it reaches a live resident: its Unix socket, whose listener the kernel names, else its port.
 * Needs a C compiler.
 */
/* Beside the other classes, on the parallel pool, its cases too (each has a cache, resident directory and fakes of its
   own, and takes the class's lock for reading), except those that take it for writing and so run alone: a real
   resident that must answer within a short deadline, and a loopback port just freed (which a fake beside it could bind). */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(value = FastHookIT.ALONE, mode = ResourceAccessMode.READ, target = ResourceLockTarget.CHILDREN)
class FastHookIT {
    /** The lock a case holds for writing to run without the class's other cases beside it. */
    static final String ALONE = "FastHookIT";
    private static final String NO_VERIFY = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";
    private static final List<String> DISPATCH = List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse");

    /** The hook built once for the class (no case here tests the build), and where in a cache it lies. */
    private static Path buildDir;
    private static Path builtHook;
    private static Path hookInCache;

    private Path dir;
    private Path residentDir;
    private Path hook;
    private Map<String, String> env;

    @BeforeAll
    static void buildHookOnce() throws Exception {
        assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler: the compiled hook cannot be built here");
        buildDir = Files.createTempDirectory("warden-fasthook-it-build");
        Path cache = Files.createDirectory(buildDir.resolve("cache"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Map<String, String> env = Map.of("WARDEN_CACHE_DIR", cache.toString(), "HOME", buildDir.toString());
        WardenProcess.Result built = WardenProcess.runLauncher(List.of("build-hook"), env, new byte[0], buildDir);
        assertThat(built.exitCode()).as(built.stderr()).isZero();
        builtHook = Path.of(built.stdout().strip());
        assertThat(builtHook.toString()).startsWith(cache.toString()).endsWith("/bin/warden");
        hookInCache = cache.relativize(builtHook);
    }

    @AfterAll
    static void deleteBuild() {
        dev.agentwarden.testing.Scratch.delete(buildDir);
    }

    /** A fresh cache holding the class's hook where {@code build-hook} puts it, with its times (so it is current). */
    @BeforeEach
    void copyHook() throws Exception {
        dir = Files.createTempDirectory("warden-fasthook-it");
        Path cache = Files.createDirectory(dir.resolve("cache"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        residentDir = Files.createDirectory(cache.resolve("resident"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path project = Files.createDirectories(dir.resolve("project"));
        env = new LinkedHashMap<>();
        env.put("WARDEN_CACHE_DIR", cache.toString());
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        env.put("HOME", dir.toString());
        hook = cache.resolve(hookInCache);
        for (Path d = cache; !d.equals(hook.getParent()); ) {
            d = d.resolve(hook.getParent().getName(d.getNameCount()));
            Files.createDirectory(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        // cp -p: its mode and times to the nanosecond (this JVM's own copy keeps microseconds), by a process of its own
        // (see WardenProcess.copyExecutable).
        Process cp = new ProcessBuilder("cp", "-p", builtHook.toString(), hook.toString()).redirectErrorStream(true).start();
        String out = new String(cp.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cp.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("cp -p " + builtHook).isTrue();
        assertThat(cp.exitValue()).as("cp -p " + builtHook + ": " + out).isZero();
    }

    /** Stops a resident the launcher started for this case (a fallback starts one), then deletes the case's folder. */
    @AfterEach
    void stopResident() throws Exception {
        if (dir != null) {
            ResidentProcess.stopStartedIn(dir.resolve("cache"));
            dev.agentwarden.testing.Scratch.delete(dir);
        }
    }

    @Test
    void fastHook_noResident_fallsBackToTheLauncherAndAnswers() throws Exception {
        WardenProcess.Result r = runHook();
        assertDeny(r);
    }

    @Test
    void fastHook_staleEndpoint_deadProcess_connectsNowhereAndAnswersFromTheLauncher() throws Exception {
        try (FakeResident fake = new FakeResident("0".repeat(64), FakeResident.Behaviour.GREET_ONLY)) {
            writeEndpoint(fake.port(), 999_999_999L, 1, "0".repeat(64));
            assertDeny(runHook());
            assertThat(fake.connections.get()).as("connections to the stale endpoint's port").isZero();
        }
    }

    @Test
    void fastHook_endpointStartTimeIsAnotherProcesses_connectsNowhere() throws Exception {
        long me = ProcessHandle.current().pid();
        try (FakeResident fake = new FakeResident("0".repeat(64), FakeResident.Behaviour.GREET_ONLY)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me) + 1, "0".repeat(64));
            assertDeny(runHook());
            assertThat(fake.connections.get()).isZero();
        }
    }

    @Test
    void fastHook_wrongProof_sendsNothingAndAnswersFromAJvm() throws Exception {
        long me = ProcessHandle.current().pid();
        try (FakeResident fake = new FakeResident("1".repeat(64), FakeResident.Behaviour.GREET_ONLY)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), "2".repeat(64));
            WardenProcess.Result r = runHook();
            assertDeny(r);
            assertThat(r.stderr()).contains("did not prove");
            fake.awaitDone();
            assertThat(fake.connections.get()).isEqualTo(1);
            assertThat(fake.received.size()).as("bytes sent to the unproven peer").isZero();
        }
    }

    @Test
    void fastHook_foreignOwnedEndpoint_isNotUsed() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file to another user");
        long me = ProcessHandle.current().pid();
        String proof = "3".repeat(64);
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.GREET_ONLY)) {
            Path endpoint = writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            Files.setAttribute(endpoint, "unix:uid", 65534);
            assertDeny(runHook());
            assertThat(fake.connections.get()).isZero();
        }
    }

    @Test
    void fastHook_residentTakesTheEventAndNeverAnswers_failsOpenWithANote() throws Exception {
        long me = ProcessHandle.current().pid();
        String proof = "4".repeat(64);
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.TAKE_AND_HOLD)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "1");
            WardenProcess.Result r = runHook();
            assertThat(r.exitCode()).isZero();
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).contains("took this event but gave no answer within 1 s; allowing");
            assertThat(fake.requests.get()).as("whole requests the fake received").isEqualTo(1);
        }
    }

    @Test
    void fastHook_sendsTheEventInOneWriteRightAfterTheProof_noSecondRoundTrip() throws Exception {
        long me = ProcessHandle.current().pid();
        String proof = "6".repeat(64);
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.ANSWER_AT_ONCE)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            WardenProcess.Result r = runHook();
            assertThat(r.exitCode()).as(r.stderr()).isEqualTo(7);
            assertThat(r.stdout()).isEqualTo("OUT!");
            assertThat(r.stderr()).contains("ERR!");
            assertThat(fake.requests.get()).isEqualTo(1);
        }
    }

    @Test
    void fastHook_busyResidentRefusesWith503_eventEvaluatedInAJvm() throws Exception {
        long me = ProcessHandle.current().pid();
        String proof = "7".repeat(64);
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.BUSY)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            WardenProcess.Result r = runHook();
            assertDeny(r);
            assertThat(r.stderr()).contains("evaluating this event in a new JVM");
            assertThat(fake.requests.get()).isEqualTo(1);
        }
    }

    @Test
    void fastHook_residentNeverAnswers_failModeClosed_refuses() throws Exception {
        long me = ProcessHandle.current().pid();
        String proof = "5".repeat(64);
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.TAKE_AND_HOLD)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "1");
            env.put("WARDEN_FAIL_MODE", "closed");
            WardenProcess.Result r = runHook();
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.stderr()).contains("refusing (WARDEN_FAIL_MODE=closed)");
        }
    }

    /**
     * The fail mode's answers on stdout are each host's launcher contract, compiled in from bin/warden's
     * host block: "no opinion" where the host requires one (Codex's Stop), and the closed refusal with
     * its own exit code where the host reads it on stdout (Copilot's preToolUse: JSON and exit 0).
     */
    @Test
    void fastHook_residentNeverAnswers_failModeAnswersAreTheHostsLauncherContract() throws Exception {
        long me = ProcessHandle.current().pid();
        String proof = "8".repeat(64);
        env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "1");
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.TAKE_AND_HOLD)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            WardenProcess.Result r = runHook(List.of("dispatch", "--host", "codex", "--native-event", "Stop"));
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            assertThat(r.stdout()).isEqualTo("{}");
        }
        env.put("WARDEN_FAIL_MODE", "closed");
        try (FakeResident fake = new FakeResident(proof, FakeResident.Behaviour.TAKE_AND_HOLD)) {
            writeEndpoint(fake.port(), me, ProcessIdentity.startTicks(me), proof);
            WardenProcess.Result r = runHook(List.of("dispatch", "--host", "copilot", "--native-event", "preToolUse"));
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            assertThat(r.stdout()).isEqualTo("{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
                    + "\"[warden] Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)\"}");
            assertThat(r.stderr()).contains("refusing (WARDEN_FAIL_MODE=closed)");
        }
    }

    @Test
    @ResourceLock(ALONE)
    void fastHook_residentsSocket_answersWithoutThePort() throws Exception {
        try (ResidentProcess resident = ResidentProcess.start(dir.resolve("cache"), 600);
             FakeResident port = new FakeResident(resident.endpoint().proof(), FakeResident.Behaviour.GREET_ONLY)) {
            Resident.Endpoint e = resident.endpoint();
            // the endpoint's port is now an impostor's that knows the proof: only the socket can give the answer
            writeEndpointLine(port.port(), e.token(), e.pid(), e.startTicks(), e.proof());
            Path calls = dir.resolve("java-calls");
            env.putAll(ResidentProcess.noJvm(ResidentProcess.forbiddenJava(dir, calls)));
            env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "2");

            WardenProcess.Result r = runHook();

            assertDeny(r);
            assertThat(r.stderr()).doesNotContain("new JVM").doesNotContain("no answer");
            assertThat(port.connections.get()).as("connections to the endpoint's port").isZero();
            ResidentProcess.assertNoJvmStarted(calls);
        }
    }

    @Test
    @ResourceLock(ALONE)
    void fastHook_socketGone_fallsBackToThePortWithTheSameVerdict() throws Exception {
        try (ResidentProcess resident = ResidentProcess.start(dir.resolve("cache"), 600)) {
            Path calls = dir.resolve("java-calls");
            env.putAll(ResidentProcess.noJvm(ResidentProcess.forbiddenJava(dir, calls)));
            WardenProcess.Result viaSocket = runHook();
            Path socket = residentDir.resolve(ResidentProcess.jarKey() + HookSocket.SUFFIX);
            assertThat(Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)).as("the resident's socket").isTrue();
            Files.delete(socket);

            WardenProcess.Result viaPort = runHook();

            assertDeny(viaSocket);
            assertDeny(viaPort);
            assertThat(viaPort.stdout()).isEqualTo(viaSocket.stdout());
            assertThat(viaPort.stderr()).doesNotContain("new JVM");
            ResidentProcess.assertNoJvmStarted(calls);
        }
    }

    @Test
    @ResourceLock(ALONE)
    void hookSocket_inWorldWritableDir_isRefused() throws Exception {
        long me = ProcessHandle.current().pid();
        try (FakeSocket fake = new FakeSocket(residentDir.resolve(key() + HookSocket.SUFFIX))) {
            writeEndpoint(deadPort(), me, ProcessIdentity.startTicks(me), "8".repeat(64));
            Files.setPosixFilePermissions(residentDir, PosixFilePermissions.fromString("rwxrwxrwx"));
            env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "2");

            WardenProcess.Result r = runHook();

            assertDeny(r);
            assertThat(r.stderr()).contains("evaluating this event in a new JVM");
            assertThat(fake.settledConnections()).as("connections to the socket in a world-writable directory").isZero();
        } finally {
            Files.setPosixFilePermissions(residentDir, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    @ResourceLock(ALONE)
    void client_sendsNoPayload_beforePeerCredentialsMatch() throws Exception {
        // the endpoint names a live process of ours (its true start time); the socket's listener is another
        Process other = new ProcessBuilder("sleep", "120").start();
        try (FakeSocket fake = new FakeSocket(residentDir.resolve(key() + HookSocket.SUFFIX))) {
            writeEndpoint(deadPort(), other.pid(), ProcessIdentity.startTicks(other.pid()), "9".repeat(64));
            env.put("WARDEN_RESIDENT_ANSWER_SECONDS", "2");

            WardenProcess.Result r = runHook();

            assertDeny(r);
            assertThat(fake.settledConnections()).as("connections to the socket (the client checks its listener)").isEqualTo(1);
            assertThat(fake.received()).as("bytes sent to a listener that is not the endpoint's process").isZero();
        } finally {
            other.destroyForcibly();
        }
    }

    private WardenProcess.Result runHook() throws Exception {
        return runHook(DISPATCH);
    }

    private WardenProcess.Result runHook(List<String> args) throws Exception {
        return WardenProcess.runProgram(hook, args, env, NO_VERIFY.getBytes(StandardCharsets.UTF_8), dir);
    }

    private static void assertDeny(WardenProcess.Result r) {
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
    }

    /** An endpoint file as a resident writes it, for the jar bin/warden uses. */
    private Path writeEndpoint(int port, long pid, long start, String proof) throws IOException {
        return writeEndpointLine(port, "a".repeat(64), pid, start, proof);
    }

    private Path writeEndpointLine(int port, String token, long pid, long start, String proof) throws IOException {
        Path endpoint = residentDir.resolve(key() + ".endpoint");
        Files.writeString(endpoint, port + " " + token + " " + pid + " " + start + " " + proof + "\n");
        Files.setPosixFilePermissions(endpoint, PosixFilePermissions.fromString("rw-------"));
        return endpoint;
    }

    private static String key() throws IOException {
        return Files.readString(WardenProcess.home().resolve("target/warden.jar.sha256")).strip();
    }

    /** A loopback port nothing listens on (just freed). */
    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}))) {
            return s.getLocalPort();
        }
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A Unix socket listener at a resident's socket path that answers nothing and records what
     * arrives; connections are taken one at a time, in order, each read to its end.
     */
    static final class FakeSocket implements AutoCloseable {
        private static final byte[] PROBE = "fake-socket-probe".getBytes(StandardCharsets.US_ASCII);
        private final Path path;
        private final ServerSocketChannel server;
        /** Connections read to their end, the probe's excluded. */
        private int connections;
        private int received;
        private boolean probed;

        FakeSocket(Path path) throws IOException {
            this.path = path;
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(path));
            Thread t = new Thread(() -> {
                while (server.isOpen()) {
                    try (SocketChannel c = server.accept()) {
                        ByteArrayOutputStream got = new ByteArrayOutputStream();
                        ByteBuffer b = ByteBuffer.allocate(65536);
                        for (int n; (n = c.read(b.clear())) > 0; ) {
                            got.write(b.array(), 0, n);
                        }
                        synchronized (this) {
                            if (java.util.Arrays.equals(got.toByteArray(), PROBE)) {
                                probed = true;
                            } else {
                                connections++;
                                received += got.size();
                            }
                            notifyAll();
                        }
                    } catch (IOException e) {
                        // closed, or the client reset the connection
                    }
                }
            }, "fake-socket");
            t.setDaemon(true);
            t.start();
        }

        /**
         * Connects once more itself and waits (up to 30 s) until that connection is taken, so that
         * every connection made before is counted; then the count.
         */
        synchronized int settledConnections() throws IOException, InterruptedException {
            try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(path))) {
                probe.write(ByteBuffer.wrap(PROBE));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!probed) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                assertThat(left).as("the fake socket took the probe within 30 s").isPositive();
                wait(left);
            }
            return connections;
        }

        synchronized int received() {
            return received;
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    /** A listener on 127.0.0.1 that greets as a resident with {@code proof} and then does what it is told. */
    static final class FakeResident implements AutoCloseable {
        /**
         * After greeting: read what comes; take the request and hold it unanswered; answer it with
         * exit 7, stdout "out" and stderr "err"; or refuse it as a resident with no idle worker does.
         */
        enum Behaviour { GREET_ONLY, TAKE_AND_HOLD, ANSWER_AT_ONCE, BUSY }

        final AtomicInteger connections = new AtomicInteger();
        /** Whole requests received (head and body). */
        final AtomicInteger requests = new AtomicInteger();
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final ServerSocket server;
        private final Thread thread;
        private volatile boolean done;

        FakeResident(String proof, Behaviour behaviour) throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
            thread = new Thread(() -> {
                try (Socket s = server.accept()) {
                    connections.incrementAndGet();
                    s.setSoTimeout(30_000);
                    OutputStream out = s.getOutputStream();
                    InputStream in = s.getInputStream();
                    out.write((WardenServer.GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    if (behaviour == Behaviour.GREET_ONLY) {
                        byte[] b = new byte[4096];
                        for (int n; (n = in.read(b)) > 0; ) {
                            synchronized (received) {
                                received.write(b, 0, n);
                            }
                        }
                        return;
                    }
                    readRequest(in);
                    requests.incrementAndGet();
                    if (behaviour == Behaviour.ANSWER_AT_ONCE) {
                        out.write(("HTTP/1.1 200 OK\r\nX-Warden-Exit: 7\r\nX-Warden-Stdout-Bytes: 4\r\n"
                                + "Content-Length: 8\r\nConnection: close\r\n\r\nOUT!ERR!").getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        return;
                    }
                    if (behaviour == Behaviour.BUSY) {
                        out.write(Reply.refusal(503, "busy", "every worker is busy; try again").bytes());
                        out.flush();
                        return;
                    }
                    // hold the event: no answer, until the client gives up and closes
                    while (in.read() >= 0) {
                        // discard
                    }
                } catch (SocketTimeoutException e) {
                    // the client never closed
                } catch (IOException e) {
                    // closed
                } finally {
                    done = true;
                }
            }, "fake-resident");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return server.getLocalPort();
        }

        void awaitDone() throws InterruptedException {
            thread.join(30_000);
            assertThat(done).as("the fake resident's connection ended").isTrue();
        }

        private static void readRequest(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int c = in.read();
                if (c < 0) {
                    throw new IOException("closed in the head");
                }
                head.append((char) c);
            }
            int at = head.indexOf("Content-Length: ") + 16;
            long length = Long.parseLong(head.substring(at, head.indexOf("\r", at)));
            for (long i = 0; i < length; i++) {
                if (in.read() < 0) {
                    throw new IOException("closed in the body");
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
