package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden serve} keeps the manifest in force between requests ({@code ResolvedManifests}),
 * and a change between two requests on one keep-alive connection shows in the second: an edited
 * manifest, a compiled cache directory made writable by others. The files are first left to
 * settle (a second without change), so that the first request's resolution is the kept one.
 */
class ServeKeptManifestTest {
    private static final String TOKEN = "b".repeat(64);

    @TempDir
    Path tmp;

    @Test
    void serve_manifestEditedBetweenTwoRequests_secondSeesTheNewManifest() throws Exception {
        Path manifest = Files.writeString(tmp.resolve("mine.yaml"), manifest("touch alpha"));
        Path cache = Files.createDirectories(tmp.resolve("cache"));
        WardenServer server = WardenServer.start(0, null, manifest.toString(), TOKEN, 2, env(cache),
                MutableClock.at("2026-05-04T10:00:00Z"));
        try (Socket s = socket(server)) {
            assertThat(exchange(s, bash("touch alpha"))).contains("ALPHA-DENY");
            settle(manifest, cache.resolve("manifests"));
            assertThat(exchange(s, bash("touch alpha"))).contains("ALPHA-DENY");

            Files.writeString(manifest, manifest("touch beta"));

            String second = exchange(s, bash("touch alpha"));
            assertThat(second).startsWith("HTTP/1.1 200 ").doesNotContain("deny");
            assertThat(exchange(s, bash("touch beta"))).contains("BETA-DENY");
        } finally {
            server.close();
        }
    }

    @Test
    void serve_cacheDirMadeWorldWritableBetweenTwoRequests_secondRefusesTheCache() throws Exception {
        Path manifest = Files.writeString(tmp.resolve("mine.yaml"), manifest("touch alpha"));
        Path cache = Files.createDirectories(tmp.resolve("cache"));
        WardenServer server = WardenServer.start(0, null, manifest.toString(), TOKEN, 2, env(cache),
                MutableClock.at("2026-05-04T10:00:00Z"));
        try (Socket s = socket(server)) {
            exchange(s, bash("touch alpha"));
            settle(manifest, cache.resolve("manifests"));
            assertThat(exchange(s, bash("touch alpha"))).doesNotContain("X-Warden-Note");

            Files.setPosixFilePermissions(cache.resolve("manifests"), PosixFilePermissions.fromString("rwxrwxrwx"));

            assertThat(exchange(s, bash("touch alpha"))).contains("ALPHA-DENY")
                    .contains("X-Warden-Note: warden: manifest cache not used: directory " + cache.resolve("manifests"));
        } finally {
            server.close();
        }
    }

    /** Waits, with a deadline, until nothing under {@code paths} changed in the last 1.5 s. */
    private static void settle(Path... paths) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            long newest = 0;
            for (Path p : paths) {
                List<Path> all;
                try (var walk = Files.walk(p)) {
                    all = walk.toList();
                }
                for (Path f : all) {
                    newest = Math.max(newest, ((FileTime) Files.getAttribute(f, "unix:ctime")).toMillis());
                }
            }
            if (System.currentTimeMillis() - newest > 1_500) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("files under " + List.of(paths) + " kept changing");
            }
            Thread.sleep(100);
        }
    }

    private Map<String, String> env(Path cache) throws IOException {
        return Map.of("WARDEN_CACHE_DIR", cache.toString(), "HOME", tmp.toString(),
                "CLAUDE_PROJECT_DIR", Files.createDirectories(tmp.resolve("project")).toString());
    }

    private static Socket socket(WardenServer server) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        s.setSoTimeout(30_000);
        return s;
    }

    private static String bash(String command) {
        return "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"" + command + "\"}}";
    }

    private static String manifest(String pattern) {
        String word = pattern.substring(6).toUpperCase();
        return """
                schema_version: 1
                concerns:
                  mine:
                    script: builtin:deny-pattern
                    posture: blocking
                    tools: [Bash]
                    patterns:
                      - match: '%s'
                        reason: "%s-DENY"
                platforms:
                  claude:
                    pre_tool_use: [mine]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """.formatted(pattern, word);
    }

    /** One request on the kept connection and its whole answer. */
    private static String exchange(Socket s, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        s.getOutputStream().write(("POST /dispatch/claude/PreToolUse HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + TOKEN + "\r\nContent-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().write(b);
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        return HttpAnswer.read(in);
    }
}
