package dev.agentwarden.ledger;

import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerStatsTest {
    static final String OK_ENVELOPE = "{\"summary\":\"s\",\"handoff\":\"h\",\"confidence\":\"high\",\"findings\":[],\"risks\":[]}";

    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
    LedgerStore store;
    LedgerSettings budgets = LedgerSettings.from(Map.of("duration_budgets", Map.of("Explore", "5m", "general-purpose", "15m")));

    @BeforeEach
    void setUp() {
        store = new LedgerStore(LedgerPaths.forRoot(project.toString()), clock);
    }

    void dispatch(String id, String type, Duration runs, String message) throws IOException {
        TestLedger.record(SubagentLedger.Kind.START, Map.of("agent_id", id, "agent_type", type), "s-1", budgets, store);
        clock.advance(runs);
        TestLedger.record(SubagentLedger.Kind.STOP, Map.of("agent_id", id, "agent_type", type,
                "last_assistant_message", message), "s-1", budgets, store);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void compute_frozenV1Fixture_countsPerAgentType(@TempDir Path fixtureProject) throws IOException {
        LedgerPaths fixture = LedgerPaths.forRoot(fixtureProject.toString());
        Files.createDirectories(fixture.ledgerDir());
        try (InputStream in = getClass().getResourceAsStream("/ledger/v1/2026-05.jsonl")) {
            Files.copy(in, fixture.segment("2026-05"));
        }

        Map<String, Object> json = LedgerStats.compute(fixture, LedgerSettings.DEFAULTS, clock).toJson();

        Map<String, Object> gp = map(map(json.get("by_agent_type")).get("general-purpose"));
        assertThat(gp).containsEntry("starts", 2L).containsEntry("stops", 2L).containsEntry("orphan_stops", 1L)
                .containsEntry("unidentified", 1L).containsEntry("reaped", 1L).containsEntry("duration_p50_ms", 463_000L)
                .containsEntry("stop_loss_arms_exceeded", Map.of("5m", 1L))
                .containsEntry("envelope", Map.of("no_envelope", 1L, "no_message", 1L));
        Map<String, Object> explore = map(map(json.get("by_agent_type")).get("Explore"));
        assertThat(explore).containsEntry("envelope_return_rate", 1.0).containsEntry("duration_max_ms", 400_000L);
        assertThat(map(json.get("all"))).containsEntry("stops", 3L).containsEntry("sessions", 2L);
        assertThat(map(json.get("falsifier"))).containsEntry("verdict", "broken")
                .containsEntry("envelope_return_rate", 1.0 / 3)
                .containsEntry("unbudgeted_types", List.of("Explore", "general-purpose"));
    }

    @Test
    void falsifier_allEnvelopesAndWithinBudget_holds() throws IOException {
        dispatch("a", "Explore", Duration.ofMinutes(9), OK_ENVELOPE);
        dispatch("b", "general-purpose", Duration.ofMinutes(30), OK_ENVELOPE);

        LedgerStats.Report report = LedgerStats.compute(store.paths(), budgets, clock);

        assertThat(report.falsifier()).isEqualTo("holds");
        assertThat(report.overBudget()).isEmpty();
    }

    @Test
    void falsifier_dispatchOverTwiceItsBudget_isBrokenAndNamed() throws IOException {
        dispatch("a", "Explore", Duration.ofMinutes(10).plusMillis(1), OK_ENVELOPE);
        dispatch("b", "general-purpose", Duration.ofMinutes(5), OK_ENVELOPE);

        LedgerStats.Report report = LedgerStats.compute(store.paths(), budgets, clock);

        assertThat(report.falsifier()).isEqualTo("broken");
        assertThat(report.overBudget()).singleElement().isEqualTo(new LedgerStats.OverBudget(
                "2026-05-04T10:10:00.001Z", AgentRef.of("a"), "s-1", "Explore", 600_001L, 300_000L));
        StringWriter text = new StringWriter();
        report.printText(new PrintWriter(text));
        assertThat(text.toString()).contains("Phase-1 falsifier: BROKEN")
                .contains("ref " + AgentRef.of("a") + "  Explore  ran 10m00s, budget 5m00s (limit 10m00s)  session s-1");
    }

    @Test
    void falsifier_returnRateUnder95Percent_isBroken() throws IOException {
        for (int i = 0; i < 19; i++) {
            dispatch("ok" + i, "Explore", Duration.ofMinutes(1), OK_ENVELOPE);
        }
        dispatch("prose", "Explore", Duration.ofMinutes(1), "all done, no envelope");

        assertThat(LedgerStats.compute(store.paths(), budgets, clock).falsifier()).isEqualTo("holds");
        dispatch("prose2", "Explore", Duration.ofMinutes(1), "again no envelope");
        assertThat(LedgerStats.compute(store.paths(), budgets, clock).falsifier()).isEqualTo("broken");
    }

    @Test
    void falsifier_typeWithoutBudget_isUndetermined() throws IOException {
        dispatch("a", "Plan", Duration.ofMinutes(1), OK_ENVELOPE);

        LedgerStats.Report report = LedgerStats.compute(store.paths(), budgets, clock);

        assertThat(report.falsifier()).isEqualTo("undetermined");
        assertThat(map(report.toJson().get("falsifier"))).containsEntry("unbudgeted_types", List.of("Plan"));
    }

    @Test
    void compute_noLedger_reportsAbsence() throws IOException {
        LedgerStats.Report report = LedgerStats.compute(store.paths(), budgets, clock);

        assertThat(report.toJson()).containsEntry("ledger_present", false).containsEntry("chain_lines", 0L);
        assertThat(report.falsifier()).isEqualTo("undetermined");
    }

    @Test
    void compute_openNow_countsLiveAndStale() throws IOException {
        TestLedger.record(SubagentLedger.Kind.START, Map.of("agent_id", "a"), "s-1", budgets, store);
        clock.advance(Duration.ofHours(25));
        TestLedger.record(SubagentLedger.Kind.START, Map.of("agent_id", "b"), "s-1",
                LedgerSettings.from(Map.of("ttl", "48h")), store);

        assertThat(map(LedgerStats.compute(store.paths(), budgets, clock).toJson().get("open_now")))
                .containsEntry("live", 1L).containsEntry("stale", 1L);
    }

    /**
     * Parts merge pairwise in a tree ({@link LedgerStats#mergeAll}): the over-budget list keeps the
     * first {@link LedgerStats#MAX_LISTED} in chain order, counts and distributions are those of a
     * merge one part after another.
     */
    @Test
    void mergeAll_inATree_keepsChainOrderAndTotals() {
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        List<LedgerStats.Report> tree = new java.util.ArrayList<>();
        LedgerStats.Report sequential = new LedgerStats.Report(paths, LedgerSettings.DEFAULTS);
        for (int part = 0; part < 7; part++) {
            LedgerStats.Report a = new LedgerStats.Report(paths, LedgerSettings.DEFAULTS);
            LedgerStats.Report b = new LedgerStats.Report(paths, LedgerSettings.DEFAULTS);
            for (LedgerStats.Report r : List.of(a, b)) {
                for (int i = 0; i < 30; i++) {
                    r.overBudget.add(new LedgerStats.OverBudget("t" + part + "-" + i, "ref", "s", "Explore", 1, 1));
                    r.overBudgetCount++;
                    r.all.stops++;
                    r.all.durations.add(part * 1000L + i % 7);
                    r.all.addSession("s" + part % 3);
                }
            }
            tree.add(a);
            sequential.merge(b);
        }

        LedgerStats.Report merged = LedgerStats.mergeAll(tree);

        assertThat(merged.overBudget).hasSize(LedgerStats.MAX_LISTED);
        assertThat(merged.overBudget).extracting(LedgerStats.OverBudget::ts)
                .isEqualTo(sequential.overBudget.stream().map(LedgerStats.OverBudget::ts).toList());
        assertThat(merged.overBudget.get(30).ts()).isEqualTo("t1-0");
        assertThat(merged.overBudgetCount).isEqualTo(210);
        assertThat(merged.all.toJson()).isEqualTo(sequential.all.toJson());
        assertThat(merged.all.durations.count()).isEqualTo(210);
        assertThat(merged.all.sessions).containsExactlyInAnyOrder("s0", "s1", "s2");
    }
}
