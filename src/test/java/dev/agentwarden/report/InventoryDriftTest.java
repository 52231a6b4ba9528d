package dev.agentwarden.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.inventory.TurnRecords;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's inventory drift per turn against turn inventory records of known content. */
class InventoryDriftTest {
    @TempDir
    Path project;

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-03T00:00:00Z"), ZoneOffset.UTC);

    @Test
    @SuppressWarnings("unchecked")
    void report_knownTurnRecords_givesDriftPerTurn() throws IOException {
        TurnRecords records = new TurnRecords(project, WorkspaceRoot.stateHome(project.toString()));
        // session a: a start and three turns; the inventory changes at turn 2
        records.append("a", record("a", "session_start", 0, "h1", null, true, "2026-11-02T09:00:00Z"));
        records.append("a", record("a", "turn", 1, "h1", "NONE", true, "2026-11-02T09:01:00Z"));
        records.append("a", record("a", "turn", 2, "h2", "EXPLORATORY", true, "2026-11-02T09:02:00Z"));
        records.append("a", record("a", "turn", 3, "h2", "INVALIDATING", false, "2026-11-02T09:03:00Z"));
        // session b: no preregistration at turn 1; resumed with another inventory; a turn past the row cap
        records.append("b", record("b", "turn", 1, "h1", null, true, "2026-11-02T10:01:00Z"));
        records.append("b", record("b", "session_start", 0, "h3", null, true, "2026-11-02T10:02:00Z"));
        records.append("b", record("b", "turn", 2, "h3", "EXPECTED_VARIANT", true, "2026-11-02T10:03:00Z"));
        records.append("b", record("b", "turn", 250, "h3", "NONE", true, "2026-11-02T10:04:00Z"));
        // a torn last line is no record
        Path dir = records.dir();
        try (var files = Files.list(dir)) {
            Path any = files.sorted().findFirst().orElseThrow();
            Files.writeString(any, "{\"schema\":\"warden.inventory.turn/1\",\"pha", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND);
        }

        Report report = Report.read(List.of(project.toString()), null, CLOCK, ReadProgress.NONE);
        Map<String, Object> drift = (Map<String, Object>) report.toJson().get("inventory_drift");

        assertThat(drift).containsEntry("sessions", 2L).containsEntry("session_starts", 2L)
                .containsEntry("changed_at_session_start", 1L);
        assertThat(Json.write(drift.get("total"))).isEqualTo("{\"turns\":6,\"NONE\":2,\"EXPECTED_VARIANT\":1,"
                + "\"INVALIDATING\":1,\"EXPLORATORY\":1,\"unclassified\":1,\"incomplete\":1,\"changed\":1}");
        assertThat(Json.write(drift.get("per_turn"))).isEqualTo("["
                + "{\"turn\":\"1\",\"turns\":2,\"NONE\":1,\"EXPECTED_VARIANT\":0,\"INVALIDATING\":0,\"EXPLORATORY\":0,"
                + "\"unclassified\":1,\"incomplete\":0,\"changed\":0},"
                + "{\"turn\":\"2\",\"turns\":2,\"NONE\":0,\"EXPECTED_VARIANT\":1,\"INVALIDATING\":0,\"EXPLORATORY\":1,"
                + "\"unclassified\":0,\"incomplete\":0,\"changed\":1},"
                + "{\"turn\":\"3\",\"turns\":1,\"NONE\":0,\"EXPECTED_VARIANT\":0,\"INVALIDATING\":1,\"EXPLORATORY\":0,"
                + "\"unclassified\":0,\"incomplete\":1,\"changed\":0},"
                + "{\"turn\":\">=200 or unnumbered\",\"turns\":1,\"NONE\":1,\"EXPECTED_VARIANT\":0,\"INVALIDATING\":0,"
                + "\"EXPLORATORY\":0,\"unclassified\":0,\"incomplete\":0,\"changed\":0}]");
        assertThat((List<Object>) report.toJson().get("missing")).isEmpty();

        // --since: records before it are baselines only (b's turn 2 is no change against its start)
        Map<String, Object> since = (Map<String, Object>) Report.read(List.of(project.toString()),
                "2026-11-02T10:00:00.000Z", CLOCK, ReadProgress.NONE).toJson().get("inventory_drift");
        assertThat(Json.write(since.get("total"))).isEqualTo("{\"turns\":3,\"NONE\":1,\"EXPECTED_VARIANT\":1,"
                + "\"INVALIDATING\":0,\"EXPLORATORY\":0,\"unclassified\":1,\"incomplete\":0,\"changed\":0}");
        assertThat(since).containsEntry("changed_at_session_start", 1L);

        StringWriter text = new StringWriter();
        ReportText.print(report, new PrintWriter(text));
        assertThat(text.toString()).contains("inventory drift: 6 turn(s) recorded in 2 session(s)")
                .containsPattern("\\n  2 +2 +0 +1 +0 +1 +0 +0 +1\\n")
                .containsPattern("\\n  \\(all\\) +6 +2 +1 +1 +1 +1 +1 +1\\n");

        String html = ReportHtml.render(report);
        assertThat(html).contains("<section id=\"inventory-drift\">")
                .contains("data-turn=\"2\" data-status=\"EXPLORATORY\" data-count=\"1\"")
                .contains("data-turn=\"1\" data-status=\"unclassified\" data-count=\"1\"")
                .doesNotContain("id=\"missing\"");
    }

    @Test
    @SuppressWarnings("unchecked")
    void report_noTurnRecords_showsAnEmptyView() throws IOException {
        Report report = Report.read(List.of(project.toString()), null, CLOCK, ReadProgress.NONE);
        Map<String, Object> drift = (Map<String, Object>) report.toJson().get("inventory_drift");
        assertThat(drift).containsEntry("sessions", 0L);
        assertThat((List<Object>) drift.get("per_turn")).isEmpty();
        assertThat(ReportHtml.render(report)).contains("data-chart-empty=\"inventory-drift\"");
    }

    private static Map<String, Object> record(String session, String phase, long turn, String hash, String drift,
                                              boolean complete, String takenAt) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", TurnRecords.SCHEMA);
        r.put("session_id", session);
        r.put("phase", phase);
        r.put("turn_index", turn);
        r.put("taken_at", takenAt);
        r.put("inventory_sha256", hash);
        r.put("complete", complete);
        if (drift != null) {
            r.put("inventory_drift", drift);
        }
        return r;
    }
}
