package dev.agentwarden.cli;

import org.junit.jupiter.api.parallel.Isolated;
import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Isolated("sets the system property warden.ledger.segment.max.bytes, which Warden's code reads in every class")
class LedgerCommandsTest {
    @TempDir
    Path project;

    record Run(int code, String out, String err) {
    }

    Run warden(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = WardenCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    void session() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
        LedgerStore store = new LedgerStore(LedgerPaths.forRoot(project.toString()), clock);
        TestLedger.record(SubagentLedger.Kind.START, Map.of("agent_id", "a", "agent_type", "Explore"), "s-1",
                LedgerSettings.DEFAULTS, store);
        clock.advance(Duration.ofMinutes(20));
        TestLedger.record(SubagentLedger.Kind.STOP, Map.of("agent_id", "a", "agent_type", "Explore"), "s-1",
                LedgerSettings.DEFAULTS, store);
    }

    @Test
    void ledgerStats_json_usesBudgetsFromTheProjectManifest() throws IOException {
        session();
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    duration_budgets: {Explore: 5m}
                platforms:
                  claude:
                    subagent_stop: [subagent-ledger]
                """);

        Run r = warden("ledger", "stats", "--json", "--project-dir", project.toString());

        assertThat(r.code()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> falsifier = (Map<String, Object>) Json.parseObject(r.out()).get("falsifier");
        assertThat(falsifier).containsEntry("verdict", "broken").containsEntry("over_budget_count", 1L)
                .containsEntry("budgets_ms", Map.of("Explore", 300_000L));
    }

    @Test
    void ledgerStats_text_printsPerTypeTable() throws IOException {
        session();

        Run r = warden("ledger", "stats", "--project-dir", project.toString());

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("agent type").contains("Explore").contains("20m00s")
                .contains("no duration budget for: Explore");
    }

    @Test
    void ledgerStats_brokenManifest_isUnreadable() throws IOException {
        session();
        Files.writeString(project.resolve(".warden/manifest.yaml"), "schema_version: 2\n");

        Run r = warden("ledger", "stats", "--project-dir", project.toString());

        assertThat(r.code()).isEqualTo(ExitCode.UNREADABLE.code());
        assertThat(r.err()).contains("manifest unusable");
    }

    @Test
    void ledgerVerify_intactThenTampered_exitCodes() throws IOException {
        session();
        assertThat(warden("ledger", "verify", "--project-dir", project.toString()))
                .satisfies(r -> assertThat(r.code()).isZero())
                .satisfies(r -> assertThat(r.out()).contains("intact: 2 chain lines in 1 segment(s)"));

        Path segment = LedgerPaths.forRoot(project.toString()).segment("2026-05");
        List<String> lines = Files.readAllLines(segment);
        Files.write(segment, List.of(lines.get(0).replace("Explore", "Plan"), lines.get(1)));
        Run tampered = warden("ledger", "verify", "--project-dir", project.toString());

        assertThat(tampered.code()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(tampered.out()).contains("2026-05.jsonl:2: error: ledger_chain_break").contains("NOT intact");
        assertThat(Json.parseObject(warden("ledger", "verify", "--json", "--project-dir", project.toString()).out()))
                .containsEntry("intact", false);
    }

    @Test
    void ledgerAnchor_thenHistoryDeleted_verifyFails(@TempDir Path anchors) throws IOException {
        session();
        Run anchored = warden("ledger", "anchor", "--anchors", anchors.toString(), "--project-dir", project.toString());
        assertThat(anchored.code()).as(anchored.err()).isZero();
        assertThat(anchored.out()).contains("anchored 2 chain lines, ending at 2026-05.jsonl:2");
        assertThat(warden("ledger", "verify", "--anchors", anchors.toString(), "--project-dir", project.toString()).code())
                .isZero();

        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        Files.delete(paths.segment("2026-05"));
        Files.delete(paths.headFile());
        Run r = warden("ledger", "verify", "--anchors", anchors.toString(), "--project-dir", project.toString());

        assertThat(r.code()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(r.out()).contains("error: ledger_anchor_missing").contains("NOT intact");
    }

    @Test
    void ledgerAnchor_damagedLedger_isRefused(@TempDir Path anchors) throws IOException {
        session();
        Files.delete(LedgerPaths.forRoot(project.toString()).headFile());

        Run r = warden("ledger", "anchor", "--anchors", anchors.toString(), "--project-dir", project.toString());

        assertThat(r.code()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(r.err()).contains("ledger_not_intact");
        try (var list = Files.list(anchors)) {
            assertThat(list).isEmpty();
        }
    }

    @Test
    void ledgerVerify_noLedger_isOk() {
        Run r = warden("ledger", "verify", "--project-dir", project.toString());

        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("no ledger at ");
    }

    @Test
    void guardDerive_sinceNotADate_isUnreadableWithCode() {
        Run r = warden("guard", "derive", "--since", "last tuesday", "--project-dir", project.toString());

        assertThat(r.code()).isEqualTo(ExitCode.UNREADABLE.code());
        assertThat(r.err()).contains("guard_since_invalid");
    }

    @Test
    void guardDerive_json_acceptsDateAndInstant() {
        for (String since : List.of("2026-05-01", "2026-05-01T12:00:00Z")) {
            Run r = warden("guard", "derive", "--json", "--since", since, "--project-dir", project.toString());

            assertThat(r.code()).isZero();
            assertThat(Json.parseObject(r.out())).containsEntry("observations", 0L);
        }
    }

    /** Issue 28 item 11: a ledger that rolled into parts verifies and is counted whole from the command line. */
    @Test
    void issue28_rolledLedger_verifyPasses_statsCountEveryLine() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        LedgerStore store = dev.agentwarden.ledger.RollingStores.rollingAt(paths, clock, 2048);
        long written = 0;
        for (int i = 0; i < 30; i++) {
            Map<String, Object> agent = Map.of("agent_id", "a" + i, "agent_type", "Explore");
            written += TestLedger.record(SubagentLedger.Kind.START, agent, "s-1", LedgerSettings.DEFAULTS, store).size();
            clock.advance(Duration.ofSeconds(10));
            written += TestLedger.record(SubagentLedger.Kind.STOP, agent, "s-1", LedgerSettings.DEFAULTS, store).size();
        }
        assertThat(paths.segments().size()).as("rolled into parts").isGreaterThan(3);

        Run verify = warden("ledger", "verify", "--project-dir", project.toString(), "--anchors",
                project.resolve("anchors").toString());
        assertThat(verify.code()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("intact").contains(written + " chain line");
        Run stats = warden("ledger", "stats", "--json", "--project-dir", project.toString());
        assertThat(stats.code()).as(stats.err()).isZero();
        assertThat(Json.parseObject(stats.out()).get("chain_lines")).isEqualTo(written);
        Run guard = warden("guard", "derive", "--json", "--project-dir", project.toString());
        assertThat(guard.code()).as(guard.err()).isZero();
    }

    /**
     * Issue 28 item 11: {@code ledger stats} skipped a segment it would not read and still exited 0.
     * A segment over the readers' cap (set small here, as only tests set it) or not a regular file
     * now makes every reader exit nonzero and name it.
     */
    @Test
    void issue28_segmentNotRead_oversizedOrAFifo_everyReaderExitsNonzero() throws Exception {
        session();
        Path ledger = LedgerPaths.forRoot(project.toString()).ledgerDir();
        String[][] readers = {{"ledger", "stats", "--project-dir", project.toString()},
                {"guard", "derive", "--project-dir", project.toString()},
                {"ledger", "verify", "--project-dir", project.toString(), "--anchors", project.resolve("anchors").toString()}};
        System.setProperty("warden.ledger.segment.max.bytes", "100");
        try {
            for (String[] reader : readers) {
                Run r = warden(reader);
                assertThat(r.code()).as(String.join(" ", reader) + ": " + r.out() + r.err()).isNotZero();
                assertThat(r.out() + r.err()).as(String.join(" ", reader)).contains("2026-05.jsonl")
                        .contains("ledger_segment_unreadable");
            }
        } finally {
            System.clearProperty("warden.ledger.segment.max.bytes");
        }
        assertThat(new ProcessBuilder("mkfifo", ledger.resolve("2026-05.0001.jsonl").toString()).start().waitFor()).isZero();
        for (String[] reader : readers) {
            Run r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> warden(reader));
            assertThat(r.code()).as(String.join(" ", reader) + ": " + r.out() + r.err()).isNotZero();
            assertThat(r.out() + r.err()).as(String.join(" ", reader)).contains("2026-05.0001.jsonl");
        }
    }
}
