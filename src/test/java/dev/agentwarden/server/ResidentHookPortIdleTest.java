package dev.agentwarden.server;

import dev.agentwarden.testing.SharedLocks;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression: a resident serving the HTTP hook port stopped after 30 idle minutes like any other,
 * and then every HTTP hook of a session still running failed open (Claude Code lets the event
 * proceed when the server is down) and the port was free for another user to take. It now keeps
 * the port while {@code http-hooks} names it.
 */
@ResourceLock(SharedLocks.INVENTORY_CACHE)
class ResidentHookPortIdleTest {
    private static final String KEY = "0123456789abcdef";
    private static final Duration IDLE = Duration.ofMillis(200);

    @TempDir
    Path tmp;

    @Test
    void serveUntilIdle_holdingTheConfiguredHookPort_outlivesIdle_untilTheFileGoes() throws Exception {
        Path dir = privateDir();
        Path file = Files.writeString(dir.resolve(HookPorts.FILE), freePort() + " " + "c".repeat(64) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
        Resident resident = Resident.start(dir, KEY, env(), clock);
        assertThat(resident.holdsConfiguredHookPort()).isTrue();
        clock.advance(Duration.ofHours(2));
        Thread serving = serve(resident);

        serving.join(1_000);
        assertThat(serving.isAlive()).as("idle for two hours, yet still holding the hook port").isTrue();

        Files.delete(file);
        serving.join(60_000);
        assertThat(serving.isAlive()).as("stops once http-hooks no longer names its port").isFalse();
    }

    @Test
    void serveUntilIdle_withoutHookPort_stopsWhenIdle() throws Exception {
        MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
        Resident resident = Resident.start(privateDir(), KEY, env(), clock);
        assertThat(resident.holdsConfiguredHookPort()).isFalse();
        clock.advance(Duration.ofHours(2));
        Thread serving = serve(resident);

        serving.join(60_000);
        assertThat(serving.isAlive()).isFalse();
    }

    private static Thread serve(Resident resident) {
        Thread t = new Thread(() -> {
            try {
                resident.serveUntilIdle(IDLE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "resident-under-test");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private Path privateDir() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cache/resident"));
        Files.setPosixFilePermissions(tmp.resolve("cache"), PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private Map<String, String> env() {
        return Map.of("WARDEN_CACHE_DIR", tmp.resolve("cache").toString(), "HOME", tmp.toString());
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
