package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.io.ReadProgress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verifier's chunked walk ({@link ChainFacts}: lines scanned and hashed on several threads, linked
 * in order) finds exactly what the one-thread walk over {@link LedgerReader#scan} finds: the same
 * problems in the same order with the same locations and messages, the same head and anchor line
 * hashes, line counts and last chain line; on a ledger with every kind of damage, read in chunks of
 * a few hundred bytes so that chunk edges fall everywhere.
 */
class ChainFactsTest {
    @TempDir
    Path project;

    @AfterEach
    void clearChunkSize() {
        System.clearProperty(LineChunks.CHUNK_PROPERTY);
    }

    @Test
    void chunkedWalk_damagedLedger_findsWhatTheSequentialWalkFinds() throws IOException {
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        Files.createDirectories(paths.ledgerDir());
        Random rnd = new Random(7);
        String prev = LedgerLine.GENESIS;
        List<String[]> heads = new ArrayList<>();
        for (String month : new String[] {"2026-04", "2026-05", "2026-06"}) {
            StringBuilder b = new StringBuilder();
            int n = 0;
            for (int i = 0; i < 400; i++) {
                String line = "{\"v\":" + (rnd.nextInt(60) == 0 ? "2" : "1") + ",\"event\":\""
                        + (rnd.nextInt(80) == 0 ? "ledger_gap\",\"detail\":\"cut " + i : "e" + i) + "\",\"n\":" + i
                        + ",\"prev\":\"" + prev + "\"}";
                switch (rnd.nextInt(40)) {
                    case 0 -> line = line.replace("\"n\":" + i, "\"n\":" + (i + 1)); // edited: the next link breaks
                    case 1 -> line = line.replace(prev, prev.toUpperCase(java.util.Locale.ROOT)); // prev not as written
                    case 2 -> line = line.replace("\"prev\":\"" + prev.charAt(0), "\"prev\":\"\\u00" + Integer.toHexString(prev.charAt(0)));
                    case 3 -> line = line.replace(",\"prev\":\"" + prev + "\"", ""); // no prev
                    case 4 -> {
                        b.append("{\"v\":1,\"event\":\"torn").append('\n');
                        n++;
                    }
                    case 5 -> {
                        b.append("x".repeat(LedgerLine.MAX_LINE_BYTES + 10)).append('\n');
                        n++;
                    }
                    case 6 -> {
                        b.append('\n');
                        n++;
                    }
                    default -> {
                    }
                }
                b.append(line).append('\n');
                n++;
                prev = LedgerLine.hash(line.getBytes(StandardCharsets.UTF_8));
            }
            if (month.equals("2026-06")) {
                b.append("{\"v\":1,\"event\":\"unterminated\""); // a last line cut short
                n++;
            }
            Files.writeString(paths.segment(month), b.toString());
            heads.add(new String[] {month, String.valueOf(n), prev});
        }
        // a head on a line in the middle, and an anchor elsewhere: their hashes come from chunk interiors
        ChainHead head = new ChainHead("2026-05", 200, "f".repeat(64));
        LedgerAnchor anchor = new LedgerAnchor(project.toString(), "2026-06", 37, "e".repeat(64), 500, "2026-07-01T00:00:00Z");
        for (String chunk : new String[] {"300", "4096", String.valueOf(LineChunks.CHUNK_BYTES)}) {
            System.setProperty(LineChunks.CHUNK_PROPERTY, chunk);
            for (ChainHead h : new ChainHead[] {head, null,
                new ChainHead("2026-06", Long.parseLong(heads.get(2)[1]), heads.get(2)[2])}) {
                LedgerVerifier.Walk sequential = new LedgerVerifier.Walk(h, anchor);
                LedgerReader.scan(paths, ReadProgress.NONE, sequential);
                LedgerVerifier.Walk chunked = new LedgerVerifier.Walk(h, anchor);
                ChainFacts.walk(paths, ReadProgress.NONE, chunked);
                assertThat(chunked.state()).as("chunks of %s bytes, head %s", chunk, h).isEqualTo(sequential.state());
            }
        }
        // the ledger holds what the test means it to
        LedgerVerifier.Walk w = new LedgerVerifier.Walk(head, anchor);
        LedgerReader.scan(paths, ReadProgress.NONE, w);
        @SuppressWarnings("unchecked")
        List<String> codes = ((List<LedgerProblem>) w.state().get(0)).stream().map(LedgerProblem::code).toList();
        assertThat(codes).contains("ledger_chain_break", "ledger_prev_missing", "ledger_torn_line", "ledger_line_too_long",
                "ledger_version_unknown", "ledger_gap");
    }
}
