package dev.agentwarden.guard;

import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GuardDerivationTest {
    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-01T00:00:00Z");
    LedgerStore store;

    @BeforeEach
    void setUp() {
        store = new LedgerStore(LedgerPaths.forRoot(project.toString()), clock);
    }

    /** A spawn-guard line as the guard writes it, with one candidate c4 (max_concurrent 4). */
    void observe(long concurrent, Long depth) throws IOException {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", "spawn_guard_shadow");
        line.put("posture", "shadow");
        line.put("concurrent_open", concurrent);
        line.put("spawn_depth", depth);
        line.put("depth_usable_for_derivation", depth != null);
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("label", "c4");
        c.put("max_depth", null);
        c.put("max_concurrent", 4L);
        c.put("would_deny", concurrent >= 4);
        line.put("candidates", List.of(c));
        store.append(line);
        clock.advance(Duration.ofMinutes(1));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void derive_hundredObservations_thresholdIsP99PlusOneAndFlipHolds() throws IOException {
        for (int i = 0; i < 90; i++) {
            observe(1, null);
        }
        for (int i = 0; i < 9; i++) {
            observe(2, null);
        }
        observe(5, null);

        GuardDerivation.Report r = GuardDerivation.derive(store.paths(), null);

        assertThat(r.observations()).isEqualTo(100);
        assertThat(r.concurrencyThreshold()).isEqualTo(3L);
        assertThat(r.depthThreshold()).isNull();
        Map<String, Object> json = r.toJson();
        assertThat(map(json.get("concurrent_open"))).containsEntry("p99", 2L).containsEntry("max", 5L)
                .containsEntry("histogram", Map.of("1", 90L, "2", 9L, "5", 1L));
        assertThat(map(map(json.get("candidates")).get("c4"))).containsEntry("would_deny", 1L)
                .containsEntry("would_deny_rate", 0.01).containsEntry("flip_criteria_hold", true);
        assertThat(map(json.get("flip"))).containsEntry("window_holds", true).containsEntry("derived_threshold_ready", true)
                .containsEntry("derived_false_positive_rate", 0.01);
    }

    @Test
    void derive_fewObservationsInOneDay_windowNotYet() throws IOException {
        for (int i = 0; i < 99; i++) {
            observe(0, null);
        }

        GuardDerivation.Report r = GuardDerivation.derive(store.paths(), null);

        assertThat(r.windowHolds()).isFalse();
        assertThat(map(r.toJson().get("flip"))).containsEntry("derived_threshold_ready", false);
    }

    @Test
    void derive_twoWeeksApart_windowHolds() throws IOException {
        observe(0, null);
        clock.advance(Duration.ofDays(14));
        observe(1, null);

        assertThat(GuardDerivation.derive(store.paths(), null).windowHolds()).isTrue();
    }

    @Test
    void derive_candidateOverOnePercent_doesNotHold() throws IOException {
        for (int i = 0; i < 98; i++) {
            observe(1, null);
        }
        observe(4, null);
        observe(4, null);

        Map<String, Object> c4 = map(map(GuardDerivation.derive(store.paths(), null).toJson().get("candidates")).get("c4"));

        assertThat(c4).containsEntry("would_deny_rate", 0.02).containsEntry("flip_criteria_hold", false);
    }

    @Test
    void derive_depthOnlyFromRealLineage() throws IOException {
        observe(1, 2L);
        observe(1, null);
        observe(2, 3L);

        GuardDerivation.Report r = GuardDerivation.derive(store.paths(), null);

        assertThat(map(r.toJson().get("spawn_depth"))).containsEntry("n", 2L).containsEntry("max", 3L);
        assertThat(r.depthThreshold()).isEqualTo(4L);
    }

    @Test
    void derive_since_skipsEarlierLines() throws IOException {
        observe(7, null);
        clock.set(Instant.parse("2026-05-10T00:00:00Z"));
        observe(1, null);

        GuardDerivation.Report r = GuardDerivation.derive(store.paths(), Instant.parse("2026-05-09T00:00:00Z"));

        assertThat(r.observations()).isEqualTo(1);
        assertThat(r.concurrencyThreshold()).isEqualTo(2L);
    }

    @Test
    void derive_readsTheGuardsOwnLinesAndPrintsTheManifestToEnforce() throws IOException {
        for (int n = 0; n < 3; n++) {
            SpawnGuard.evaluate(new SpawnGuard.Request("Agent", true, null, "s-1"), GuardSettings.DEFAULTS, Posture.SHADOW, store, true);
            TestLedger.record(SubagentLedger.Kind.START, Map.of("agent_id", "a" + n), "s-1", LedgerSettings.DEFAULTS, store);
        }

        GuardDerivation.Report r = GuardDerivation.derive(store.paths(), null);
        StringWriter text = new StringWriter();
        r.printText(new PrintWriter(text));

        assertThat(r.observations()).isEqualTo(3);
        assertThat(map(r.toJson().get("concurrent_open"))).containsEntry("histogram", Map.of("0", 1L, "1", 1L, "2", 1L));
        assertThat(text.toString()).contains("threshold p99+1 = 3 (n=3)")
                .contains("n2m4       max_depth=2    max_concurrent=4        0 of     3")
                .contains("- {label: derived, max_concurrent: 3}").contains("window not yet");
    }

    @Test
    void derive_noObservations_saysSo() throws IOException {
        StringWriter text = new StringWriter();
        GuardDerivation.derive(store.paths(), null).printText(new PrintWriter(text));

        assertThat(text.toString()).contains("spawn-guard observations: 0").contains("no spawn_guard lines yet");
    }
}
