package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The forward protocol's shared vectors ({@link ForwardVectors}, {@code docs/forward-protocol.md})
 * run by both clients, {@code bin/warden} and the compiled hook, against a fake resident on the
 * endpoint's port: each sends exactly the vector's bytes, and prints and exits exactly as the vector
 * says for each answer, timeout, impostor and dead endpoint. The one-event JVM the clients fall back to
 * is a stand-in that records its stdin, so a fallback shows as what it is given and prints. Needs a C
 * compiler for the compiled hook's half.
 */
/* Beside the other classes; its own lock keeps its cases in order (one fake resident, one stand-in JVM). */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("ForwardProtocolIT")
class ForwardProtocolIT {
    private static final String TOKEN = "a".repeat(64);
    private static final String PROOF = "b".repeat(64);
    private static final byte[] OK_ANSWER = ("HTTP/1.1 200 OK\r\nX-Warden-Exit: 0\r\nX-Warden-Stdout-Bytes: 8\r\n"
            + "Content-Length: 13\r\nConnection: close\r\n\r\n{\"ok\":1}note\n").getBytes(StandardCharsets.US_ASCII);

    /** The two clients: the launcher script and the compiled hook. */
    enum Client { LAUNCHER, HOOK }

    private static Path dir;
    private static Path project;
    private static Path residentDir;
    private static Path hook;
    private static Path jvmStdin;
    private static List<String[]> harnessEnv;
    private static FakeResident fake;

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("warden-forward-protocol-it").toRealPath();
        project = Files.createDirectories(dir.resolve("project"));
        Path cache = Files.createDirectory(dir.resolve("cache"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        residentDir = Files.createDirectory(cache.resolve("resident"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        jvmStdin = dir.resolve("jvm-stdin");
        // A JDK whose java, asked for a dispatch, records its stdin and prints JVM-RAN; anything else is the real java.
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        Path release = Path.of(System.getProperty("java.home"), "release");
        if (Files.exists(release)) {
            Files.copy(release, dir.resolve("jdk/release"));
        }
        Path java = WardenProcess.writeScript(jdk.resolve("java"), "#!/bin/sh\n"
                + "case \" $* \" in *' dev.agentwarden.Main dispatch '*)\n"
                + "  cat > '" + jvmStdin + "'; printf 'JVM-RAN\\n'; exit \"${FAKE_JVM_EXIT:-0}\" ;;\n"
                + "esac\n"
                + "exec '" + WardenProcess.java() + "' \"$@\"\n");
        harnessEnv = List.of(new String[] {"PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")},
                new String[] {"HOME", dir.toString()}, new String[] {"PWD", project.toString()},
                new String[] {"WARDEN_CACHE_DIR", cache.toString()}, new String[] {"WARDEN_JAVA", java.toString()},
                new String[] {"WARDEN_NO_ARCHIVE", "1"}, new String[] {"WARDEN_RESIDENT_ANSWER_SECONDS", "1"});
        fake = new FakeResident();
        if (onPath("cc") || onPath("gcc")) {
            WardenProcess.Result built = WardenProcess.runLauncher(List.of("build-hook"),
                    Map.of("WARDEN_CACHE_DIR", cache.toString(), "HOME", dir.toString(), "WARDEN_JAVA", java.toString()),
                    new byte[0], dir);
            assertThat(built.exitCode()).as(built.stderr()).isZero();
            hook = Path.of(built.stdout().strip());
        }
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (fake != null) {
            fake.close();
        }
        if (dir != null) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static Stream<Arguments> requests() {
        return ForwardVectors.requests().stream().flatMap(v -> Stream.of(Client.values()).map(c -> Arguments.of(c, v)));
    }

    static Stream<Arguments> answers() {
        return ForwardVectors.answers().stream().flatMap(v -> Stream.of(Client.values()).map(c -> Arguments.of(c, v)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("requests")
    void request_clientSendsTheVectorsBytes(Client client, ForwardVectors.Request v) throws Exception {
        fake.behave("answer", OK_ANSWER);
        writeEndpoint(ProcessHandle.current().pid());

        Run r = run(client, v.argv(), v.env(), v.stdin(), v.stdinOpen());

        List<String> harness = new ArrayList<>();
        for (String[] e : harnessEnv) {
            harness.add("e" + e[0] + "=" + e[1]);
        }
        byte[] body = ForwardVectors.body(v.records(), client == Client.LAUNCHER ? v.payloadLauncher() : v.payload(),
                project.toString(), harness, processRecords());
        String head = ForwardVectors.head().replace("{token}", TOKEN).replace("{length}", String.valueOf(body.length));
        assertThat(visible(fake.lastRequest())).as("the request on the wire").isEqualTo(visible(concat(
                head.getBytes(StandardCharsets.US_ASCII), body)));
        assertThat(r.exit).as("exit; stderr: " + r.stderr).isZero();
        assertThat(visible(r.stdout)).isEqualTo("{\"ok\":1}");
        assertThat(visible(r.stderr)).isEqualTo("note\n");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("answers")
    void answer_clientPrintsAndExitsAsTheVectorSays(Client client, ForwardVectors.Answer v) throws Exception {
        fake.behave(v.resident(), v.answer());
        writeEndpoint(v.resident().equals("dead-endpoint") ? 999_999_999L : ProcessHandle.current().pid());
        int before = fake.connections();

        Run r = run(client, v.argv(), v.env(), v.stdin(), v.stdinOpen());

        assertThat(r.exit).as("exit; stderr: " + visible(r.stderr)).isEqualTo(v.expect().exit());
        assertThat(visible(r.stdout)).as("stdout").isEqualTo(visible(v.expect().stdout()));
        assertThat(visible(r.stderr)).as("stderr").isEqualTo(visible(v.expect().stderr()));
        if (v.expect().jvmStdin() == null) {
            assertThat(jvmStdin).as("no JVM ran").doesNotExist();
        } else {
            assertThat(jvmStdin).as("a JVM ran").exists();
            assertThat(visible(Files.readAllBytes(jvmStdin))).as("the JVM's stdin").isEqualTo(visible(v.expect().jvmStdin()));
        }
        switch (v.resident()) {
            case "dead-endpoint" -> assertThat(fake.connections()).as("connections to a dead endpoint's port").isEqualTo(before);
            case "impostor", "silent" -> {
                assertThat(fake.connections()).as("connections").isEqualTo(before + 1);
                assertThat(fake.lastRequest()).as("bytes sent to an unproven peer").isEmpty();
            }
            default -> assertThat(fake.lastRequest()).as("a whole request").isNotEmpty();
        }
    }

    private record Run(int exit, byte[] stdout, byte[] stderr) {
    }

    /** Runs the client with exactly the harness's environment, then {@code env}, in that order. */
    private Run run(Client client, List<String> argv, List<String[]> env, byte[] stdin, boolean keepOpen) throws Exception {
        if (client == Client.HOOK) {
            assumeTrue(hook != null, "no C compiler: the compiled hook cannot be built here");
        }
        Files.deleteIfExists(jvmStdin);
        // a resident is "starting": bin/warden, finding none, starts no real one
        Files.writeString(residentDir.resolve(key() + ".starting"), System.currentTimeMillis() / 1000 + "\n");
        List<String> command = new ArrayList<>(List.of("/usr/bin/env", "-i"));
        for (String[] e : harnessEnv) {
            command.add(e[0] + "=" + e[1]);
        }
        for (String[] e : env) {
            command.add(e[0] + "=" + e[1]);
        }
        command.add(client == Client.HOOK ? hook.toString() : WardenProcess.home().toAbsolutePath().resolve("bin/warden").toString());
        command.addAll(argv);
        Path in = Files.write(dir.resolve("stdin"), stdin);
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(command).directory(project.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        if (!keepOpen) {
            pb.redirectInput(in.toFile());
        }
        Process p = pb.start();
        if (keepOpen) {
            p.getOutputStream().write(stdin);
            p.getOutputStream().flush();
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the client did not finish within 60 s: " + command);
            }
        } finally {
            p.getOutputStream().close();
        }
        return new Run(p.exitValue(), Files.readAllBytes(out), Files.readAllBytes(err));
    }

    /** The u, n and l records a child of this JVM sends: it inherits this process's umask, nice value and limits. */
    private static List<String> processRecords() throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readString(Path.of("/proc/self/status")).split("\n")) {
            if (line.startsWith("Umask:")) {
                out.add("u" + line.substring(6).strip());
            }
        }
        String stat = Files.readString(Path.of("/proc/self/stat"));
        out.add("n" + stat.substring(stat.lastIndexOf(") ") + 2).split(" ")[16]);
        for (String line : Files.readString(Path.of("/proc/self/limits")).split("\n")) {
            out.add("l" + line);
        }
        return out;
    }

    private static void writeEndpoint(long pid) throws IOException {
        long start = pid == ProcessHandle.current().pid() ? ProcessIdentity.startTicks(pid) : 1;
        Path endpoint = residentDir.resolve(key() + ".endpoint");
        Files.writeString(endpoint, fake.port() + " " + TOKEN + " " + pid + " " + start + " " + PROOF + "\n");
        Files.setPosixFilePermissions(endpoint, PosixFilePermissions.fromString("rw-------"));
    }

    private static String key() throws IOException {
        return Files.readString(WardenProcess.home().resolve("target/warden.jar.sha256")).strip();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** Bytes as text with NUL shown as ␀ (UTF-8 where valid), so a difference reads in the failure. */
    private static String visible(byte[] b) {
        return new String(b, StandardCharsets.UTF_8).replace("\0", "␀");
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
     * A listener on 127.0.0.1 standing where the endpoint says the resident is, doing what the vector
     * says ({@code answers.json}'s {@code resident}); it keeps the bytes of the last connection's request.
     */
    static final class FakeResident implements AutoCloseable {
        private final ServerSocket server;
        private volatile String mode = "answer";
        private volatile byte[] answer = new byte[0];
        private int connections;
        private byte[] last = new byte[0];

        FakeResident() throws IOException {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
            Thread t = new Thread(this::serve, "fake-resident");
            t.setDaemon(true);
            t.start();
        }

        void behave(String mode, byte[] answer) {
            synchronized (this) {
                this.mode = mode;
                this.answer = answer == null ? new byte[0] : answer;
                last = new byte[0];
            }
        }

        int port() {
            return server.getLocalPort();
        }

        synchronized int connections() {
            return connections;
        }

        synchronized byte[] lastRequest() {
            return last;
        }

        /** One connection at a time, in order: every client run makes at most one. */
        private void serve() {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    synchronized (this) {
                        connections++;
                    }
                    s.setSoTimeout(30_000);
                    String m = mode;
                    OutputStream out = s.getOutputStream();
                    InputStream in = s.getInputStream();
                    if (!m.equals("silent")) {
                        String proof = m.equals("impostor") ? "c".repeat(64) : PROOF;
                        out.write((WardenServer.GREETING + proof + "\n").getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    }
                    if (m.equals("impostor") || m.equals("silent")) {
                        keep(in.readAllBytes());
                        continue;
                    }
                    keep(readRequest(in));
                    if (m.equals("answer")) {
                        out.write(answer);
                        out.flush();
                    } else if (m.equals("hold")) {
                        in.readAllBytes();
                    }
                } catch (IOException e) {
                    // the client went away, or the server is closed
                }
            }
        }

        private synchronized void keep(byte[] request) {
            last = request;
        }

        /** A whole request: the head to its empty line, then Content-Length bytes of body. */
        private static byte[] readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            String head = "";
            while (!head.endsWith("\r\n\r\n")) {
                int c = in.read();
                if (c < 0) {
                    return got.toByteArray();
                }
                got.write(c);
                head += (char) c;
            }
            int at = head.indexOf("Content-Length: ") + 16;
            long length = Long.parseLong(head.substring(at, head.indexOf('\r', at)));
            for (long i = 0; i < length; i++) {
                int c = in.read();
                if (c < 0) {
                    break;
                }
                got.write(c);
            }
            return got.toByteArray();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
