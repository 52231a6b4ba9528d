package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.dispatch.ResidentProcess;
import dev.agentwarden.dispatch.WardenProcess;
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
            assertThat(p.isAlive()).as("process alive while waiting for " + what).isTrue();
            assertThat(System.nanoTime()).as(what + " in time").isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
