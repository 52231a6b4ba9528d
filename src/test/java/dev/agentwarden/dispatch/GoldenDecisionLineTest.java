package dev.agentwarden.dispatch;

import org.junit.jupiter.api.Order;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.server.ForwardRequest;
import dev.agentwarden.server.WardenServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus writes the same decision line, volatile fields masked, whichever transport
 * carries the event: in-process as its own JVM would, forwarded to the resident server ({@code /forward}),
 * and posted to {@code warden serve} ({@code /dispatch}); each line names its transport.
 *
 * <p>The in-process run is the one {@link GoldenDispatchTest} and {@link GoldenServeTest} also observe
 * ({@link GoldenInProcess}). One resident serves every case, as it serves a host's events (a forwarded event carries its own
 * working directory and environment). {@code warden serve} takes its project and environment at start,
 * so each case gets a server of its own. Each run is in a fresh project (a line counts the session's
 * strikes, which are project state); all share {@link GoldenInProcess}'s compiled-manifest cache, written atomically. Cases run
 * side by side on the pool: they share no project, strikes file, port or stream, and {@code Strikes} keeps one
 * in-JVM monitor per lock file, so a dispatch never waits for another case's strike (docs/unit-parallel.md).
 * The resident has more workers than the pool runs cases at once, so no forwarded event queues behind
 * another case's.
 */
@Order(1) // the longest unit class starts first, not last (junit-platform.properties orders classes)
@Execution(ExecutionMode.CONCURRENT)
class GoldenDecisionLineTest {
    private static final String TOKEN = "golden-decisions-token";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    /** More than the cases the pool runs at once (unit.parallelism, 3 by default, plus threads it adds while one blocks). */
    private static final int RESIDENT_THREADS = 8;
    private static WardenServer resident;

    @BeforeAll
    static void startResident() throws IOException {
        resident = WardenServer.startResident(TOKEN, "0".repeat(64), RESIDENT_THREADS, Map.of(), GoldenCorpus.CLOCK);
    }

    @AfterAll
    static void stopResident() {
        resident.close();
    }

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decisionLine_everyTransport_isTheSame(GoldenCorpus.Case c) throws Exception {
        List<String> ownJvmLines = GoldenInProcess.of(c).decisionLines();
        assertThat(ownJvmLines).as("decision lines of the in-process run").hasSize(1);
        String ownJvm = ownJvmLines.get(0);
        assertThat(DecisionLines.transport(ownJvm)).isEqualTo(DecisionLog.OWN_JVM);

        String forwarded;
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open(GoldenInProcess.cache())) {
            assertThat(forward(resident.port(), forwardFrame(c, p))).startsWith("HTTP/1.1 200");
            forwarded = DecisionLines.only(p.dir);
        }
        assertThat(DecisionLines.transport(forwarded)).isEqualTo(DecisionLog.RESIDENT);
        assertThat(DecisionLines.masked(forwarded)).as("resident").isEqualTo(DecisionLines.masked(ownJvm));

        if (c.event() == null) { // an HTTP hook's path names no canonical event (--event)
            String serve;
            try (GoldenCorpus.Project p = GoldenCorpus.Project.open(GoldenInProcess.cache())) {
                WardenServer server = WardenServer.start(0, null, c.manifest().toString(), TOKEN, 1,
                        p.env(c), GoldenCorpus.CLOCK);
                try {
                    String path = "/dispatch/" + c.host() + (c.nativeEvent() == null ? "" : "/" + c.nativeEvent());
                    assertThat(post(server, path, c.stdin()).statusCode()).isEqualTo(200);
                } finally {
                    server.close();
                }
                serve = DecisionLines.only(p.dir);
            }
            assertThat(DecisionLines.transport(serve)).isEqualTo(DecisionLog.SERVE);
            assertThat(DecisionLines.masked(serve)).as("serve").isEqualTo(DecisionLines.masked(ownJvm));
        }
    }

    /**
     * {@code POST /forward} as {@code bin/warden} speaks it: read the greeting, send, answer
     * {@code 102 Processing} with {@code g}; returns the final status line.
     */
    private static String forward(int port, byte[] body) throws Exception {
        try (java.net.Socket socket = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            java.io.InputStream in = socket.getInputStream();
            assertThat(line(in)).startsWith(WardenServer.GREETING);
            java.io.OutputStream out = socket.getOutputStream();
            out.write(("POST /forward HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            String status = line(in);
            if (status.startsWith("HTTP/1.1 102")) {
                while (!line(in).isEmpty()) {
                    // the interim response's headers
                }
                out.write('g');
                out.flush();
                status = line(in);
            }
            return status;
        }
    }

    private static String line(java.io.InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }

    private static HttpResponse<byte[]> post(WardenServer server, String path, byte[] body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The launcher's frame: magic, working dir, each argument, each variable, NUL-terminated; then stdin. */
    private static byte[] forwardFrame(GoldenCorpus.Case c, GoldenCorpus.Project p) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        record(b, ForwardRequest.MAGIC);
        record(b, "d" + p.dir);
        for (String a : c.argv()) {
            record(b, "a" + a);
        }
        for (Map.Entry<String, String> e : p.env(c).entrySet()) {
            record(b, "e" + e.getKey() + "=" + e.getValue());
        }
        b.write(0);
        b.writeBytes(c.stdin());
        return b.toByteArray();
    }

    private static void record(ByteArrayOutputStream b, String r) {
        b.writeBytes(r.getBytes(StandardCharsets.UTF_8));
        b.write(0);
    }

}
