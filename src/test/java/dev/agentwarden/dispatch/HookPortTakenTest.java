package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.io.OwnedPath;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: with {@code install --transport http}, another local user who listened on the hook
 * port (before the resident bound it) received every prompt and tool input and answered every
 * hook, so a denied action ran. SessionStart of an HTTP-hooks session now halts the session when
 * the port's listener is not this user, and the decision log records why.
 */
class HookPortTakenTest {
    private static final String TOKEN = "ab".repeat(32);
    /** The system interpreter, which another uid may run (a per-user shim under root's home may not be). */
    private static final String PYTHON = "/usr/bin/python3";
    private static final String SESSION_START = "{\"session_id\":\"s-1\",\"hook_event_name\":\"SessionStart\",\"source\":\"startup\"}";

    @TempDir
    Path tmp;

    @Test
    void sessionStart_hookPortHeldByAnotherUser_haltsTheSessionAndRecordsIt() throws Exception {
        assumeTrue(OwnedPath.currentUid() == 0, "needs root to run a listener as another uid (CI runs as root)");
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), "needs " + PYTHON + " to listen as another uid");
        int port = freePort();
        Process squatter = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", PYTHON, "-c",
                "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1'," + port + "))\ns.listen()\n"
                        + "print('ready',flush=True)\ntime.sleep(300)").redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(squatter.getInputStream(), StandardCharsets.UTF_8));
            String ready = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    return e.toString();
                }
            }).get(60, TimeUnit.SECONDS);
            assertThat(ready).as("the other user's listener started").isEqualTo("ready");

            String[] result = dispatch(port);

            assertThat(result[0]).contains("\"continue\":false").contains("uid 65534").contains("127.0.0.1:" + port);
            assertThat(result[1]).contains("held by uid 65534");
            assertThat(decisionLines()).anySatisfy(l -> assertThat(l).contains("\"hook_port_taken\"").contains("\"halt\""));
        } finally {
            squatter.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void sessionStart_hookPortHeldByThisUser_startsNormally() throws Exception {
        try (ServerSocket mine = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            String[] result = dispatch(mine.getLocalPort());

            assertThat(result[0]).doesNotContain("\"continue\":false");
            assertThat(result[1]).doesNotContain("held by uid");
            assertThat(decisionLines()).noneSatisfy(l -> assertThat(l).contains("hook_port_taken"));
        }
    }

    /** SessionStart of an HTTP-hooks session whose {@code http-hooks} file names {@code port}: {stdout, stderr}. */
    private String[] dispatch(int port) throws Exception {
        Path resident = Files.createDirectories(tmp.resolve("cache/resident"));
        Files.setPosixFilePermissions(tmp.resolve("cache"), PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(resident, PosixFilePermissions.fromString("rwx------"));
        Path file = Files.writeString(resident.resolve("http-hooks"), port + " " + TOKEN + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Path project = Files.createDirectories(tmp.resolve("project"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        env.put("HOME", tmp.toString());
        env.put(HookPortCheck.TOKEN_VARIABLE, TOKEN);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DispatchCall.run(new String[] {"dispatch", "--host", "claude", "--native-event", "SessionStart"},
                new ByteArrayInputStream(SESSION_START.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, Clock.systemUTC());
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private List<String> decisionLines() throws Exception {
        Path dir = tmp.resolve("project/.warden/state/decisions");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".jsonl")).flatMap(p -> {
                try {
                    return Files.readAllLines(p).stream();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
