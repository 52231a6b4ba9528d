package dev.agentwarden.e2e;

import org.junit.jupiter.api.parallel.Resources;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every suite's rows end up in one table: each {@link E2eSummary#render} appends to the run's combined file. */
@ResourceLock(Resources.SYSTEM_PROPERTIES)
class E2eSummaryTest {
    @AfterEach
    void forget() {
        System.clearProperty("warden.e2e.summary");
        E2eSummary.forgetCombined();
    }

    @Test
    void combinedTable_twoSuitesRendered_printsEveryHostsRowsInOneTable(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("target/e2e-summary.tsv");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "row\tstale host\tfrom an earlier run\tPASS\t1\t-\n");
        System.setProperty("warden.e2e.summary", file.toString());

        E2eSummary claude = new E2eSummary();
        claude.row("claude-code 2.1.197", "deny", "denied").pass();
        claude.row("claude-code 2.1.332", "deny", "denied").pass();
        E2eSummary.Row skipped = claude.row("claude-code 2.1.332", "impostor", "-");
        skipped.skip("pinned\tonly\nhere");
        E2eSummary codex = new E2eSummary();
        E2eSummary.Row failed = codex.row("codex 0.171.0", "deny", "denied");
        failed.timing(2500, 900);
        claude.render();
        codex.render();
        codex.render();

        assertThat(E2eSummary.combinedWritten()).isEqualTo(file.toAbsolutePath());
        String table = E2eSummary.renderCombined(Files.readAllLines(file, StandardCharsets.UTF_8));
        assertThat(table).doesNotContain("stale host").contains("| codex 0.171.0       | deny     | FAIL   | 2.5 s ")
                .contains("claude-code 2.1.197: 1 passed, 0 failed, 0 skipped")
                .contains("claude-code 2.1.332: 1 passed, 0 failed, 1 skipped")
                .contains("codex 0.171.0: 0 passed, 1 failed, 0 skipped; host sessions 2.5 s")
                .contains("all hosts: 2 passed, 1 failed, 1 skipped");
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).as("rows appended once each, on one line each")
                .filteredOn(l -> l.startsWith("row\t")).hasSize(4);
    }

    @Test
    void combinedTable_suitesSideBySide_spanIsFirstStartToLastEndNotTheSumOfTheirWalls() {
        java.util.List<String> lines = java.util.List.of(
                "row\tqwen 0.24.4\tdeny\tPASS\t1000\t-",
                "wall\tqwen 0.24.4\t\t\t20000\t",
                "span\t\t\t\t100000\t120000",
                "row\tgemini 0.61.0\tdeny\tPASS\t1000\t-",
                "wall\tgemini 0.61.0\t\t\t15000\t",
                "span\t\t\t\t105000\t120000");

        String table = E2eSummary.renderCombined(lines);

        assertThat(table).contains("e2e wall time, first suite's start to last suite's end: 20.0 s"
                + " (suite wall times add up to 35.0 s)").contains("all hosts: 2 passed, 0 failed, 0 skipped");
        assertThat(table.lines().filter(l -> l.startsWith("| "))).as("the header and two rows: a span line is no scenario")
                .hasSize(3);
    }
}
