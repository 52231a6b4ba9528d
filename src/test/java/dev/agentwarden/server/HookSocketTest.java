package dev.agentwarden.server;

import dev.agentwarden.testing.SharedLocks;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.testing.TestTrust;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident's Unix socket for the compiled hook ({@link HookSocket}): the request is sent at
 * once, with no greeting, and answered on the worker that took the connection; a peer of another
 * user, a wrong token, a silent client and an event that waited past the queue wait get no
 * dispatch; and what the resident does with the socket file.
 */
@ResourceLock(SharedLocks.INVENTORY_CACHE)
class HookSocketTest {
    private static final String TOKEN = "f".repeat(64);
    private static final String PROOF = "e".repeat(64);
    private static final String KEY = "0123456789abcdef";
    private static final MutableClock CLOCK = MutableClock.at("2026-12-01T21:00:00Z");
    private static final String[] ARGV = {"dispatch", "--host", "claude", "--native-event", "PreToolUse"};
    private static final String NO_VERIFY = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";

    @TempDir
    Path tmp;
    private WardenServer server;
    private HookSocket socket;

    @AfterEach
    void stop() {
        if (socket != null) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** What the resident's warm-up watches to stop at the first real event: authorized /forward heads, not status queries. */
    @Test
    void hookSocket_forwardHead_isCountedAsArrived_statusQueryIsNot() throws Exception {
        open(WardenServer.QUEUE_WAIT_MS);
        byte[] status = ("POST /status HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN
                + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

        assertThat(exchange(status)).startsWith("HTTP/1.1 200 ");
        long afterStatus = socket.forwardsArrived();
        assertThat(exchange(request("0".repeat(64), System.nanoTime()))).startsWith("HTTP/1.1 401 ");
        long afterRefused = socket.forwardsArrived();
        assertThat(exchange(request(TOKEN, System.nanoTime()))).startsWith("HTTP/1.1 200 ");

        assertThat(afterStatus).isZero();
        assertThat(afterRefused).isZero();
        assertThat(socket.forwardsArrived()).isEqualTo(1);
    }

    @Test
    void hookSocket_requestSentAtOnce_isAnsweredWithNoGreeting() throws Exception {
        open(WardenServer.QUEUE_WAIT_MS);

        String answer = exchange(request(TOKEN, System.nanoTime()));

        assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n").contains("X-Warden-Exit: 0\r\n")
                .contains("\"permissionDecision\":\"deny\"");
        assertThat(server.forwardedCount()).isEqualTo(1);
    }

    @Test
    void hookSocket_eventSentLongerAgoThanTheQueueWait_gets503AndDoesNotRun() throws Exception {
        open(1_000);

        String answer = exchange(request(TOKEN, System.nanoTime() - TimeUnit.SECONDS.toNanos(5)));

        assertThat(answer).startsWith("HTTP/1.1 503 ").contains("no worker was free for 1000 ms");
        assertThat(server.forwardedCount()).isZero();
    }

    @Test
    void hookSocket_wrongToken_gets401AndNoDispatch() throws Exception {
        open(WardenServer.QUEUE_WAIT_MS);

        String answer = exchange(request("0".repeat(64), System.nanoTime()));

        assertThat(answer).startsWith("HTTP/1.1 401 ");
        assertThat(server.forwardedCount()).isZero();
    }

    @Test
    void hookSocket_silentClient_isClosedAtTheHeadDeadline_andOthersAreServedMeanwhile() throws Exception {
        open(WardenServer.QUEUE_WAIT_MS);
        try (SocketChannel silent = connect()) {
            assertThat(exchange(request(TOKEN, System.nanoTime()))).startsWith("HTTP/1.1 200 ");

            assertThat(readAll(silent, 30_000)).as("what a client that sends nothing gets").isEmpty();
        }
        assertThat(server.forwardedCount()).isEqualTo(1);
    }

    @Test
    void hookSocket_peerOfOtherUid_isClosedUnanswered() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can connect as another user");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && Files.isExecutable(Path.of("/usr/bin/python3")),
                "needs setpriv and /usr/bin/python3");
        // a socket anyone may connect to, so that only the server's own check stands in the way
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        open(WardenServer.QUEUE_WAIT_MS);
        Files.setPosixFilePermissions(socket.path(), PosixFilePermissions.fromString("rwxrwxrwx"));
        Path request = Files.write(tmp.resolve("request"), request(TOKEN, System.nanoTime()));
        Files.setPosixFilePermissions(request, PosixFilePermissions.fromString("rw-r--r--"));
        String client = "import socket,sys\n"
                + "s=socket.socket(socket.AF_UNIX,socket.SOCK_STREAM); s.settimeout(30); s.connect(sys.argv[1])\n"
                // the server may close before the request is all written: a refused write is no answer either
                + "d=b''\n"
                + "try:\n  s.sendall(open(sys.argv[2],'rb').read())\nexcept OSError:\n  pass\n"
                + "while True:\n"
                + "  try:\n    b=s.recv(65536)\n  except OSError:\n    break\n"
                + "  if not b: break\n  d+=b\n"
                + "print('connected', len(d))\n";
        Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "/usr/bin/python3", "-c", client, socket.path().toString(), request.toString())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(out).as("the other user's client").contains("connected 0");
        assertThat(server.forwardedCount()).isZero();
    }

    @Test
    void hookSocket_socketLeftByADeadResident_isReplaced() throws Exception {
        Path path = HookSocket.path(tmp, KEY);
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(path));
        }
        assertThat(Files.exists(path, LinkOption.NOFOLLOW_LINKS)).isTrue();

        open(WardenServer.QUEUE_WAIT_MS);

        assertThat(exchange(request(TOKEN, System.nanoTime()))).startsWith("HTTP/1.1 200 ");
    }

    @Test
    void hookSocket_regularFileInItsPlace_isNotReplaced() throws Exception {
        Path path = Files.writeString(HookSocket.path(tmp, KEY), "keep me");
        server = WardenServer.startResident(TOKEN, PROOF, 2, env(), CLOCK);

        assertThatThrownBy(() -> HookSocket.open(path, server, 2)).isInstanceOf(IOException.class)
                .hasMessageContaining("holds a file or directory");
        assertThat(Files.readString(path)).isEqualTo("keep me");
    }

    @Test
    void resident_bindsItsHookSocketPrivately_andRemovesItWhenItStops() throws Exception {
        Path dir = privateDir();
        Resident resident = Resident.start(dir, KEY, env(), CLOCK);
        Path path = resident.hookSocket();
        try {
            assertThat(path).isEqualTo(dir.resolve(KEY + HookSocket.SUFFIX));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)))
                    .isEqualTo("rw-------");
        } finally {
            resident.close();
        }
        assertThat(Files.exists(path, LinkOption.NOFOLLOW_LINKS)).as("the socket after the resident stopped").isFalse();
    }

    @Test
    void resident_hookSocketPathTooLongForTheKernel_servesThePortAlone() throws Exception {
        Path dir = privateDir().resolve("d".repeat(120));
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Resident resident = Resident.start(dir, KEY, env(), CLOCK);
        try {
            assertThat(resident.hookSocket()).isNull();
            assertThat(Resident.read(Resident.endpointFile(dir, KEY))).isNotNull();
        } finally {
            resident.close();
        }
    }

    @Test
    void residentServer_workersAreStartedBeforeTheFirstEvent() throws Exception {
        server = WardenServer.startResident(TOKEN, PROOF, 3, env(), CLOCK);

        assertThat(server.workerThreads()).as("workers running before any request").isEqualTo(3);
    }

    private void open(long queueWaitMs) throws IOException {
        server = WardenServer.startResident(TOKEN, PROOF, 2, env(), CLOCK, null, queueWaitMs);
        socket = HookSocket.open(HookSocket.path(tmp, KEY), server, 2);
    }

    private Path privateDir() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cache/resident"));
        Files.setPosixFilePermissions(tmp.resolve("cache"), PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private SocketChannel connect() throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(socket.path()));
    }

    /** Sends {@code request} in one write on a new connection and reads the whole answer. */
    private String exchange(byte[] request) throws IOException {
        try (SocketChannel ch = connect()) {
            ByteBuffer b = ByteBuffer.wrap(request);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            return readAll(ch, 30_000);
        }
    }

    /** Everything the server sends until it closes, waiting at most {@code ms}. */
    private static String readAll(SocketChannel ch, long ms) throws IOException {
        ch.configureBlocking(false);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        try (Selector selector = Selector.open()) {
            ch.register(selector, SelectionKey.OP_READ);
            ByteBuffer b = ByteBuffer.allocate(65536);
            for (;;) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                assertThat(left).as("the server closed the connection within " + ms + " ms").isPositive();
                selector.select(left);
                selector.selectedKeys().clear();
                b.clear();
                int n;
                try {
                    n = ch.read(b);
                } catch (IOException e) {
                    break;
                }
                if (n < 0) {
                    break;
                }
                got.write(b.array(), 0, n);
            }
        }
        return got.toString(StandardCharsets.UTF_8);
    }

    /** A compiled hook's request: head and forwarded event, sent at {@code sentNanos}. */
    private byte[] request(String token, long sentNanos) throws IOException {
        Path project = Files.createDirectories(tmp.resolve("project"));
        byte[] body = ForwardFrame.body(ForwardFrame.records(project, env(), ARGV), NO_VERIFY.getBytes(StandardCharsets.UTF_8));
        byte[] head = ("POST /forward HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Length: " + body.length + "\r\nX-Warden-Sent: " + sentNanos + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    private Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        env.put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        return env;
    }
}
