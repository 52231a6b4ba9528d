package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.ResidentProcess;
import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 item 3: after the jar is replaced, the new jar's resident found the HTTP hook port held
 * by the old resident, which kept it forever, so HTTP hooks never reached the new jar. The new
 * resident now asks the old one to hand the port over (proven by its greeting, authorized by its
 * token) and binds it; the old one lets go at once and idles out.
 */
class HookPortHandOverIT {
    /** The "older jar": a resident under another key in the same directory. */
    private static final String OLD_KEY = "0123456789abcdef";

    @TempDir
    Path tmp;

    @Test
    void newerResident_takesTheHookPortFromTheOlderOne_whichLetsGoAndKeepsServingUntilIdle() throws Exception {
        Path cache = Files.createDirectory(tmp.resolve("cache"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path dir = Files.createDirectory(ResidentProcess.dirFor(cache), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        WardenServer.HookPort hooks = HookPorts.ensure(dir);
        Process old = ResidentProcess.launch(dir, OLD_KEY, 600);
        ResidentProcess newer = null;
        try {
            waitFor(() -> Resident.read(Resident.endpointFile(dir, OLD_KEY)) != null, "the old resident's endpoint", old);
            assertThat(answers(hooks)).as("the old resident serves the hook port").isTrue();

            newer = ResidentProcess.start(cache, 600);

            String log = Files.readString(dir.resolve("test-resident.log"));
            assertThat(log).contains("handed HTTP hook port 127.0.0.1:" + hooks.port() + " over")
                    .contains("took over HTTP hook port 127.0.0.1:" + hooks.port())
                    .doesNotContain("serving command hooks only");
            assertThat(answers(hooks)).as("the new resident serves the hook port").isTrue();
            assertThat(old.isAlive()).as("the old resident keeps its launcher port until idle").isTrue();
        } finally {
            if (newer != null) {
                newer.close();
            }
            old.destroy();
            if (!old.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                old.destroyForcibly();
            }
        }
    }

    /**
     * A resident of today's main knows no {@code /hand-over} (404): it is stopped instead, once its
     * PID is proven to be that resident. Played by a program with a resident's command line
     * ({@code resident start --key K}) that publishes an endpoint, greets with its proof, holds the
     * hook port and answers every request 404, as such a resident answers an unknown path.
     */
    @Test
    void residentThatKnowsNoHandOver_isStopped_andTheNewerOneBindsThePort() throws Exception {
        Path cache = Files.createDirectory(tmp.resolve("cache"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path dir = Files.createDirectory(ResidentProcess.dirFor(cache), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        WardenServer.HookPort hooks = HookPorts.ensure(dir);
        Path script = Files.writeString(tmp.resolve("old-resident.py"), OLD_RESIDENT);
        Process old = new ProcessBuilder("python3", script.toString(), "resident", "start", "--key", OLD_KEY,
                dir.toString(), Integer.toString(hooks.port())).redirectErrorStream(true)
                .start();
        ResidentProcess newer = null;
        try {
            waitFor(() -> Resident.read(Resident.endpointFile(dir, OLD_KEY)) != null, "the old resident's endpoint", old);

            newer = ResidentProcess.start(cache, 600);

            String log = Files.readString(dir.resolve("test-resident.log"));
            assertThat(log).contains("knows no hand-over (an older Warden); asked it to stop (SIGTERM)")
                    .contains("took over HTTP hook port 127.0.0.1:" + hooks.port());
            assertThat(old.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the old resident stopped").isTrue();
            assertThat(answers(hooks)).as("the new resident serves the hook port").isTrue();
        } finally {
            if (newer != null) {
                newer.close();
            }
            old.destroyForcibly();
        }
    }

    /** An older resident as far as the hand-over sees it: endpoint, greeting with proof, hook port held, 404 to all. */
    private static final String OLD_RESIDENT = """
            import os, secrets, signal, socket, sys, threading
            key, d, hook_port = sys.argv[4], sys.argv[5], int(sys.argv[6])
            stat = open("/proc/self/stat").read()
            start = stat[stat.rindex(")") + 2:].split()[19]
            launcher = socket.socket(); launcher.bind(("127.0.0.1", 0)); launcher.listen(8)
            hook = socket.socket(); hook.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            hook.bind(("127.0.0.1", hook_port)); hook.listen(8)
            token, proof = secrets.token_hex(32), secrets.token_hex(32)
            path = os.path.join(d, key + ".endpoint")
            fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.write(fd, f"{launcher.getsockname()[1]} {token} {os.getpid()} {start} {proof}\\n".encode()); os.close(fd)
            os.rename(path + ".tmp", path)
            def stop(*_):
                os.unlink(path); os._exit(0)
            signal.signal(signal.SIGTERM, stop)
            def serve(s, greet):
                while True:
                    c, _ = s.accept()
                    if greet: c.sendall(f"warden-resident/3 {proof}\\n".encode())
                    c.settimeout(5)
                    try: c.recv(65536)
                    except OSError: pass
                    body = b'{"error":"not_found","message":"the endpoints are POST /forward and POST /status"}'
                    c.sendall(b"HTTP/1.1 404 Not Found\\r\\nContent-Length: " + str(len(body)).encode() + b"\\r\\nConnection: close\\r\\n\\r\\n" + body)
                    c.close()
            threading.Thread(target=serve, args=(hook, False), daemon=True).start()
            serve(launcher, True)
            """;

    /** Whether the hook port answers an authorized request (the unbound route's refusal is an answer). */
    private static boolean answers(WardenServer.HookPort hooks) throws IOException {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), hooks.port())) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /dispatch/claude/Notification HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + hooks.token() + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = s.getInputStream();
            return HttpAnswer.read(in).startsWith("HTTP/1.1 200 ");
        } catch (java.net.ConnectException e) {
            return false;
        }
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void waitFor(Condition c, String what, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
        while (!c.holds()) {
            if (!p.isAlive()) {
                throw new AssertionError("process exited while waiting for " + what + ": "
                        + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            assertThat(System.nanoTime()).as(what + " in time").isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
