package dev.agentwarden.inventory;

import dev.agentwarden.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * MCP streamable HTTP: each message is a POST to the endpoint; the answer is JSON, an SSE stream or
 * 202; the {@code mcp-session-id} the server assigns goes on every later request; {@code DELETE}
 * ends the session. Bodies are read on daemon threads so a stalled stream never blocks past a deadline.
 */
final class HttpChannel implements McpChannel {
    /** Most bytes read from one response. */
    static final long MAX_BODY_BYTES = 8L * 1024 * 1024;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration DELETE_TIMEOUT = Duration.ofSeconds(2);

    private final URI endpoint;
    private final Map<String, String> headers;
    private final Duration requestTimeout;
    private final HttpClient client;
    private final MessageQueue queue = new MessageQueue();
    private final List<InputStream> open = new CopyOnWriteArrayList<>();
    private volatile String sessionId;
    private volatile String protocolVersion;

    HttpChannel(McpServerConfig server, Duration requestTimeout) throws McpFailure {
        try {
            this.endpoint = URI.create(server.url());
        } catch (IllegalArgumentException e) {
            throw new McpFailure(ServerStatus.START_FAILED, "not a URL: " + server.url());
        }
        if (!"http".equals(endpoint.getScheme()) && !"https".equals(endpoint.getScheme())) {
            throw new McpFailure(ServerStatus.START_FAILED, "not an http(s) URL: " + server.url());
        }
        this.headers = server.headers();
        this.requestTimeout = requestTimeout;
        this.client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    void protocolVersion(String version) {
        this.protocolVersion = version;
    }

    @Override
    public void send(Map<String, Object> message) throws IOException {
        HttpRequest.Builder request = base().header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(message), StandardCharsets.UTF_8));
        HttpResponse<InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        String assigned = response.headers().firstValue("mcp-session-id").orElse(null);
        if (assigned != null && sessionId == null) {
            sessionId = assigned;
        }
        InputStream body = response.body();
        int status = response.statusCode();
        if (status == 202 || status == 204) {
            body.close();
            return;
        }
        if (status / 100 != 2) {
            body.close();
            queue.fail(new McpFailure(ServerStatus.ERROR, "HTTP " + status + " from " + endpoint));
            return;
        }
        String type = response.headers().firstValue("content-type").orElse("").toLowerCase(java.util.Locale.ROOT);
        open.add(body);
        Thread reader = new Thread(() -> read(body, type.startsWith("text/event-stream")), "mcp-http");
        reader.setDaemon(true);
        reader.start();
    }

    private HttpRequest.Builder base() {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(requestTimeout);
        for (Map.Entry<String, String> h : headers.entrySet()) {
            b.header(h.getKey(), h.getValue());
        }
        if (sessionId != null) {
            b.header("mcp-session-id", sessionId);
        }
        if (protocolVersion != null) {
            b.header("mcp-protocol-version", protocolVersion);
        }
        return b;
    }

    private void read(InputStream body, boolean sse) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new BoundedInputStream(body, MAX_BODY_BYTES), StandardCharsets.UTF_8))) {
            if (!sse) {
                StringBuilder text = new StringBuilder();
                char[] buffer = new char[8192];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    text.append(buffer, 0, n);
                }
                queue.offerText(text.toString());
                return;
            }
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        queue.offerText(data.toString());
                        data.setLength(0);
                    }
                } else if (line.startsWith("data:")) {
                    if (data.length() > 0) {
                        data.append('\n');
                    }
                    data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
                }
            }
            if (data.length() > 0) {
                queue.offerText(data.toString());
            }
        } catch (IOException e) {
            queue.fail(new McpFailure(ServerStatus.GARBAGE, "reading the response failed: " + e.getMessage()));
        } finally {
            open.remove(body);
        }
    }

    @Override
    public Map<String, Object> receive(long deadlineNanos) throws McpFailure, InterruptedException {
        return queue.take(deadlineNanos);
    }

    /** Sends DELETE for the session (bounded) and closes every stream still open. */
    @Override
    public void close() {
        for (InputStream body : open) {
            try {
                body.close();
            } catch (IOException ignored) {
                // Closing is best effort.
            }
        }
        if (sessionId != null) {
            HttpRequest.Builder delete = base().timeout(DELETE_TIMEOUT).DELETE();
            try {
                client.sendAsync(delete.build(), HttpResponse.BodyHandlers.discarding())
                        .get(DELETE_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (Exception ignored) {
                // The server may already be gone; the session then expires on its side.
            }
        }
    }

    /** Fails a read that passes {@code limit} bytes. */
    private static final class BoundedInputStream extends java.io.FilterInputStream {
        private long remaining;

        BoundedInputStream(InputStream in, long limit) {
            super(in);
            this.remaining = limit;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0 && (remaining -= n) < 0) {
                throw new IOException("response larger than " + MAX_BODY_BYTES + " bytes");
            }
            return n;
        }
    }
}
