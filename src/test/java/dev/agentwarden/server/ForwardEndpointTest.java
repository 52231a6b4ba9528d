package dev.agentwarden.server;

import dev.agentwarden.testing.WardenProcess;
import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.MutableClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import dev.agentwarden.testing.TestTrust;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /forward} on an in-process {@link WardenServer}: the answer carries exactly what the
 * launcher's own JVM would have written (stdout, then stderr, split by {@code X-Warden-Stdout-Bytes})
 * and its exit code; a body that is not a forwarded event, a missing token or another method gets
 * an error and runs no dispatch; and the server's idle time, which the resident stops on.
 */
class ForwardEndpointTest {
    private static final String TOKEN = "f".repeat(64);
    private static final String PROOF = "e".repeat(64);
    private static final MutableClock CLOCK = MutableClock.at("2026-05-04T10:00:00Z");
    private static final String[] ARGV = {"dispatch", "--host", "claude"};
    /** For payloads that do not name their event. */
    private static final String[] PRE_TOOL_USE_ARGV = {"dispatch", "--host", "claude", "--native-event", "PreToolUse"};

    @TempDir
    static Path tmp;
    private static Path plain;
    private static Path guarded;
    private static Path marked;

    private WardenServer server;

    @BeforeEach
    void startServer() throws IOException {
        server = WardenServer.startResident(TOKEN, PROOF, 2, Map.of(), CLOCK);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    /**
     * Projects: {@code plain} has no manifest (the shipped default is in force); {@code guarded}
     * adds a crashing and an advisory process concern beside block-no-verify, so stdout and a
     * multi-line, non-ASCII stderr both carry something; {@code marked}'s one concern leaves a file
     * behind, so a test can tell whether a dispatch ran.
     */
    @BeforeAll
    static void createProjects() throws IOException {
        plain = Files.createDirectories(tmp.resolve("plain"));
        guarded = Files.createDirectories(tmp.resolve("guarded"));
        script(guarded.resolve("crash.sh"), "echo boom >&2\nexit 3");
        script(guarded.resolve("advice.sh"), "echo 'think twice ✓'\nexit 1");
        manifest(guarded, """
                concerns:
                  no-verify: {script: 'builtin:block-no-verify', posture: blocking, tools: [Bash]}
                  crash: {script: crash.sh, fail_closed: false}
                  advice: {script: advice.sh, posture: advisory}
                platforms:
                  claude:
                    pre_tool_use: [no-verify, crash, advice]
                """);
        marked = Files.createDirectories(tmp.resolve("marked"));
        script(marked.resolve("mark.sh"), ": > dispatched");
        manifest(marked, """
                concerns:
                  mark: {script: mark.sh}
                platforms:
                  claude:
                    pre_tool_use: [mark]
                """);
    }

    static Stream<Arguments> forwardedEvents() {
        return Stream.of(
                Arguments.of("noVerify_defaultManifest_denies", "plain", ARGV, bash("git commit --no-verify -m x")),
                Arguments.of("plainCommand_allows_noOutput", "plain", ARGV, bash("ls -la")),
                Arguments.of("notJson_noteOnStderrOnly", "plain", PRE_TOOL_USE_ARGV, "not json at all"),
                Arguments.of("notJson_noEventName_noteOnStderrOnly", "plain", ARGV, "not json at all"),
                Arguments.of("unknownOption_usageOnStderr", "plain",
                        new String[] {"dispatch", "--host", "claude", "--bogus", "x"}, bash("ls")),
                Arguments.of("unknownHost_noteOnStderr", "plain", new String[] {"dispatch", "--host", "nohost"},
                        bash("ls")),
                Arguments.of("denyWithNotes_stdoutAndStderr", "guarded", ARGV, bash("git commit --no-verify -m x")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forwardedEvents")
    void forward_answersWhatTheJvmWouldWrite(String name, String project, String[] argv, String stdin)
            throws Exception {
        Path dir = tmp.resolve(project);
        Map<String, String> env = env();
        byte[] payload = stdin.getBytes(StandardCharsets.UTF_8);

        ResidentClient.Response response = post("/forward", TOKEN, frame(dir, env, argv, payload));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = DispatchCall.run(argv, new ByteArrayInputStream(payload),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Caller.forwarded(env, dir), CLOCK);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(header(response, "X-Warden-Exit")).isEqualTo(Integer.toString(exit));
        int stdoutBytes = Integer.parseInt(header(response, "X-Warden-Stdout-Bytes"));
        byte[] body = response.body();
        assertThat(stdoutBytes).isBetween(0, body.length);
        assertThat(Arrays.copyOfRange(body, 0, stdoutBytes)).as("stdout").isEqualTo(out.toByteArray());
        assertThat(Arrays.copyOfRange(body, stdoutBytes, body.length)).as("stderr").isEqualTo(err.toByteArray());
    }

    @Test
    void forward_noVerify_deniesWithExitZeroAndJsonStdout() throws Exception {
        ResidentClient.Response response = post("/forward", TOKEN,
                frame(plain, env(), ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(header(response, "X-Warden-Exit")).isEqualTo("0");
        int stdoutBytes = Integer.parseInt(header(response, "X-Warden-Stdout-Bytes"));
        assertThat(stdoutBytes).isPositive().isEqualTo(response.body().length);
        Map<String, Object> stdout = Json.parseObject(new String(response.body(), StandardCharsets.UTF_8));
        assertThat(Json.write(stdout)).contains("\"permissionDecision\":\"deny\"");
    }

    @Test
    void forward_stdoutAndMultiLineStderr_splitAtStdoutBytes() throws Exception {
        ResidentClient.Response response = post("/forward", TOKEN,
                frame(guarded, env(), ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8)));

        int stdoutBytes = Integer.parseInt(header(response, "X-Warden-Stdout-Bytes"));
        byte[] body = response.body();
        String stdout = new String(body, 0, stdoutBytes, StandardCharsets.UTF_8);
        String stderr = new String(body, stdoutBytes, body.length - stdoutBytes, StandardCharsets.UTF_8);
        assertThat(Json.parseObject(stdout)).isNotEmpty();
        assertThat(stdout).contains("\"permissionDecision\":\"deny\"");
        assertThat(stderr.lines()).containsExactly(
                "warden: crash: exit code 3: boom; fail-open",
                "warden: advice: advisory ceiling: block → warn");
    }

    @Test
    void forward_emptyStdout_stdoutBytesZero_bodyIsStderr() throws Exception {
        ResidentClient.Response response = post("/forward", TOKEN,
                frame(plain, env(), PRE_TOOL_USE_ARGV, "not json at all".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(header(response, "X-Warden-Stdout-Bytes")).isEqualTo("0");
        assertThat(new String(response.body(), StandardCharsets.UTF_8))
                .startsWith("warden: payload_not_json: ").endsWith("; allowing\n");
    }

    @Test
    void forward_frameEnvironment_isTheDispatchEnvironment() throws Exception {
        Map<String, String> env = env();
        env.put("WARDEN_MAX_PAYLOAD_BYTES", "10");

        ResidentClient.Response response = post("/forward", TOKEN,
                frame(plain, env, PRE_TOOL_USE_ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8)));

        assertThat(header(response, "X-Warden-Stdout-Bytes")).isEqualTo("0");
        assertThat(new String(response.body(), StandardCharsets.UTF_8))
                .isEqualTo("warden: payload_too_large: stdin over 10 bytes; allowing\n");
    }

    static Stream<Arguments> malformedFrames() {
        return Stream.of(
                Arguments.of("unknownRecordKind", (Mangle) r -> r.add("xfoo"), "unknown record kind 'x'"),
                Arguments.of("twoWorkingDirs", (Mangle) r -> r.add("d/tmp"), "two working-directory records"),
                Arguments.of("relativeWorkingDir", (Mangle) r -> r.set(1, "dmarked"),
                        "working directory 'marked' is not an absolute path"),
                Arguments.of("notDispatch", (Mangle) r -> r.set(2, "aserve"), "the arguments must start with 'dispatch'"),
                Arguments.of("wrongMagic", (Mangle) r -> r.set(0, "warden-forward/0"),
                        "the body does not start with the record warden-forward/1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedFrames")
    void forward_malformedFrame_400NamingTheProblem_noDispatch(String name, Mangle mangle, String message)
            throws Exception {
        Files.deleteIfExists(marked.resolve("dispatched"));
        List<String> records = new ArrayList<>(ForwardFrame.records(marked, env(), ARGV));
        mangle.apply(records);

        ResidentClient.Response response = post("/forward", TOKEN,
                ForwardFrame.body(records, bash("ls").getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(Json.parseObject(new String(response.body(), StandardCharsets.UTF_8)))
                .containsExactly(Map.entry("error", "bad_forward"), Map.entry("message", message));
        assertThat(response.headers().firstValue("X-Warden-Exit")).isEmpty();
        assertThat(response.headers().firstValue("X-Warden-Stdout-Bytes")).isEmpty();
        assertThat(marked.resolve("dispatched")).as("no dispatch ran").doesNotExist();
        assertThat(server.forwardedCount()).isZero();
    }

    @Test
    void forward_wellFormedFrame_dispatchRuns() throws Exception {
        Files.deleteIfExists(marked.resolve("dispatched"));

        ResidentClient.Response response = post("/forward", TOKEN,
                frame(marked, env(), ARGV, bash("ls").getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(marked.resolve("dispatched")).as("the marker the malformed cases look for").exists();
        assertThat(server.forwardedCount()).isEqualTo(1);
    }

    static Stream<Arguments> badTokens() {
        return Stream.of(Arguments.of("none", null), Arguments.of("wrong", "0".repeat(64)),
                Arguments.of("prefixOfRight", TOKEN.substring(0, 63)), Arguments.of("empty", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTokens")
    void forward_badToken_401_noDispatch(String name, String token) throws Exception {
        Files.deleteIfExists(marked.resolve("dispatched"));

        ResidentClient.Response response = post("/forward", token,
                frame(marked, env(), ARGV, bash("ls").getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(Json.parseObject(new String(response.body(), StandardCharsets.UTF_8)))
                .containsEntry("error", "unauthorized");
        assertThat(marked.resolve("dispatched")).as("no dispatch ran").doesNotExist();
        assertThat(server.forwardedCount()).isZero();
    }

    @Test
    void forward_get_405() throws Exception {
        ResidentClient.Response response = ResidentClient.send(server.port(), "GET", "/forward", TOKEN, new byte[0]);

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
        assertThat(server.forwardedCount()).isZero();
        assertThat(Json.parseObject(new String(response.body(), StandardCharsets.UTF_8)))
                .containsEntry("error", "method_not_allowed");
    }

    @Test
    void forward_put_405_noDispatch() throws Exception {
        Files.deleteIfExists(marked.resolve("dispatched"));

        ResidentClient.Response response = ResidentClient.send(server.port(), "PUT", "/forward", TOKEN,
                frame(marked, env(), ARGV, bash("ls").getBytes(StandardCharsets.UTF_8)));

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(marked.resolve("dispatched")).as("no dispatch ran").doesNotExist();
        assertThat(server.forwardedCount()).isZero();
    }

    @Test
    void idleMillis_growsWithTheClock_resetsAfterARequest() throws Exception {
        MutableClock clock = MutableClock.ticking("2026-05-04T10:00:00Z");
        try (WardenServer idle = WardenServer.startResident(TOKEN, PROOF, 2, Map.of(), clock)) {
            clock.advance(Duration.ofHours(1));
            assertThat(idle.idleMillis()).isGreaterThanOrEqualTo(Duration.ofHours(1).toMillis());

            ResidentClient.Response response = ResidentClient.send(idle.port(), "POST", "/forward", TOKEN,
                    frame(plain, env(), ARGV, bash("ls").getBytes(StandardCharsets.UTF_8)));
            assertThat(response.statusCode()).isEqualTo(200);
            awaitTrue(() -> idle.idleMillis() > 0);

            long afterRequest = idle.idleMillis();
            assertThat(afterRequest).as("reset by the request").isLessThan(Duration.ofMinutes(1).toMillis());
            clock.advance(Duration.ofMinutes(10));
            assertThat(idle.idleMillis()).isGreaterThanOrEqualTo(afterRequest + Duration.ofMinutes(10).toMillis());
        }
    }

    @Test
    void idleMillis_notResetByAnUnauthorizedRequest() throws Exception {
        MutableClock clock = MutableClock.ticking("2026-05-04T10:00:00Z");
        try (WardenServer idle = WardenServer.startResident(TOKEN, PROOF, 2, Map.of(), clock)) {
            clock.advance(Duration.ofHours(1));

            ResidentClient.Response response = ResidentClient.send(idle.port(), "POST", "/forward", "not-the-token",
                    frame(plain, env(), ARGV, bash("ls").getBytes(StandardCharsets.UTF_8)));
            assertThat(response.statusCode()).isEqualTo(401);
            awaitTrue(() -> idle.idleMillis() > 0);

            assertThat(idle.idleMillis()).as("a refused request keeps no resident alive")
                    .isGreaterThanOrEqualTo(Duration.ofHours(1).toMillis());
        }
    }

    @Test
    void closeWithGrace_answersTheForwardInProgressBeforeStopping() throws Exception {
        MutableClock clock = MutableClock.ticking("2026-05-04T10:00:00Z");
        WardenServer closing = WardenServer.startResident(TOKEN, PROOF, 2, Map.of(), clock);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), closing.port())) {
            socket.setSoTimeout(30_000);
            assertThat(ResidentClient.line(socket.getInputStream())).isEqualTo(WardenServer.GREETING + PROOF);
            byte[] body = frame(plain, env(), ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8));
            int held = 10;
            OutputStream out = socket.getOutputStream();
            out.write(("POST /forward HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length - held);
            out.flush();
            awaitTrue(() -> closing.idleMillis() == 0);

            java.util.concurrent.CompletableFuture<Void> closed = java.util.concurrent.CompletableFuture.runAsync(
                    () -> closing.close(Duration.ofSeconds(20)));
            out.write(body, body.length - held, held);
            out.flush();
            ResidentClient.Response response = ResidentClient.answer(socket.getInputStream(), out);

            assertThat(response.statusLine()).startsWith("HTTP/1.1 200 ");
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"permissionDecision\":\"deny\"");
            closed.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(closing.forwardedCount()).isEqualTo(1);
        } finally {
            closing.close();
        }
    }

    @Test
    void idleMillis_zeroWhileAForwardIsBeingAnswered() throws Exception {
        MutableClock clock = MutableClock.ticking("2026-05-04T10:00:00Z");
        try (WardenServer idle = WardenServer.startResident(TOKEN, PROOF, 2, Map.of(), clock);
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), idle.port())) {
            socket.setSoTimeout(30_000);
            assertThat(ResidentClient.line(socket.getInputStream())).isEqualTo(WardenServer.GREETING + PROOF);
            clock.advance(Duration.ofHours(1));
            byte[] body = frame(plain, env(), ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8));
            int held = 10;
            OutputStream out = socket.getOutputStream();
            out.write(("POST /forward HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/octet-stream\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, body.length - held);
            out.flush();

            awaitTrue(() -> idle.idleMillis() == 0);
            clock.advance(Duration.ofHours(1));
            assertThat(idle.idleMillis()).as("while the payload is still arriving").isZero();

            out.write(body, body.length - held, held);
            out.flush();
            ResidentClient.Response response = ResidentClient.answer(socket.getInputStream(), out);
            assertThat(response.statusLine()).startsWith("HTTP/1.1 200 ");
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"permissionDecision\":\"deny\"");
            awaitTrue(() -> idle.idleMillis() > 0);
            assertThat(idle.idleMillis()).as("reset when the answer was sent").isLessThan(Duration.ofMinutes(1).toMillis());
        }
    }

    @Test
    void slowClients_moreThanTheThreadsAndThePerUserCap_neverHoldTheWorker() throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < Front.PER_PEER + 8; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
                s.getOutputStream().write(("POST /forward HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Le")
                        .getBytes(StandardCharsets.US_ASCII));
                slow.add(s);
            }
            Socket body = new Socket(InetAddress.getLoopbackAddress(), server.port());
            body.getOutputStream().write(ResidentClient.head("POST", "/forward", TOKEN, 1000));
            slow.add(body);

            ResidentClient.Response response = post("/forward", TOKEN,
                    frame(plain, env(), ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8)));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(new String(response.body(), StandardCharsets.UTF_8)).contains("\"permissionDecision\":\"deny\"");
            for (Socket s : slow) {
                s.setSoTimeout(30_000);
                assertThat(ResidentClient.line(s.getInputStream())).isEqualTo(WardenServer.GREETING + PROOF);
                assertThat(s.getInputStream().read()).as("closed at its deadline, or to make room").isEqualTo(-1);
            }
            assertThat(server.forwardedCount()).isEqualTo(1);
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    @Test
    void forward_queuedPastTheWait_refused503BeforeItRuns() throws Exception {
        Files.deleteIfExists(marked.resolve("dispatched"));
        Path waiting = Files.createDirectories(tmp.resolve("waiting"));
        // Holds its worker until the test creates "release" (or 30 s pass), after saying it started.
        String at = "'" + waiting + "/";
        script(waiting.resolve("hold.sh"), ": > " + at + "started.'$$\ni=0\nwhile [ ! -e " + at + "release' ] && [ $i -lt 300 ]; do"
                + " sleep 0.1; i=$((i + 1)); done");
        manifest(waiting, """
                concerns:
                  hold: {script: hold.sh, timeout_ms: 60000}
                platforms:
                  claude:
                    pre_tool_use: [hold]
                """);
        server.close();
        // one worker, and an event may wait for it 1 s
        server = WardenServer.startResident(TOKEN, PROOF, 1, Map.of(), CLOCK, null, 1_000);
        List<Integer> status = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> clients = new ArrayList<>();
        try {
            clients.add(postInBackground(waiting, status));
            awaitTrue(() -> startedCount(waiting) == 1);
            clients.add(postInBackground(marked, status));
            awaitTrue(() -> server.queuedRequests() == 1);
            long queuedBy = System.nanoTime();
            // queued by then, so it waits at least this long for the worker
            awaitTrue(() -> System.nanoTime() - queuedBy > 1_500_000_000L);
        } finally {
            Files.writeString(waiting.resolve("release"), "");
            for (Thread t : clients) {
                t.join(60_000);
            }
        }
        assertThat(status).containsExactlyInAnyOrder(200, 503);
        assertThat(marked.resolve("dispatched")).as("the queued event did not run").doesNotExist();
        assertThat(server.forwardedCount()).isEqualTo(1);
    }

    @Test
    void forward_freeWorker_runsAtOnce_noInterimResponse() throws Exception {
        byte[] body = frame(plain, env(), ARGV, bash("git commit --no-verify -m x").getBytes(StandardCharsets.UTF_8));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            InputStream in = socket.getInputStream();
            assertThat(ResidentClient.line(in)).isEqualTo(WardenServer.GREETING + PROOF);
            OutputStream out = socket.getOutputStream();
            out.write(ResidentClient.head("POST", "/forward", TOKEN, body.length));
            out.write(body);
            out.flush();
            assertThat(ResidentClient.line(in)).as("the first line after the request").isEqualTo("HTTP/1.1 200 OK");
        }
    }

    private Thread postInBackground(Path project, List<Integer> status) {
        Thread t = new Thread(() -> {
            try {
                status.add(post("/forward", TOKEN, frame(project, env(), ARGV, bash("ls").getBytes(StandardCharsets.UTF_8)))
                        .statusCode());
            } catch (Exception e) {
                status.add(-1);
            }
        });
        t.start();
        return t;
    }

    private static long startedCount(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("started.")).count();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Changes a well-formed frame's records into a malformed one. */
    @FunctionalInterface
    interface Mangle {
        void apply(List<String> records);
    }

    /** Waits for a condition another thread makes true; fails after 10 s. */
    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition still false after 10 s").isLessThan(deadline);
            Thread.sleep(2);
        }
    }

    private ResidentClient.Response post(String path, String token, byte[] body) throws Exception {
        return ResidentClient.send(server.port(), "POST", path, token, body);
    }

    private static String header(ResidentClient.Response response, String name) {
        return response.headers().firstValue(name).orElseThrow(() -> new AssertionError("no header " + name));
    }

    private static byte[] frame(Path dir, Map<String, String> env, String[] argv, byte[] payload) {
        return ForwardFrame.body(ForwardFrame.records(dir, env, argv), payload);
    }

    /** A launcher's environment: its own cache, so no test touches the user's. */
    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        env.put("XDG_STATE_HOME", TestTrust.stateHome(tmp));
        return env;
    }

    /** A Claude PreToolUse payload for a Bash command. */
    private static String bash(String command) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("session_id", "s-1");
        payload.put("hook_event_name", "PreToolUse");
        payload.put("tool_name", "Bash");
        payload.put("tool_input", Map.of("command", command));
        return Json.write(payload);
    }

    private static void manifest(Path project, String body) throws IOException {
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), "schema_version: 1\n" + body
                + "native_event_aliases:\n  claude:\n    PreToolUse: pre_tool_use\n");
        TestTrust.trust(project, env());
    }

    private static void script(Path file, String body) throws IOException {
        WardenProcess.writeScript(file, "#!/bin/sh\n" + body + "\n", "rwxr-xr-x");
    }
}
