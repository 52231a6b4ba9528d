package dev.agentwarden.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

/**
 * A model API on 127.0.0.1 that plays a {@link ModelScript}: an HTTP server started and stopped by
 * a test, with a random free port.
 *
 * <p>It keeps no conversation state. Each request names its conversation and step itself: a user
 * message carrying a spawn's prompt selects that subagent's turns (else the main turns), and the
 * number of model turns after that message is the step. The one thing it remembers is which
 * conversations have begun, so that a {@link Turn.AfterStart} turn can be held until another
 * conversation starts (a synchronisation point, never a delay).
 *
 * <p>Requests for any other path or method (Claude Code's start-up {@code HEAD /}, token counting,
 * model lists) are answered 404. Every request is recorded, parsed, for the test to read; a script
 * that runs out of turns, a hold that times out, or a body that is not JSON is recorded as a
 * problem and answered so that the host still ends cleanly.
 */
final class ScriptedModelServer implements AutoCloseable {
    /** Largest request body read; a larger one is refused with 413. */
    static final int MAX_BODY_BYTES = 32 * 1024 * 1024;
    /** Text the model answers once its script is exhausted. */
    static final String EXHAUSTED = "[scripted model] script exhausted";
    /** Longest a {@link Turn.AfterStart} turn is held; then it is played anyway and a problem recorded. */
    static final Duration HOLD_LIMIT = Duration.ofSeconds(30);

    private final ModelApi api;
    private final ModelScript script;
    private final HttpServer http;
    private final ExecutorService executor;
    private final AtomicInteger seq = new AtomicInteger();
    private final long startNanos = System.nanoTime();
    private final List<Exchange> exchanges = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Set<String> started = new HashSet<>();
    private final Duration holdLimit;

    /**
     * One request as received ({@code atMillis} after the server started), and the step that
     * answered it ({@code route} null when not a model step).
     */
    record Exchange(int seq, long atMillis, String method, String path, Map<String, Object> body, String route,
                    int step, int status) {
    }

