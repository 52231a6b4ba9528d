package dev.agentwarden.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Headless Chromium (Debian's {@code chromium}, which {@code .ci/run} installs) for browser tests:
 * one-shot runs ({@link #run}: {@code --dump-dom}, {@code --screenshot}) and a live page driven over
 * the DevTools protocol ({@link #open}), whose DOM a test polls under a deadline while the page
 * changes, and whose screenshots it saves.
 */
public final class Chromium {
    public static final Path BINARY = Path.of("/usr/bin/chromium");
    /** Longest a one-shot run, the browser's start, or one protocol call may take on a loaded machine. */
    static final long TIMEOUT_SECONDS = 120;

    private Chromium() {
    }

    public static boolean available() {
        return Files.isExecutable(BINARY);
    }

    private static List<String> command(Path profile) {
        return new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=" + profile));
    }

    /** Chromium's own scratch files ({@code TMPDIR}) inside {@code profile}, deleted with it. */
    private static ProcessBuilder inProfile(ProcessBuilder pb, Path profile) throws IOException {
        pb.environment().put("TMPDIR", Files.createDirectories(profile.resolve("tmp")).toString());
        return pb;
    }

    /** Runs Chromium once with {@code args} and returns what it printed (the DOM, for {@code --dump-dom}). */
    public static String run(String... args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("chromium-profile");
        Path out = Files.createTempFile("chromium", ".out");
        try {
            List<String> cmd = command(profile);
            cmd.addAll(List.of(args));
            Process p = inProfile(new ProcessBuilder(cmd), profile).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
            }
            assertThat(p.exitValue()).as("chromium exit, %s", cmd).isZero();
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            Scratch.delete(profile);
            Files.deleteIfExists(out);
        }
    }

    /** Starts Chromium on {@code url} and connects to its page over the DevTools protocol. */
    public static Page open(String url, int width, int height) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("chromium-profile");
        List<String> cmd = command(profile);
        cmd.addAll(List.of("--remote-debugging-port=0", "--window-size=" + width + "," + height, "--hide-scrollbars", url));
        Process p = inProfile(new ProcessBuilder(cmd), profile).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Path portFile = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
                assertThat(p.isAlive()).as("chromium is running").isTrue();
                assertThat(System.nanoTime() - deadline).as("chromium's DevToolsActivePort appears").isNegative();
                Thread.sleep(50);
            }
            int port = Integer.parseInt(Files.readAllLines(portFile).get(0).trim());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String socketUrl = null;
            while (socketUrl == null) {
                assertThat(System.nanoTime() - deadline).as("chromium lists its page").isNegative();
                String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
                for (Object o : (List<?>) Json.parse(list)) {
                    Map<?, ?> target = (Map<?, ?>) o;
                    if ("page".equals(target.get("type"))) {
                        socketUrl = (String) target.get("webSocketDebuggerUrl");
                    }
                }
                if (socketUrl == null) {
                    Thread.sleep(50);
                }
            }
            Page page = new Page(p, profile);
            page.socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(socketUrl), page).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return page;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            stop(p, profile);
            throw e;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            stop(p, profile);
            throw new IOException("cannot connect to chromium's DevTools socket", e);
        }
    }

    /** Stops the browser {@code p} and deletes its {@code profile}. */
    private static void stop(Process p, Path profile) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        Scratch.delete(profile);
    }

    /** A page in a running Chromium, driven over the DevTools protocol; closing it stops the browser and deletes its profile. */
    public static final class Page implements WebSocket.Listener, AutoCloseable {
        private final Process process;
        private final Path profile;
        private final AtomicInteger ids = new AtomicInteger();
        private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
        private final StringBuilder partial = new StringBuilder();
        private WebSocket socket;

        private Page(Process process, Path profile) {
            this.process = process;
            this.profile = profile;
        }

        /** The value of {@code expression} evaluated in the page (a string, number, boolean or {@code null}). */
        @SuppressWarnings("unchecked")
        public Object evaluate(String expression) throws Exception {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("expression", expression);
            params.put("returnByValue", true);
            Map<String, Object> result = call("Runtime.evaluate", params);
            assertThat(result).as("evaluate %s", expression).doesNotContainKey("exceptionDetails");
            return ((Map<String, Object>) result.get("result")).get("value");
        }

        /** Evaluates {@code expression} until it is {@code true}, failing with {@code what} after {@code timeout}. */
        public void waitUntil(String what, String expression, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!Boolean.TRUE.equals(evaluate(expression))) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("within " + timeout.toSeconds() + " s: " + what + " (" + expression + ")");
                }
                Thread.sleep(50);
            }
        }

        /** Saves a PNG of the page as it is now. */
        public BufferedImage screenshot(Path png) throws Exception {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("format", "png");
            Map<String, Object> result = call("Page.captureScreenshot", params);
            Files.createDirectories(png.toAbsolutePath().getParent());
            Files.write(png, Base64.getDecoder().decode((String) result.get("data")));
            return javax.imageio.ImageIO.read(png.toFile());
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> call(String method, Map<String, Object> params) throws Exception {
            int id = ids.incrementAndGet();
            CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
            pending.put(id, answer);
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("id", (long) id);
            message.put("method", method);
            message.put("params", params);
            socket.sendText(Json.write(message), true).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<String, Object> reply = answer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(reply).as("%s answered", method).doesNotContainKey("error");
            return (Map<String, Object>) reply.get("result");
        }

        @Override
        @SuppressWarnings("unchecked")
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                Map<String, Object> message = (Map<String, Object>) Json.parse(partial.toString());
                partial.setLength(0);
                if (message.get("id") instanceof Long id) {
                    CompletableFuture<Map<String, Object>> f = pending.remove(id.intValue());
                    if (f != null) {
                        f.complete(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void close() throws InterruptedException {
            if (socket != null) {
                socket.abort();
            }
            stop(process, profile);
        }
    }

    /** How often {@code needle} occurs in {@code text}. */
    public static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    /** Pixels of exactly the colour {@code rgb} in {@code image}. */
    public static int pixels(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
