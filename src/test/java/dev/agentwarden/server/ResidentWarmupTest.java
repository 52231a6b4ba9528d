package dev.agentwarden.server;

import org.junit.jupiter.api.parallel.Isolated;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident's warm-up ({@link ResidentWarmup}): its synthetic events stay in its scratch project,
 * run only the built-in default's concerns, go over the hook socket without counting as forwarded
 * events, stop when a real event arrives, and are bounded in events, time and CPU.
 */
@Isolated("sets the system property user.home, which Warden's code reads in every class")
class ResidentWarmupTest {
    private static final String TOKEN = "f".repeat(64);
    private static final String PROOF = "e".repeat(64);
    private static final String KEY = "0123456789abcdef";
    private static final MutableClock CLOCK = MutableClock.at("2026-12-01T23:00:00Z");

    @TempDir
    Path tmp;
    private WardenServer server;
    private HookSocket socket;
    private String userHome;

    @AfterEach
    void stop() {
        if (socket != null) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
        if (userHome != null) {
            System.setProperty("user.home", userHome);
        }
    }

    private Path residentDir() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("resident"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    private static ResidentWarmup warmup(Path dir, Path socket, java.util.function.LongSupplier activity,
                                         ResidentWarmup.Limits limits, StringWriter log) {
        return new ResidentWarmup(ResidentWarmup.scratch(dir, KEY), dir.resolveSibling("cache"), socket, TOKEN, activity,
                0, limits, CLOCK, new PrintWriter(log, true));
    }

    private static List<Path> tree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.sorted().toList();
        }
    }

    @Test
    void residentWarmup_writesNothingOutsideItsScratchProject() throws Exception {
        Path dir = residentDir();
        Files.writeString(dir.resolve(KEY + ".endpoint"), "left as it is\n");
        // whatever falls back to the JVM's home instead of the warm-up's own environment would write here
        Path home = Files.createDirectories(tmp.resolve("home"));
        userHome = System.getProperty("user.home");
        System.setProperty("user.home", home.toString());
        List<Path> before = tree(tmp);
        Path scratch = ResidentWarmup.scratch(dir, KEY);
        AtomicReference<List<String>> lines = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        StringWriter log = new StringWriter();
        ResidentWarmup w = warmup(dir, null, () -> {
            if (calls.incrementAndGet() == 30) {
                // mid-run: the decision lines so far, where a real project keeps them
                try (Stream<Path> s = Files.walk(scratch.resolve("project/.warden/state/decisions"))) {
                    List<String> all = new ArrayList<>();
                    for (Path f : s.filter(Files::isRegularFile).toList()) {
                        all.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
                    }
                    lines.set(all);
                } catch (IOException e) {
                    lines.set(List.of("unreadable: " + e));
                }
            }
            return 0;
        }, new ResidentWarmup.Limits(40, 60_000, 60_000), log);

        w.run();

        assertThat(w.result().stopped()).as(log.toString()).isEqualTo("after 40 events");
        assertThat(w.result().events()).isEqualTo(40);
        assertThat(lines.get()).as("decision lines in the scratch project after 29 events").hasSize(29);
        for (String line : lines.get()) {
            Map<String, Object> d = Json.parseObject(line);
            assertThat(d.get("transport")).isEqualTo("resident");
            assertThat(d.get("problem")).as(line).isNull();
        }
        List<Path> after = new ArrayList<>(tree(tmp));
        // the one thing it may add outside: the compiled built-in manifest in the resident's cache, as a real event would
        after.removeIf(p -> p.equals(tmp.resolve("cache")) || p.startsWith(tmp.resolve("cache/manifests")));
        assertThat(after).as("everything outside the scratch directory, which is gone").isEqualTo(before);
        assertThat(scratch).doesNotExist();
    }

    @Test
    void warmup_doesNotRunExternalConcerns() throws Exception {
        Path dir = residentDir();
        Path scratch = ResidentWarmup.scratch(dir, KEY);
        // a scratch directory left by a resident that died, holding a project manifest with a process concern
        Path marker = tmp.resolve("process-concern-ran");
        Files.createDirectories(scratch.resolve("project/.warden"));
        Files.writeString(scratch.resolve("project/.warden/manifest.yaml"), "version: 1\nconcerns:\n  touch:\n"
                + "    command: [/usr/bin/touch, " + marker + "]\n    posture: blocking\nchains:\n  pre_tool_use: [touch]\n");
        AtomicReference<List<Object>> concerns = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        StringWriter log = new StringWriter();
        ResidentWarmup w = warmup(dir, null, () -> {
            if (calls.incrementAndGet() == 3) {
                try (Stream<Path> s = Files.walk(scratch.resolve("project/.warden/state/decisions"))) {
                    Path f = s.filter(Files::isRegularFile).findFirst().orElseThrow();
                    Map<String, Object> d = Json.parseObject(Files.readAllLines(f, StandardCharsets.UTF_8).get(0));
                    List<Object> names = new ArrayList<>();
                    names.add(((Map<?, ?>) d.get("manifest")).get("source"));
                    for (Object c : (List<?>) d.get("concerns")) {
                        names.add(((Map<?, ?>) c).get("name"));
                    }
                    concerns.set(names);
                } catch (IOException e) {
                    concerns.set(List.of("unreadable: " + e));
                }
            }
            return 0;
        }, new ResidentWarmup.Limits(6, 60_000, 60_000), log);

        w.run();

        assertThat(w.result().events()).as(log.toString()).isEqualTo(6);
        assertThat(concerns.get()).as("the first event's manifest and concerns")
                .containsExactly("builtin:default-manifest.yaml", "block-no-verify", "protect-warden", "spawn-guard");
        assertThat(marker).doesNotExist();
    }

    @Test
    void residentWarmup_overTheHookSocket_isNotAForwardedEvent() throws Exception {
        Path dir = residentDir();
        server = WardenServer.startResident(TOKEN, PROOF, 2, env(), CLOCK);
        socket = HookSocket.open(HookSocket.path(dir, KEY), server, 2);
        long lastActivity = server.lastActivityMillis();
        StringWriter log = new StringWriter();
        ResidentWarmup w = warmup(dir, socket.path(), () -> socket.forwardsArrived() + server.forwardedCount(),
                new ResidentWarmup.Limits(3 * ResidentWarmup.SOCKET_EVERY, 60_000, 60_000), log);

        w.run();

        assertThat(w.result().stopped()).as(log.toString()).isEqualTo("after " + 3 * ResidentWarmup.SOCKET_EVERY + " events");
        assertThat(server.forwardedCount()).isZero();
        assertThat(socket.forwardsArrived()).isZero();
        assertThat(server.lastActivityMillis()).as("status queries keep no resident running").isEqualTo(lastActivity);
    }

    @Test
    void residentWarmup_stopsWhenARealEventArrives() throws Exception {
        Path dir = residentDir();
        AtomicInteger calls = new AtomicInteger();
        StringWriter log = new StringWriter();
        // the real event arrives after the warm-up's 5th look
        ResidentWarmup w = warmup(dir, null, () -> calls.incrementAndGet() > 5 ? 1 : 0,
                new ResidentWarmup.Limits(1_000, 60_000, 60_000), log);

        w.run();

        assertThat(w.result().stopped()).as(log.toString()).isEqualTo("a real event arrived");
        assertThat(w.result().events()).isEqualTo(5);
        assertThat(log.toString()).contains("warm-up ran 5 synthetic events").contains("stopped: a real event arrived");
        assertThat(ResidentWarmup.scratch(dir, KEY)).doesNotExist();
    }

    /** A host's first event may come while the warm-up thread is still starting: it counts as arrived. */
    @Test
    void residentWarmup_realEventBeforeItsThreadRan_stopsItBeforeAnyEvent() throws Exception {
        Path dir = residentDir();
        StringWriter log = new StringWriter();
        ResidentWarmup w = warmup(dir, null, () -> 1, new ResidentWarmup.Limits(1_000, 60_000, 60_000), log);

        w.run();

        assertThat(w.result().stopped()).as(log.toString()).isEqualTo("a real event arrived");
        assertThat(w.result().events()).isZero();
    }

    @Test
    void residentWarmup_isBoundedByTimeAndCpu() throws Exception {
        Path dir = residentDir();
        StringWriter log = new StringWriter();
        ResidentWarmup timed = warmup(dir, null, () -> 0, new ResidentWarmup.Limits(Integer.MAX_VALUE, 200, 60_000), log);
        timed.run();
        ResidentWarmup cpu = warmup(dir, null, () -> 0, new ResidentWarmup.Limits(Integer.MAX_VALUE, 60_000, 0), log);
        cpu.run();

        assertThat(timed.result().stopped()).as(log.toString()).isEqualTo("time cap 200 ms");
        assertThat(cpu.result().stopped()).isEqualTo("CPU cap 0 ms");
        assertThat(cpu.result().events()).isZero();
        assertThat(ResidentWarmup.scratch(dir, KEY)).doesNotExist();
    }

    @Test
    void residentWarmup_stoppedByTheResident_stopsAndCleansUp() throws Exception {
        Path dir = residentDir();
        StringWriter log = new StringWriter();
        AtomicReference<ResidentWarmup> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        ResidentWarmup w = warmup(dir, null, () -> {
            if (calls.incrementAndGet() == 3) {
                self.get().stop();
            }
            return 0;
        }, new ResidentWarmup.Limits(1_000, 60_000, 60_000), log);
        self.set(w);

        w.run();

        assertThat(w.result().stopped()).as(log.toString()).isEqualTo("the resident stopped");
        assertThat(ResidentWarmup.scratch(dir, KEY)).doesNotExist();
    }

    @Test
    void enabled_unlessTheResidentsEnvironmentTurnsItOff() {
        assertThat(ResidentWarmup.enabled(Map.of())).isTrue();
        assertThat(ResidentWarmup.enabled(Map.of(ResidentWarmup.SWITCH, "0"))).isFalse();
    }

    private Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("WARDEN_CACHE_DIR", tmp.resolve("cache").toString());
        return env;
    }
}