    private ScriptedModelServer(ModelApi api, ModelScript script, Duration holdLimit) throws IOException {
        this.api = api;
        this.script = script;
        this.holdLimit = holdLimit;
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-model-" + api.name());
            t.setDaemon(true);
            return t;
        });
        http.createContext("/", this::handle);
        http.setExecutor(executor);
    }

    static ScriptedModelServer start(ModelApi api, ModelScript script) throws IOException {
        return start(api, script, HOLD_LIMIT);
    }

    /** A server whose {@link Turn.AfterStart} holds give up after {@code holdLimit}. */
    static ScriptedModelServer start(ModelApi api, ModelScript script, Duration holdLimit) throws IOException {
        ScriptedModelServer server = new ScriptedModelServer(api, script, holdLimit);
        server.http.start();
        return server;
    }

    int port() {
        return http.getAddress().getPort();
    }

    URI baseUri() {
        return URI.create("http://127.0.0.1:" + port());
    }

    ModelApi api() {
        return api;
    }

    /** Every request so far, in arrival order. */
    List<Exchange> exchanges() {
        synchronized (exchanges) {
            return List.copyOf(exchanges);
        }
    }

    /** The requests a script step answered (not 404s, not side queries). */
    List<Exchange> steps() {
        return exchanges().stream().filter(e -> e.route() != null && !"side".equals(e.route())).toList();
    }

    /** Script and protocol problems seen so far; empty when the host followed the script. */
    List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        int n = seq.incrementAndGet();
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        try (exchange) {
            String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
            boolean gzip = "gzip".equalsIgnoreCase(encoding);
            byte[] raw = readCapped(gzip ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody());
            String fixed = "POST".equals(method) && !api.path().equals(path) ? api.fixedAnswer(path) : null;
            if (fixed != null) {
                record(new Exchange(n, millis(), method, path, Map.of(), null, -1, 200));
                byte[] answer = fixed.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
                return;
            }
            if (!"POST".equals(method) || !api.path().equals(path)) {
                record(new Exchange(n, millis(), method, path, Map.of(), null, -1, 404));
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (encoding != null && !gzip && !"identity".equalsIgnoreCase(encoding)) {
                problem("request " + n + ": unsupported Content-Encoding " + encoding);
                record(new Exchange(n, millis(), method, path, Map.of(), null, -1, 415));
                exchange.sendResponseHeaders(415, -1);
                return;
            }
            if (raw == null) {
                problem("request " + n + ": body over " + MAX_BODY_BYTES + " bytes");
                record(new Exchange(n, millis(), method, path, Map.of(), null, -1, 413));
                exchange.sendResponseHeaders(413, -1);
                return;
            }
            Map<String, Object> body;
            try {
                body = Json.parseObject(new String(raw, StandardCharsets.UTF_8));
            } catch (JsonException e) {
                problem("request " + n + ": body is not a JSON object (" + e.getMessage() + ")");
                record(new Exchange(n, millis(), method, path, Map.of(), null, -1, 400));
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            Step step = step(body, n);
            record(new Exchange(n, millis(), method, path, body, step.route(), step.index(), 200));
            Turn turn = step.turn();
            if (turn instanceof Turn.AfterStart hold) {
                awaitStart(hold.conversation(), n);
                turn = hold.turn();
            }
            byte[] stream = api.stream(turn, body, n).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", api.streamContentType());
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.sendResponseHeaders(200, stream.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(stream);
            }
        }
    }

    private record Step(String route, int index, Turn turn) {
    }

    /** Picks the conversation and step a request asks for; see the class comment. */
    private Step step(Map<String, Object> body, int n) {
        if (api.sideQuery(body)) {
            return new Step("side", 0, Turn.text("ok"));
        }
        List<ModelApi.Entry> conversation = api.conversation(body);
        ModelScript.Route route = script.mainRoute();
        int anchor = -1;
        for (int i = 0; i < conversation.size() && anchor < 0; i++) {
            ModelApi.Entry entry = conversation.get(i);
            if (!entry.modelTurn()) {
                Optional<ModelScript.Route> sub = script.subagentRoute(entry.userText());
                if (sub.isPresent()) {
                    route = sub.get();
                    anchor = i;
                }
            }
        }
        int index = 0;
        for (int i = anchor + 1; i < conversation.size(); i++) {
            if (conversation.get(i).modelTurn()) {
                index++;
            }
        }
        markStarted(route.name());
        Optional<Turn> turn = route.at(index);
        if (turn.isEmpty()) {
            problem("request " + n + ": script exhausted (conversation '" + route.name() + "' has "
                    + route.turns().size() + " turns, host asked for turn " + (index + 1) + ")");
        }
        return new Step(route.name(), index, turn.orElse(Turn.text(EXHAUSTED)));
    }

    private void markStarted(String route) {
        synchronized (started) {
            if (started.add(route)) {
                started.notifyAll();
            }
        }
    }

    /** Waits until {@code conversation} has sent a request, at most {@link #holdLimit}. */
    private void awaitStart(String conversation, int n) {
        long deadline = System.nanoTime() + holdLimit.toNanos();
        synchronized (started) {
            while (!started.contains(conversation)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    problem("request " + n + ": held for conversation '" + conversation + "', which did not start within "
                            + holdLimit.toMillis() + " ms");
                    return;
                }
                try {
                    started.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private void record(Exchange e) {
        synchronized (exchanges) {
            exchanges.add(e);
        }
    }

    private void problem(String text) {
        synchronized (problems) {
            problems.add(text);
        }
    }

    /** The whole body, or null once it is over {@link #MAX_BODY_BYTES}. */
    private static byte[] readCapped(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        return body.length > MAX_BODY_BYTES ? null : body;
    }
}
