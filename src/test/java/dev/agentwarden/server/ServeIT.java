package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.DispatchMain;
import dev.agentwarden.dispatch.DispatchRequest;
import dev.agentwarden.testing.DispatchCall;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code warden serve} as a process of the packaged jar: state file, auth, routing, limits,
 * concurrency, and answers equal to the in-process dispatch.
 */
class ServeIT {
    private static final String PAYLOAD = "{\"session_id\":\"s1\",\"cwd\":\"/tmp\",\"hook_event_name\":\"PreToolUse\","
            + "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static Path project;
    private static Path cache;
    private static Path stdout;
    private static Process process;
    private static int port;
    private static String token;

    @BeforeAll
    static void startServer() throws Exception {
        project = Files.createTempDirectory("warden-serve-project");
        cache = Files.createTempDirectory("warden-serve-cache");
        stdout = Files.createTempFile("warden-serve", ".out");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(WardenProcess.flagsFor(List.of("serve")));
        command.addAll(List.of("-jar", WardenProcess.jar().toString(), "serve", "--project-dir", project.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().clear();
        pb.environment().putAll(env());
        process = pb.start();
        Path state = cache.resolve("serve.json");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
        while (!Files.exists(state) || Files.size(state) == 0) {
            assertThat(process.isAlive()).as("warden serve is running").isTrue();
            assertThat(System.nanoTime()).as("serve.json appears").isLessThan(deadline);
            Thread.onSpinWait();
            Thread.sleep(20);
        }
        Map<String, Object> json = Json.parseObject(Files.readString(state));
        port = ((Long) json.get("port")).intValue();
        token = (String) json.get("token");
        assertThat(json.get("pid")).isEqualTo(process.pid());
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (process != null) {
            process.destroy();
            process.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        dev.agentwarden.testing.Scratch.delete(project);
        dev.agentwarden.testing.Scratch.delete(cache);
        dev.agentwarden.testing.Scratch.delete(stdout);
    }

    private static Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", cache.toString());
        env.put("WARDEN_CACHE_DIR", cache.toString());
        return env;
    }

    /** The in-process dispatch of the same request the server turns {@code body} into. */
    private static HostResponse inProcess(byte[] body) {
        String[] argv = {"dispatch", "--host", "claude", "--native-event", "PreToolUse", "--project-dir", project.toString()};
        return DispatchCall.respond(argv, new ByteArrayInputStream(body), Caller.thisProcess(env()), Clock.systemUTC(),
                DispatchRequest.Transport.OWN_JVM);
    }

    private static HttpResponse<String> post(String path, String auth, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Test
    void serve_start_writesOwnerOnlyStateAndPrintsHookEntry() throws Exception {
        Path state = cache.resolve("serve.json");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rw-------");
        // serve prints the hook blocks after it writes serve.json: wait for the last one, with a deadline
        String printed = Files.readString(stdout);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
        while (!printed.contains("\"allowedEnvVars\"") && System.nanoTime() < deadline && process.isAlive()) {
            Thread.sleep(20);
            printed = Files.readString(stdout);
        }
        assertThat(printed).contains("http://127.0.0.1:" + port + "/dispatch/")
                .contains("\"type\": \"http\"").contains("Bearer $WARDEN_TOKEN").contains("\"allowedEnvVars\"")
                .doesNotContain(token);
    }

    @Test
    void serve_bearerToken_answersLikeDispatch() throws Exception {
        HttpResponse<String> r = post("/dispatch/claude/PreToolUse", "Bearer " + token, PAYLOAD.getBytes(StandardCharsets.UTF_8));
        HostResponse expected = inProcess(PAYLOAD.getBytes(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(expected.stdout()).isNotEmpty();
        assertThat(r.headers().firstValue("X-Warden-Exit")).contains(Integer.toString(expected.exitCode()));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("POST", "/dispatch/claude/PreToolUse", null, 401, "unauthorized"),
                Arguments.of("POST", "/dispatch/claude/PreToolUse", "Bearer wrong", 401, "unauthorized"),
                Arguments.of("POST", "/dispatch/claude/PreToolUse", "Basic x", 401, "unauthorized"),
                Arguments.of("POST", "/other", "TOKEN", 404, "not_found"),
                Arguments.of("POST", "/forward", "TOKEN", 404, "not_found"),
                Arguments.of("POST", "/dispatch/claude/PreToolUse/extra", "TOKEN", 404, "not_found"),
                Arguments.of("POST", "/dispatch/cl%20aude/PreToolUse", "TOKEN", 404, "not_found"),
                Arguments.of("GET", "/dispatch/claude/PreToolUse", "TOKEN", 405, "method_not_allowed"),
                Arguments.of("PUT", "/dispatch/claude/PreToolUse", "TOKEN", 405, "method_not_allowed"));
    }

    @ParameterizedTest(name = "{0} {1} auth={2} -> {3}")
    @MethodSource("refusals")
    void serve_refusedRequest_statusAndCode(String method, String path, String auth, int status, String code) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.ofString(PAYLOAD));
        if (auth != null) {
            b.header("Authorization", auth.replace("TOKEN", "Bearer " + token));
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(status);
        assertThat(Json.parseObject(r.body())).containsEntry("error", code);
        assertThat(r.body()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.headers().firstValue("X-Warden-Exit")).isEmpty();
    }

    @Test
    void serve_forwardWithAValidFrame_404() throws Exception {
        byte[] frame = ForwardFrame.body(ForwardFrame.records(project, Map.of("PATH", "/usr/bin:/bin"),
                "dispatch", "--host", "claude"), ("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"ls\"}}").getBytes(StandardCharsets.UTF_8));

        HttpResponse<String> r = post("/forward", "Bearer " + token, frame);

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(Json.parseObject(r.body())).containsEntry("error", "not_found");
        assertThat(r.headers().firstValue("X-Warden-Exit")).isEmpty();
    }

    @Test
    void serve_halfOpenConnectionsFlood_moreThanItsThreads_requestStillAnswered() throws Exception {
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                s.getOutputStream().write("POST /dispatch/claude/PreToolUse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthor"
                        .getBytes(StandardCharsets.US_ASCII));
                flood.add(s);
            }
            HttpResponse<String> r = CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/dispatch/claude/PreToolUse")).header("Authorization", "Bearer " + token)
                            .POST(HttpRequest.BodyPublishers.ofString(PAYLOAD)).build(),
                    HttpResponse.BodyHandlers.ofString()).get(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo(inProcess(PAYLOAD.getBytes(StandardCharsets.UTF_8)).stdout());
            for (Socket s : flood) {
                s.setSoTimeout(30_000);
                assertThat(s.getInputStream().read()).as("closed at the head deadline").isEqualTo(-1);
            }
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
    }

    @Test
    void serve_oversizeBody_answersLikeDispatchOverCap() throws Exception {
        byte[] body = new byte[DispatchMain.DEFAULT_MAX_PAYLOAD_BYTES + 1];
        java.util.Arrays.fill(body, (byte) ' ');
        HttpResponse<String> r = post("/dispatch/claude/PreToolUse", "Bearer " + token, body);
        HostResponse expected = inProcess(body);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(expected.stdout());
        assertThat(r.headers().firstValue("X-Warden-Exit")).contains(Integer.toString(expected.exitCode()));
        assertThat(r.headers().firstValue("X-Warden-Note").orElse("")).contains("payload_too_large")
                .isEqualTo(Reply.note(expected.stderr()));
    }

    @Test
    void serve_concurrentRequests_allAnswerLikeDispatch() throws Exception {
        HostResponse expected = inProcess(PAYLOAD.getBytes(StandardCharsets.UTF_8));
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<String>>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(threads.submit(() -> {
                    List<String> bodies = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        HttpResponse<String> r = post("/dispatch/claude/PreToolUse", "Bearer " + token,
                                PAYLOAD.getBytes(StandardCharsets.UTF_8));
                        bodies.add(r.statusCode() + " " + r.body());
                    }
                    return bodies;
                }));
            }
            List<String> all = new ArrayList<>();
            for (Future<List<String>> f : futures) {
                all.addAll(f.get(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            assertThat(all).hasSize(400).containsOnly("200 " + expected.stdout());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void serve_nonLoopbackAddress_refusesConnection() throws Exception {
        List<InetAddress> external = new ArrayList<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    external.add(a);
                }
            }
        }
        try (Socket loopback = new Socket()) {
            loopback.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
        }
        Assumptions.assumeFalse(external.isEmpty(), "no non-loopback IPv4 address on this machine");
        for (InetAddress a : external) {
            try (Socket s = new Socket()) {
                assertThatThrownBy(() -> s.connect(new InetSocketAddress(a, port), 5000))
                        .as("connect to %s:%d", a, port).isInstanceOf(ConnectException.class);
            }
        }
    }

    @Test
    void serve_inProcess_bindsLoopback() throws IOException {
        try (WardenServer server = WardenServer.start(0, null, null, "t", 1, env(), Clock.systemUTC())) {
            assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
            assertThat(server.port()).isPositive();
        }
    }
}
