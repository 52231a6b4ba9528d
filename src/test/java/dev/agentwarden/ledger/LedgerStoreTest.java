package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerStoreTest {
    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
    LedgerPaths paths;
    LedgerStore store;

    @BeforeEach
    void setUp() {
        paths = LedgerPaths.forRoot(project.toString());
        store = new LedgerStore(paths, clock);
    }

    Map<String, Object> append(String event, Object... kv) throws IOException {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("event", event);
        for (int i = 0; i < kv.length; i += 2) {
            fields.put((String) kv[i], kv[i + 1]);
        }
        return store.append(fields);
    }

    Path segment() {
        return paths.segment("2026-05");
    }

    List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    List<LedgerProblem> readProblems() throws IOException {
        List<LedgerProblem> problems = new ArrayList<>();
        LedgerReader.read(paths, new LedgerReader.Visitor() {
            @Override
            public void entry(LedgerReader.Entry entry) {
            }

            @Override
            public void problem(LedgerProblem problem) {
                problems.add(problem);
            }
        });
        return problems;
    }

    @Test
    void append_firstLine_chainsFromGenesisAndNextLineFromIt() throws IOException {
        Map<String, Object> first = append("e1");
        append("e2");

        List<String> lines = lines(segment());
        assertThat(first).containsEntry("prev", LedgerLine.GENESIS).containsEntry("ts", "2026-05-04T10:00:00.000Z");
        assertThat(lines.get(0)).startsWith("{\"v\":1,\"event\":\"e1\",\"ts\":\"2026-05-04T10:00:00.000Z\",");
        assertThat(lines.get(1)).endsWith("\"prev\":\"" + LedgerLine.hash(lines.get(0).getBytes(StandardCharsets.UTF_8)) + "\"}");
        assertThat(ChainHead.read(paths.headFile()))
                .isEqualTo(new ChainHead("2026-05", 2, LedgerLine.hash(lines.get(1).getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void append_acrossMonths_startsNewSegmentChainedToTheOld() throws IOException {
        append("may");
        clock.set(java.time.Instant.parse("2026-06-01T00:00:01Z"));
        Map<String, Object> june = append("june");

        Path may = segment();
        assertThat(june).containsEntry("prev", LedgerLine.hash(lines(may).get(0).getBytes(StandardCharsets.UTF_8)));
        assertThat(paths.segments()).containsExactly("2026-05", "2026-06");
        assertThat(LedgerVerifier.verify(paths).intact()).isTrue();
    }

    @Test
    void append_clockBehindLatestSegment_staysInLatestSegment() throws IOException {
        clock.set(java.time.Instant.parse("2026-06-01T00:00:01Z"));
        append("june");
        clock.advance(Duration.ofDays(-2));
        append("clock stepped back");

        assertThat(paths.segments()).containsExactly("2026-06");
        assertThat(LedgerVerifier.verify(paths).intact()).isTrue();
    }

    @Test
    void append_afterTornLine_recovers() throws IOException {
        append("e1");
        String good = lines(segment()).get(0);
        Files.writeString(segment(), "{\"v\":1,\"event\":\"cut sho", StandardOpenOption.APPEND);

        Map<String, Object> next = append("e3");

        List<String> lines = lines(segment());
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isEqualTo("{\"v\":1,\"event\":\"cut sho");
        assertThat(next).containsEntry("prev", LedgerLine.hash(good.getBytes(StandardCharsets.UTF_8)));
        LedgerVerifier.Report report = LedgerVerifier.verify(paths);
        assertThat(report.intact()).isTrue();
        assertThat(report.problems()).extracting(LedgerProblem::code).containsExactly("ledger_torn_line");
    }

    @Test
    void read_tornFinalLine_isSkippedAndReported() throws IOException {
        append("e1");
        Files.writeString(segment(), "{\"v\":1,\"ev", StandardOpenOption.APPEND);
        List<String> events = new ArrayList<>();

        List<LedgerProblem> problems = new ArrayList<>();
        LedgerReader.read(paths, new LedgerReader.Visitor() {
            @Override
            public void entry(LedgerReader.Entry entry) {
                events.add(entry.string("event"));
            }

            @Override
            public void problem(LedgerProblem problem) {
                problems.add(problem);
            }
        });

        assertThat(events).containsExactly("e1");
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.code()).isEqualTo("ledger_torn_line");
            assertThat(p.location()).isEqualTo("2026-05.jsonl:2");
            assertThat(p.error()).isFalse();
        });
    }

    @Test
    void append_afterCompleteButUnterminatedLine_chainsOntoIt() throws IOException {
        append("e1");
        Map<String, Object> e2 = append("e2");
        String second = lines(segment()).get(1);
        byte[] all = Files.readAllBytes(segment());
        Files.write(segment(), java.util.Arrays.copyOf(all, all.length - 1));

        Map<String, Object> e3 = append("e3");

        assertThat(e2).isNotNull();
        assertThat(e3).containsEntry("prev", LedgerLine.hash(second.getBytes(StandardCharsets.UTF_8)));
        assertThat(LedgerVerifier.verify(paths).problems()).isEmpty();
    }

    @Test
    void read_overlongLine_isSkippedAndReported() throws IOException {
        append("e1");
        Files.writeString(segment(), "{\"x\":\"" + "y".repeat(LedgerLine.MAX_LINE_BYTES) + "\"}\n", StandardOpenOption.APPEND);

        assertThat(readProblems()).extracting(LedgerProblem::code).containsExactly("ledger_line_too_long");
    }

    @Test
    void append_headBehindAfterCrash_continuesWithoutGap() throws IOException {
        append("e1");
        byte[] head = Files.readAllBytes(paths.headFile());
        append("e2");
        Files.write(paths.headFile(), head);

        append("e3");

        LedgerVerifier.Report report = LedgerVerifier.verify(paths);
        assertThat(report.problems()).isEmpty();
        assertThat(lines(segment())).hasSize(3);
    }

    @Test
    void append_afterLinesCutFromTheEnd_recordsAGapLine() throws IOException {
        append("e1");
        append("e2");
        append("e3");
        List<String> kept = lines(segment()).subList(0, 1);
        Files.write(segment(), (kept.get(0) + "\n").getBytes(StandardCharsets.UTF_8));

        append("e4");

        List<String> lines = lines(segment());
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).contains("\"event\":\"ledger_gap\"").contains("\"expected_lines\":3");
        assertThat(LedgerVerifier.verify(paths).problems()).extracting(LedgerProblem::code).containsExactly("ledger_gap");
    }

    @Test
    void append_manyThreads_writeEveryLineOnceInOneChain() throws Exception {
        int threads = 8;
        int perThread = 100;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        append("t", "thread", (long) id, "i", (long) i);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }

        LedgerVerifier.Report report = LedgerVerifier.verify(paths);
        assertThat(report.problems()).isEmpty();
        assertThat(report.chainLines()).isEqualTo((long) threads * perThread);
        assertThat(lines(segment())).doesNotHaveDuplicates();
    }

    @Test
    void begin_unwritableStateHome_failsWithIOException() throws IOException {
        Files.writeString(project.resolve(".warden"), "a file where the state directory should be");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> append("e1")).isInstanceOf(IOException.class);
    }
}
