package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host HTTP hooks on the resident ({@link WardenServer.HookPort}) and keep-alive on {@code /dispatch}:
 * an HTTP client speaks first and gets no greeting, several hooks share one connection, and the
 * port's own token is required.
 */
class HookPortTest {
    private static final String TOKEN = "f".repeat(64);
    private static final String PROOF = "e".repeat(64);
    private static final String HOOK_TOKEN = "d".repeat(64);
    private static final String NO_VERIFY = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";

    @TempDir
    Path tmp;

    @Test
    void residentHookPort_httpClientWithoutGreeting_getsTheDispatchAnswer_twiceOnOneConnection() throws Exception {
        int port = freePort();
        Map<String, String> env = env();
        Path dir = Files.createDirectory(tmp.resolve("resident"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path project = Path.of(env.get("CLAUDE_PROJECT_DIR")).toRealPath();
        String id = dev.agentwarden.io.HookProjects.add(dir, project);
        String bound = NO_VERIFY.replace("{", "{\"cwd\":\"" + project + "\",");
        WardenServer server = WardenServer.startResident(TOKEN, PROOF, 2, env, MutableClock.at("2026-05-04T10:00:00Z"),
                new WardenServer.HookPort(port, HOOK_TOKEN, dir));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            for (int i = 0; i < 2; i++) {
                String answer = exchange(s, "/project/" + id + "/dispatch/claude/PreToolUse", HOOK_TOKEN, bound, false);
                assertThat(answer).startsWith("HTTP/1.1 200 ").contains("Connection: keep-alive")
                        .contains("\"permissionDecision\":\"deny\"").doesNotContain("refused");
            }
            assertThat(Files.list(project.resolve(".warden/state/decisions")).count()).as("B's decision log").isEqualTo(1);
        } finally {
            server.close();
        }
    }

    @Test
    void residentHookPort_forwardTokenOrNone_isRefused() throws Exception {
        int port = freePort();
        WardenServer server = WardenServer.startResident(TOKEN, PROOF, 2, env(), MutableClock.at("2026-05-04T10:00:00Z"),
                new WardenServer.HookPort(port, HOOK_TOKEN));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            assertThat(exchange(s, TOKEN, NO_VERIFY, true)).startsWith("HTTP/1.1 401 ");
        } finally {
            server.close();
        }
    }

    @Test
    void serveDispatch_connectionClose_isClosedAfterTheAnswer() throws Exception {
        WardenServer server = WardenServer.start(0, null, null, TOKEN, 2, env(), MutableClock.at("2026-05-04T10:00:00Z"));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(30_000);
            String answer = exchange(s, TOKEN, NO_VERIFY, true);
            assertThat(answer).startsWith("HTTP/1.1 200 ").contains("Connection: close");
            assertThat(s.getInputStream().read()).as("end of stream after a Connection: close answer").isEqualTo(-1);
        } finally {
            server.close();
        }
    }

    @Test
    void hookPorts_fileReadableByOthers_isNotUsed() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("resident"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        WardenServer.HookPort made = HookPorts.ensure(dir);
        assertThat(HookPorts.read(dir)).isEqualTo(made);
        assertThat(Files.getPosixFilePermissions(dir.resolve(HookPorts.FILE))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(dir.resolve(HookPorts.FILE), PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(HookPorts.read(dir)).isNull();
    }

    private Map<String, String> env() throws IOException {
        return Map.of("WARDEN_CACHE_DIR", Files.createDirectories(tmp.resolve("cache")).toString(), "HOME", tmp.toString(),
                "CLAUDE_PROJECT_DIR", Files.createDirectories(tmp.resolve("project")).toString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** One request and its whole answer (head and Content-Length body), the connection left open. */
    private static String exchange(Socket s, String token, String body, boolean close) throws IOException {
        return exchange(s, "/dispatch/claude/PreToolUse", token, body, close);
    }

    private static String exchange(Socket s, String path, String token, String body, boolean close) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        OutputStream out = s.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                + "\r\nContent-Length: " + b.length + (close ? "\r\nConnection: close" : "") + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.flush();
        InputStream in = s.getInputStream();
        return HttpAnswer.read(in);
    }
}
