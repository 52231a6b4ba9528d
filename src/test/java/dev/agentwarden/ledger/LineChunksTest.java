package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.io.ReadProgress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the ledger in chunks on several threads sees what one sequential read sees: every chain
 * line once, whole, in order, and every skipped line with its place in its segment.
 */
class LineChunksTest {
    @TempDir
    Path tmp;

    /** Collects what a read hands out. */
    private static final class Seen implements LedgerReader.LineVisitor {
        final List<String> lines = new ArrayList<>();
        final List<LedgerProblem> problems = new ArrayList<>();

        @Override
        public void entry(String segment, long number, LedgerLine.View line, byte[] bytes, int from, int to) {
            lines.add(segment + " " + new String(bytes, from, to - from, StandardCharsets.UTF_8));
        }

        @Override
        public void problem(LedgerProblem problem) {
            problems.add(problem);
        }
    }

    @Test
    void scanInParts_tinyChunksOverTornAndOverlongLines_seesWhatOneSequentialReadSees() throws IOException {
        LedgerPaths paths = LedgerPaths.forRoot(tmp.toString());
        Files.createDirectories(paths.ledgerDir());
        StringBuilder june = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            june.append("{\"v\":1,\"event\":\"subagent_stop\",\"n\":").append(i).append(",\"prev\":\"x\"}\n");
            if (i % 37 == 5) {
                june.append("{\"v\":1,\"event\":\"torn\n");
            }
            if (i == 200) {
                june.append("{\"pad\":\"").append("y".repeat(LedgerLine.MAX_LINE_BYTES + 10)).append("\"}\n");
            }
        }
        june.append("{\"v\":1,\"unterminated\":");
        Files.writeString(paths.segment("2026-06"), june);
        Files.writeString(paths.segment("2026-07"), "{\"v\":1,\"event\":\"subagent_start\"}\nnot json\n");
        Seen sequential = new Seen();
        LedgerReader.scan(paths, ReadProgress.NONE, sequential);

        List<Seen> parts = LedgerReader.scanInParts(paths, ReadProgress.NONE, 700, Seen::new);
        Seen chunked = new Seen();
        for (Seen s : parts) {
            chunked.lines.addAll(s.lines);
            chunked.problems.addAll(s.problems);
        }

        assertThat(parts.size()).isGreaterThan(20);
        assertThat(chunked.lines).hasSize(401).isEqualTo(sequential.lines);
        assertThat(chunked.problems).hasSize(sequential.problems.size()).isEqualTo(sequential.problems);
        assertThat(chunked.problems).extracting(LedgerProblem::code).contains("ledger_line_too_long", "ledger_torn_line");
    }

    @Test
    void scanInParts_segmentThatIsALink_isOneUnreadablePartInItsPlace() throws IOException {
        LedgerPaths paths = LedgerPaths.forRoot(tmp.toString());
        Files.createDirectories(paths.ledgerDir());
        Files.writeString(paths.segment("2026-06"), "{\"v\":1,\"event\":\"a\"}\n");
        Path elsewhere = Files.writeString(tmp.resolve("elsewhere.jsonl"), "{\"v\":1,\"event\":\"b\"}\n");
        Files.createSymbolicLink(paths.segment("2026-07"), elsewhere);
        Files.writeString(paths.segment("2026-08"), "{\"v\":1,\"event\":\"c\"}\n");

        List<Seen> parts = LedgerReader.scanInParts(paths, ReadProgress.NONE, 700, Seen::new);

        assertThat(parts).hasSize(3);
        assertThat(parts.get(0).lines).containsExactly("2026-06 {\"v\":1,\"event\":\"a\"}");
        assertThat(parts.get(1).problems).extracting(LedgerProblem::code).containsExactly("ledger_segment_unreadable");
        assertThat(parts.get(2).lines).containsExactly("2026-08 {\"v\":1,\"event\":\"c\"}");
    }
}
