package dev.agentwarden.cli;

import org.junit.jupiter.api.parallel.Isolated;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming readers give what the map-building readers gave: {@code ledger stats}, {@code guard
 * derive}, {@code ledger verify} and {@code log --summary} (all {@code --json}) on generated ledgers
 * ({@code bench/bulk-gen.py}), one with odd and torn lines and one tampered with, print byte for byte
 * what the release before the streaming readers printed on the same files (recorded in
 * {@code ledger/bulk/*.json} and {@code decision/bulk-summary.json}); and on files of edge cases,
 * what the readers before the word scanner ({@code json/ByteWords}) printed ({@code edge-*.json}).
 */
@Isolated("sets the system property warden.read.chunk.bytes, which Warden's code reads in every class")
class BulkReadEquivalenceTest {
    private static final List<String> MONTHS = List.of("2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11");

    @TempDir
    Path tmp;

    @Test
    void stats_onGeneratedLedger_equalsTheMapReadersOutput() throws IOException {
        assertSame(clean(), "ledger stats", "clean-ledger-stats.json");
    }

    @Test
    void stats_onLedgerWithOddAndTornLines_equalsTheMapReadersOutput() throws IOException {
        assertSame(odd(), "ledger stats", "odd-ledger-stats.json");
    }

    @Test
    void derive_onGeneratedLedger_equalsTheMapReadersOutput() throws IOException {
        assertSame(clean(), "guard derive", "clean-guard-derive.json");
    }

    @Test
    void derive_onLedgerWithOddAndTornLines_equalsTheMapReadersOutput() throws IOException {
        assertSame(odd(), "guard derive", "odd-guard-derive.json");
    }

    @Test
    void verify_onGeneratedLedger_isIntactAsBefore() throws IOException {
        assertSame(clean(), "ledger verify", "clean-ledger-verify.json");
    }

    @Test
    void verify_onLedgerWithOddAndTornLines_reportsTheSameProblems() throws IOException {
        assertSame(odd(), "ledger verify", "odd-ledger-verify.json");
    }

    @Test
    void verify_onTamperedLedger_reportsTheSameChainBreak() throws IOException {
        Path project = clean();
        Path segment = project.resolve(".warden/state/ledger/2026-09.jsonl");
        byte[] b = Files.readAllBytes(segment);
        int at = new String(b, StandardCharsets.ISO_8859_1).indexOf("\"duration_ms\":", 50_000) + 14;
        b[at] = (byte) (b[at] != '9' ? '9' : '8');
        Files.write(segment, b);

        assertSame(project, "ledger verify", "tampered-ledger-verify.json");
    }

    @Test
    void logSummary_onGeneratedAndOddDecisions_equalsTheMapReadersOutput() throws IOException {
        Path project = tmp.resolve("decisions");
        Path dir = Files.createDirectories(project.resolve(".warden/state/decisions"));
        for (String month : MONTHS) {
            Files.write(dir.resolve(month + ".jsonl"), resource("/decision/bulk/" + month + ".jsonl"));
        }
        CliRun run = CliRun.of("log", "--summary", "--json", "--project-dir", project.toString());

        assertThat(run.out().strip()).isEqualTo(new String(resource("/decision/bulk-summary.json"), StandardCharsets.UTF_8).strip());
        assertThat(run.err()).isEmpty();
    }

    @Test
    void stats_readInManySmallChunksOnSeveralThreads_equalsTheMapReadersOutput() throws IOException {
        inSmallChunks(() -> assertSame(odd(), "ledger stats", "odd-ledger-stats.json"));
    }

    @Test
    void derive_readInManySmallChunksOnSeveralThreads_equalsTheMapReadersOutput() throws IOException {
        inSmallChunks(() -> assertSame(odd(), "guard derive", "odd-guard-derive.json"));
    }

    @Test
    void logSummary_readInManySmallChunksOnSeveralThreads_equalsTheMapReadersOutput() throws IOException {
        inSmallChunks(this::logSummary_onGeneratedAndOddDecisions_equalsTheMapReadersOutput);
    }

    @Test
    void stats_onEdgeCaseLines_equalsTheReadersBeforeTheWordScanner() throws IOException {
        assertSame(edge(), "ledger stats", "edge-ledger-stats.json");
    }

    @Test
    void derive_onEdgeCaseLines_equalsTheReadersBeforeTheWordScanner() throws IOException {
        assertSame(edge(), "guard derive", "edge-guard-derive.json");
    }

    @Test
    void verify_onEdgeCaseLines_reportsTheSameProblems() throws IOException {
        assertSame(edge(), "ledger verify", "edge-ledger-verify.json");
    }

    @Test
    void logSummary_onEdgeCaseLines_equalsTheReadersBeforeTheWordScanner() throws IOException {
        CliRun run = CliRun.of("log", "--summary", "--json", "--project-dir", edgeDecisions().toString());

        assertThat(run.out().strip())
                .isEqualTo(new String(resource("/decision/bulk-edge-summary.json"), StandardCharsets.UTF_8).strip());
        assertThat(run.err()).isEmpty();
    }

    @Test
    void edgeCaseLines_readInManySmallChunksOnSeveralThreads_equalTheReadersBeforeTheWordScanner() throws IOException {
        inSmallChunks(() -> {
            assertSame(edge(), "ledger stats", "edge-ledger-stats.json");
            assertSame(edge(), "guard derive", "edge-guard-derive.json");
            logSummary_onEdgeCaseLines_equalsTheReadersBeforeTheWordScanner();
        });
    }

    private interface Check {
        void run() throws IOException;
    }

    /** Runs {@code check} with the bulk readers cutting files into chunks of a few lines. */
    private static void inSmallChunks(Check check) throws IOException {
        System.setProperty("warden.read.chunk.bytes", "1500");
        try {
            check.run();
        } finally {
            System.clearProperty("warden.read.chunk.bytes");
        }
    }

    private void assertSame(Path project, String command, String expected) throws IOException {
        String[] words = command.split(" ");
        CliRun run = CliRun.of(words[0], words[1], "--json", "--project-dir", project.toString());
        String out = run.out().strip().replace(project.resolve(".warden/state/ledger").toString(), "<ledger>");

        assertThat(out).isEqualTo(new String(resource("/ledger/bulk/" + expected), StandardCharsets.UTF_8).strip());
        assertThat(run.err()).isEmpty();
    }

    private Path clean() throws IOException {
        Path project = tmp.resolve("project");
        Path dir = Files.createDirectories(project.resolve(".warden/state/ledger"));
        for (String month : MONTHS) {
            Files.write(dir.resolve(month + ".jsonl"), resource("/ledger/bulk/clean/" + month + ".jsonl"));
        }
        Files.write(dir.resolve("head.json"), resource("/ledger/bulk/clean/head.json"));
        return project;
    }

    private Path odd() throws IOException {
        Path project = clean();
        Files.write(project.resolve(".warden/state/ledger/2026-08.jsonl"), resource("/ledger/bulk/odd/2026-08.jsonl"));
        return project;
    }

    /**
     * The clean ledger with its 2026-10 segment full of edge cases ({@code ledger/bulk/edge-gen.py}):
     * malformed, truncated, unicode escapes, escaped and duplicate keys, raw and invalid UTF-8,
     * numbers at the edges, deep nesting, an overlong line, a torn last line.
     */
    private Path edge() throws IOException {
        Path project = clean();
        Files.write(project.resolve(".warden/state/ledger/2026-10.jsonl"), resource("/ledger/bulk/edge/2026-10.jsonl"));
        return project;
    }

    /** The generated decision log with its 2026-10 segment of edge cases, after one line over the reader's limit. */
    private Path edgeDecisions() throws IOException {
        Path project = tmp.resolve("edge-decisions");
        Path dir = Files.createDirectories(project.resolve(".warden/state/decisions"));
        for (String month : MONTHS) {
            Files.write(dir.resolve(month + ".jsonl"), resource("/decision/bulk/" + month + ".jsonl"));
        }
        String huge = "{\"v\":1,\"ts\":\"2026-10-01T00:00:18.000Z\",\"host\":\"claude\",\"event\":\"e\",\"native_event\":\"E\","
                + "\"session_id\":\"" + "x".repeat(1_100_000) + "\",\"concerns\":[],\"verdict\":\"allow\"}\n";
        byte[] edge = resource("/decision/bulk-edge/2026-10.jsonl");
        byte[] segment = new byte[huge.length() + edge.length];
        System.arraycopy(huge.getBytes(StandardCharsets.US_ASCII), 0, segment, 0, huge.length());
        System.arraycopy(edge, 0, segment, huge.length(), edge.length);
        Files.write(dir.resolve("2026-10.jsonl"), segment);
        return project;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = BulkReadEquivalenceTest.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }
}
