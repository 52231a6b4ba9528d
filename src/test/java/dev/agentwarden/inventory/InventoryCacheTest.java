package dev.agentwarden.inventory;

import dev.agentwarden.testing.SharedLocks;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-turn cache against {@link FakeMcpServer}'s {@code file} mode (tools from a file,
 * list_changed when it changes): reuse, each refresh trigger, and the bound a turn waits.
 */
@ResourceLock(SharedLocks.FAKE_MCP_SERVERS)
class InventoryCacheTest {
    private static final McpSnapshotter.Limits LIMITS = new McpSnapshotter.Limits(Duration.ofSeconds(20),
            Duration.ofSeconds(20), Duration.ofMillis(100), Duration.ofSeconds(2), 10, 100);
    private static final long WAIT_FOR_ANYTHING_MS = 30_000;
    private static final long TTL_MS = 60_000;

    @TempDir
    Path dir;

    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final List<InventoryCache> caches = new ArrayList<>();

    @AfterEach
    void closeSessions() {
        for (InventoryCache c : caches) {
            c.clear();
        }
        FakeMcpServer.awaitNoneRunning();
    }


    private InventoryCache cache(boolean keep) {
        InventoryCache c = new InventoryCache(keep);
        caches.add(c);
        return c;
    }

    private McpServerConfig server(Path tools, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
                FakeMcpServer.class.getName(), "file", tools.toString()));
        args.addAll(List.of(extraArgs));
        return new McpServerConfig("claude", "fake", "test", false, McpServerConfig.STDIO,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), args, Map.of(), null, null, Map.of());
    }

    private InventoryCache.Served serve(InventoryCache cache, McpServerConfig server, long waitMs) {
        return cache.serve(List.of(server), ClientProfile.none(), false, new McpSnapshotter(LIMITS, dir), waitMs, TTL_MS,
                clock).get(0);
    }

    private static List<String> names(InventoryCache.Served s) {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> t : s.snapshot().tools()) {
            out.add((String) t.get("name"));
        }
        return out;
    }

    /** Serves until {@code done} holds, each turn within {@code waitMs}; fails after a deadline. */
    private InventoryCache.Served serveUntil(InventoryCache cache, McpServerConfig server, long waitMs,
                                             java.util.function.Predicate<InventoryCache.Served> done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        InventoryCache.Served s;
        do {
            s = serve(cache, server, waitMs);
            if (done.test(s)) {
                return s;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("never served as expected; last " + s.state() + " " + names(s) + " " + s.note());
    }

    @Test
    void serve_keptManifest_isReusedWithinTtl_withoutStartingTheServerAgain() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "alpha\nbeta\n");
        InventoryCache cache = cache(true);
        McpServerConfig server = server(tools);

        InventoryCache.Served first = serve(cache, server, WAIT_FOR_ANYTHING_MS);
        clock.advance(Duration.ofSeconds(30));
        InventoryCache.Served second = serve(cache, server, WAIT_FOR_ANYTHING_MS);

        assertThat(first.state()).isEqualTo(InventoryCache.State.FRESH);
        assertThat(names(first)).containsExactly("alpha", "beta");
        assertThat(second.state()).isEqualTo(InventoryCache.State.CACHED);
        assertThat(second.ageMs()).isEqualTo(30_000);
        assertThat(second.snapshot()).isSameAs(first.snapshot());
    }

    @Test
    void serve_afterListChanged_retakesTheManifest() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "alpha\n");
        InventoryCache cache = cache(true);
        McpServerConfig server = server(tools);
        assertThat(names(serve(cache, server, WAIT_FOR_ANYTHING_MS))).containsExactly("alpha");

        Files.writeString(tools, "alpha\ngamma\n");
        InventoryCache.Served after = serveUntil(cache, server, WAIT_FOR_ANYTHING_MS,
                s -> names(s).contains("gamma"));

        assertThat(after.state()).isEqualTo(InventoryCache.State.FRESH);
        assertThat(names(after)).containsExactly("alpha", "gamma");
    }

    @Test
    void serve_afterConfigChange_retakesTheManifest_evenWithinTtl() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "alpha\n");
        Path other = Files.writeString(dir.resolve("other-tools"), "delta\n");
        InventoryCache cache = cache(true);
        assertThat(names(serve(cache, server(tools), WAIT_FOR_ANYTHING_MS))).containsExactly("alpha");

        InventoryCache.Served changed = serve(cache, server(other), WAIT_FOR_ANYTHING_MS);

        assertThat(changed.state()).isEqualTo(InventoryCache.State.FRESH);
        assertThat(names(changed)).containsExactly("delta");
    }

    @Test
    void serve_slowServer_isMissingWithinTheBound_thenServesALaterTurn() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "delay 3000\nalpha\n");
        InventoryCache cache = cache(true);
        McpServerConfig server = server(tools);

        long started = System.nanoTime();
        InventoryCache.Served first = serve(cache, server, 200);
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(first.state()).isEqualTo(InventoryCache.State.MISSING);
        assertThat(first.snapshot().ok()).isFalse();
        assertThat(first.note()).contains("no manifest within 200 ms");
        assertThat(tookMs).as("the turn waited about its bound, not the server's 3 s").isLessThan(2500);
        InventoryCache.Served later = serveUntil(cache, server, 200, s -> s.snapshot().ok());
        assertThat(names(later)).containsExactly("alpha");
    }

    @Test
    void serve_ttlExpired_andRefreshHangs_isStaleWithTheLastManifest() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "alpha\n");
        InventoryCache cache = cache(true);
        McpServerConfig server = server(tools);
        assertThat(serve(cache, server, WAIT_FOR_ANYTHING_MS).snapshot().ok()).isTrue();
        cache.dropSessions(); // no kept session hears the next change: only the TTL says to refresh
        Files.writeString(tools, "hang\nalpha\n");
        clock.advance(Duration.ofMillis(TTL_MS + 1));

        InventoryCache.Served stale = serve(cache, server, 300);

        assertThat(stale.state()).isEqualTo(InventoryCache.State.STALE);
        assertThat(names(stale)).containsExactly("alpha");
        assertThat(stale.ageMs()).isEqualTo(TTL_MS + 1);
        assertThat(stale.note()).contains("TTL ran out");
    }

    @Test
    void serve_listChangedThenSlowRefresh_isMissingNotStale() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "alpha\n");
        InventoryCache cache = cache(true);
        McpServerConfig server = server(tools);
        assertThat(serve(cache, server, WAIT_FOR_ANYTHING_MS).snapshot().ok()).isTrue();

        Files.writeString(tools, "hang\nalpha\nbeta\n");
        InventoryCache.Served changed = serveUntil(cache, server, 300, s -> s.state() != InventoryCache.State.CACHED);

        assertThat(changed.state()).isEqualTo(InventoryCache.State.MISSING);
        assertThat(changed.note()).contains("list_changed");
    }

    @Test
    void serve_withoutKeeping_takesEveryTurnCold() throws IOException {
        Path tools = Files.writeString(dir.resolve("tools"), "alpha\n");
        InventoryCache cache = cache(false);
        McpServerConfig server = server(tools);

        InventoryCache.Served first = serve(cache, server, WAIT_FOR_ANYTHING_MS);
        InventoryCache.Served second = serve(cache, server, WAIT_FOR_ANYTHING_MS);

        assertThat(first.state()).isEqualTo(InventoryCache.State.FRESH);
        assertThat(second.state()).isEqualTo(InventoryCache.State.FRESH);
        assertThat(second.snapshot()).isNotSameAs(first.snapshot());
    }
}
