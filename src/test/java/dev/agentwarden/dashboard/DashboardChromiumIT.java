package dev.agentwarden.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.Chromium;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.WardenProcess;
import java.awt.image.BufferedImage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden dashboard} as a process of the packaged jar, opened in headless Chromium at the URL
 * it printed: the charts render, a decision made by a real {@code warden dispatch} of a captured
 * Claude Code payload appears on the page without a reload (the live table and the report's
 * numbers), screenshots before and after are kept under {@code target/dashboard-chromium/}, and
 * SIGINT (Ctrl-C) stops the server and frees its port.
 */
class DashboardChromiumIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String MANIFEST = """
            schema_version: 1
            concerns:
              no-rm-root:
                script: builtin:deny-pattern
                tools: [Bash]
                patterns:
                  - match: 'rm -rf /'
                    reason: "removes the whole file system"
            platforms:
              claude:
                pre_tool_use: [no-rm-root]
            native_event_aliases:
              claude:
                PreToolUse: pre_tool_use
            """;

    @TempDir
    Path project;
    @TempDir
    Path cache;

    @Test
    void dashboard_inChromium_rendersChartsAndShowsADispatchedDecisionLive() throws Exception {
        assumeTrue(Chromium.available(), "no " + Chromium.BINARY + " (.ci/run installs it)");
        Path manifest = Files.writeString(cache.resolve("manifest.yaml"), MANIFEST);
        dispatch(manifest, "rm -rf / --seeded");
        dispatch(manifest, "ls -la");
        Path shots = Path.of("target", "dashboard-chromium").toAbsolutePath();
        Files.createDirectories(shots);

        Process server = start(List.of("dashboard", "--project-dir", project.toString()));
        try {
            String url = printedUrl(server);
            int port = Integer.parseInt(url.replaceAll("^http://127\\.0\\.0\\.1:(\\d+)/.*$", "$1"));
            try (Chromium.Page page = Chromium.open(url, 1000, 1400)) {
                page.waitUntil("the charts render with the two seeded decisions",
                        "document.querySelector('svg[data-chart=\"over-time\"]') !== null"
                                + " && document.getElementById('total-decisions').dataset.count === '2'", WAIT);
                page.waitUntil("the event stream connects", "document.getElementById('live-status').dataset.state === 'live'",
                        WAIT);
                assertThat(page.evaluate("location.pathname + location.search")).as("the token left the address bar")
                        .isEqualTo("/");
                assertThat(page.evaluate("document.cookie")).as("the session cookie is HttpOnly").isEqualTo("");
                assertThat(page.evaluate("document.querySelector('rect[data-verdict=\"block\"]').dataset.count")).isEqualTo("1");
                assertThat(page.evaluate("document.querySelector('svg[data-chart=\"most-refused\"] rect').dataset.label"))
                        .isEqualTo("rm -rf / --seeded");
                BufferedImage before = page.screenshot(shots.resolve("dashboard-before.png"));
                assertThat(Chromium.pixels(before, 0xe53935)).as("red (refusal) bars painted").isGreaterThan(100);

                dispatch(manifest, "rm -rf / --live-from-the-cli");

                page.waitUntil("the dispatched decision appears in the live table",
                        "Array.from(document.querySelectorAll('tr.live-decision'))"
                                + ".some(r => r.textContent.includes('rm -rf / --live-from-the-cli') && r.dataset.verdict === 'block')",
                        WAIT);
                page.waitUntil("the report's numbers count it", "document.getElementById('total-decisions').dataset.count === '3'"
                        + " && document.querySelector('rect[data-verdict=\"block\"]').dataset.count === '2'", WAIT);
                assertThat(page.evaluate("Array.from(document.querySelectorAll('svg[data-chart=\"most-refused\"] rect'))"
                        + ".map(r => r.dataset.label).sort().join('|')")).isEqualTo("rm -rf / --live-from-the-cli|rm -rf / --seeded");
                assertThat(page.evaluate("document.getElementById('report').dataset.version")).isNotEqualTo("1");
                page.screenshot(shots.resolve("dashboard-after.png"));
            }

            interrupt(server);
            assertThat(server.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("Ctrl-C stops the dashboard").isTrue();
            try (Socket s = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port)) {
                throw new AssertionError("port " + port + " still accepts after Ctrl-C");
            } catch (ConnectException expected) {
                // the port is free
            }
        } finally {
            server.destroyForcibly();
        }
    }

    private Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", cache.toString());
        env.put("WARDEN_CACHE_DIR", cache.resolve("warden").toString());
        env.put("XDG_STATE_HOME", cache.resolve("state").toString());
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        return env;
    }

    /** A real {@code warden dispatch} of Claude Code's captured Bash PreToolUse, its command replaced by {@code command}. */
    private void dispatch(Path manifest, String command) throws Exception {
        Map<String, Object> payload = Json.parseObject(HostPayloads.captured("claude-code-2.1.332/allow-03-PreToolUse.json",
                project.toString()));
        @SuppressWarnings("unchecked")
        Map<String, Object> input = new LinkedHashMap<>((Map<String, Object>) payload.get("tool_input"));
        input.put("command", command);
        payload.put("tool_input", input);
        WardenProcess.Result r = WardenProcess.run(List.of(), List.of("dispatch", "--host", "claude", "--native-event",
                "PreToolUse", "--manifest", manifest.toString()), env(), Json.write(payload).getBytes(StandardCharsets.UTF_8),
                project);
        assertThat(r.exitCode()).as("dispatch of %s: %s", command, r.stderr()).isIn(0, 2);
    }

    private Process start(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(WardenProcess.java().toString()));
        command.addAll(WardenProcess.flagsFor(args));
        command.addAll(List.of("-jar", WardenProcess.jar().toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env());
        return pb.start();
    }

    /** The URL the dashboard printed, read from its output under a deadline. */
    private static String printedUrl(Process server) throws Exception {
        CompletableFuture<String> url = CompletableFuture.supplyAsync(() -> {
            // left open: the server may still print after its URL
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("open http://")) {
                        return line.substring("open ".length());
                    }
                }
                return null;
            } catch (java.io.IOException e) {
                return null;
            }
        });
        String u = url.get(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(u).as("warden dashboard printed its URL").matches("http://127\\.0\\.0\\.1:\\d+/\\?token=[0-9a-f]{32}");
        return u;
    }

    private static void interrupt(Process p) throws Exception {
        Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start();
        assertThat(kill.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }
}
