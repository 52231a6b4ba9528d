package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Streamable HTTP against a scripted in-test server: SSE answers, session id, DELETE, a stalled stream, garbage. */
class HttpChannelTest {
    private static final McpSnapshotter.Limits LIMITS = new McpSnapshotter.Limits(Duration.ofSeconds(3),
            Duration.ofSeconds(2), Duration.ofMillis(100), Duration.ofSeconds(1), 10, 100);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicReference<String> deletedSession = new AtomicReference<>();
    private HttpServer server;

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    private ServerSnapshot run(String mode) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/mcp", exchange -> handle(exchange, mode));
        server.start();
        McpServerConfig config = new McpServerConfig("cursor", "h", "test", false, McpServerConfig.HTTP, null, List.of(),
                Map.of(), null, "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp", Map.of());
        return new McpSnapshotter(LIMITS, dir).snapshot(config, ClientProfile.none(), false);
    }

    private void handle(HttpExchange ex, String mode) throws IOException {
        if (ex.getRequestMethod().equals("DELETE")) {
            deletedSession.set(ex.getRequestHeaders().getFirst("mcp-session-id"));
            ex.sendResponseHeaders(200, -1);
            ex.close();
            return;
        }
        Map<String, Object> m = Json.parseObject(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        Object method = m.get("method");
        if (!m.containsKey("id")) {
            ex.sendResponseHeaders(202, -1);
            ex.close();
            return;
        }
        String result;
        if ("initialize".equals(method)) {
            result = "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"serverInfo\":{\"name\":\"h\",\"version\":\"1\"}}";
            ex.getResponseHeaders().add("mcp-session-id", "sess-42");
        } else if (mode.equals("garbage")) {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            byte[] body = "<html>gateway error</html>".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
            return;
        } else if (mode.equals("stall")) {
            ex.getResponseHeaders().add("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0);
            ex.getResponseBody().flush();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
            return;
        } else {
            result = "{\"tools\":[{\"name\":\"remote\",\"inputSchema\":{\"type\":\"object\"}}]}";
        }
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + m.get("id") + ",\"result\":" + result + "}\n\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void snapshot_overSse_usesTheSessionIdAndDeletesIt() throws IOException {
        ServerSnapshot s = run("ok");
        assertThat(s.status()).as(s.reason()).isEqualTo(ServerStatus.OK);
        assertThat(s.tools()).extracting(t -> t.get("name")).containsExactly("remote");
        assertThat(deletedSession.get()).isEqualTo("sess-42");
    }

    @Test
    void snapshot_whenSseStreamStalls_timesOutAndCloses() throws IOException {
        ServerSnapshot s = run("stall");
        assertThat(s.status()).isEqualTo(ServerStatus.TIMEOUT);
        assertThat(s.reason()).contains("tools/list");
        assertThat(deletedSession.get()).isEqualTo("sess-42");
    }

    @Test
    void snapshot_whenResponseIsNotJson_isGarbage() throws IOException {
        ServerSnapshot s = run("garbage");
        assertThat(s.status()).isEqualTo(ServerStatus.GARBAGE);
        assertThat(s.reason()).contains("gateway error");
    }
}
