package dev.agentwarden.ledger;

import org.junit.jupiter.api.parallel.Isolated;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import dev.agentwarden.testing.TestLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 item 11: the ledger kept one segment per month and never rolled by size, while readers
 * refused a segment over 256 MiB; a busy month made an untampered ledger fail to verify. Segments
 * now roll by size into parts, and the chain runs across them.
 */
@Isolated("sets the system property warden.read.chunk.bytes, which Warden's code reads in every class")
class LedgerRollingTest {
    static final long ROLL = 2048;

    @TempDir
    Path project;

    /** Records {@code agents} start/stop pairs; returns the chain lines written. */
    static long record(LedgerStore store, MutableClock clock, int agents, String prefix) throws IOException {
        long lines = 0;
        for (int i = 0; i < agents; i++) {
            Map<String, Object> agent = Map.of("agent_id", prefix + i, "agent_type", "Explore");
            lines += TestLedger.record(SubagentLedger.Kind.START, agent, "s-1", LedgerSettings.DEFAULTS, store).size();
            clock.advance(Duration.ofSeconds(30));
            lines += TestLedger.record(SubagentLedger.Kind.STOP, agent, "s-1", LedgerSettings.DEFAULTS, store).size();
        }
        return lines;
    }

    @Test
    void issue28_segmentsRollBySize_chainRunsAcrossParts_verifyIntact_statsCountEveryLine() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-30T10:00:00Z");
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        LedgerStore store = RollingStores.rollingAt(paths, clock, ROLL);
        long written = record(store, clock, 40, "a");
        clock.advance(Duration.ofDays(3));
        written += record(store, clock, 10, "b");

        List<String> segments = paths.segments();
        assertThat(segments).as("several parts of May, then June").contains("2026-05", "2026-05.0001", "2026-05.0002",
                "2026-06");
        assertThat(segments).isSorted();
        for (String s : segments) {
            assertThat(Files.size(paths.segment(s))).as(s).isLessThanOrEqualTo(ROLL);
        }
        assertThat(ChainHead.load(paths.headFile()).head().segment()).isEqualTo(segments.get(segments.size() - 1));

        LedgerVerifier.Report verified = LedgerVerifier.verify(paths);
        assertThat(verified.problems()).isEmpty();
        assertThat(verified.intact()).isTrue();
        assertThat(verified.chainLines()).isEqualTo(written);
        assertThat(verified.segments()).isEqualTo(segments.size());

        Map<String, Object> stats = LedgerStats.compute(paths, LedgerSettings.DEFAULTS, clock).toJson();
        assertThat(stats.get("chain_lines")).isEqualTo(written);
        assertThat(stats.get("unreadable_segments")).isEqualTo(0L);
    }

    @Test
    void issue28_partsReadInSmallChunks_countTheSameAsOneScan() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        long written = record(RollingStores.rollingAt(paths, clock, 8 * ROLL), clock, 60, "a");
        String before = System.getProperty(LineChunks.CHUNK_PROPERTY);
        System.setProperty(LineChunks.CHUNK_PROPERTY, "700");
        try {
            assertThat(LedgerStats.compute(paths, LedgerSettings.DEFAULTS, clock).toJson().get("chain_lines"))
                    .isEqualTo(written);
        } finally {
            if (before == null) {
                System.clearProperty(LineChunks.CHUNK_PROPERTY);
            } else {
                System.setProperty(LineChunks.CHUNK_PROPERTY, before);
            }
        }
        assertThat(paths.segments().size()).isGreaterThan(1);
    }

    @Test
    void issue28_aPartRemovedFromTheMiddle_breaksTheChain() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        record(RollingStores.rollingAt(paths, clock, ROLL), clock, 30, "a");
        assertThat(paths.segments()).contains("2026-05.0002");

        Files.delete(paths.segment("2026-05.0001"));

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);
        assertThat(r.intact()).isFalse();
        assertThat(r.problems()).anySatisfy(p -> assertThat(p.location()).startsWith("2026-05.0002.jsonl:1"));
    }

    @Test
    void segmentNames_partsSortAfterTheirMonth_andAreRecognised() {
        assertThat(LedgerPaths.nextPart("2026-05")).isEqualTo("2026-05.0001");
        assertThat(LedgerPaths.nextPart("2026-05.0009")).isEqualTo("2026-05.0010");
        assertThat(TokenShape.isSegment("2026-05.0001")).isTrue();
        assertThat(TokenShape.isSegment("2026-05.0000")).isFalse();
        assertThat(TokenShape.isSegment("2026-13")).isFalse();
        assertThat(TokenShape.isSegment("2026-05.01")).isFalse();
    }
}
