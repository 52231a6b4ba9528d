package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LedgerVerifierTest {
    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-30T10:00:00Z");
    LedgerPaths paths;

    @BeforeEach
    void setUp() throws IOException {
        paths = LedgerPaths.forRoot(project.toString());
        LedgerStore store = new LedgerStore(paths, clock);
        for (int i = 1; i <= 6; i++) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("event", "e" + i);
            fields.put("n", (long) i);
            store.append(fields);
            clock.advance(Duration.ofDays(1));
        }
    }

    Path may() {
        return paths.segment("2026-05");
    }

    Path june() {
        return paths.segment("2026-06");
    }

    static void rewrite(Path file, UnaryOperator<List<String>> change) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        List<String> changed = change.apply(lines);
        Files.writeString(file, changed.isEmpty() ? "" : String.join("\n", changed) + "\n");
    }

    static List<String> codes(LedgerVerifier.Report r) {
        return r.problems().stream().map(LedgerProblem::code).toList();
    }

    @Test
    void verify_untouchedLedger_isIntactAcrossSegments() throws IOException {
        LedgerVerifier.Report r = LedgerVerifier.verify(paths);

        assertThat(paths.segments()).hasSize(2);
        assertThat(r.problems()).isEmpty();
        assertThat(r.intact()).isTrue();
        assertThat(r.chainLines()).isEqualTo(6);
    }

    static Stream<Arguments> tampering() {
        return Stream.of(
                Arguments.of("edit a field", (Tamper) t -> rewrite(t.june(), l -> {
                    l.set(0, l.get(0).replace("\"n\":3", "\"n\":30"));
                    return l;
                }), List.of("ledger_chain_break")),
                Arguments.of("delete a middle line", (Tamper) t -> rewrite(t.june(), l -> {
                    l.remove(1);
                    return l;
                }), List.of("ledger_chain_break", "ledger_tail_missing")),
                Arguments.of("swap two lines", (Tamper) t -> rewrite(t.june(), l -> {
                    Collections.swap(l, 1, 2);
                    return l;
                }), List.of("ledger_chain_break", "ledger_chain_break", "ledger_chain_break")),
                Arguments.of("insert a forged line", (Tamper) t -> rewrite(t.june(), l -> {
                    l.add(1, "{\"v\":1,\"event\":\"forged\",\"prev\":\"" + LedgerLine.GENESIS + "\"}");
                    return l;
                }), List.of("ledger_chain_break", "ledger_chain_break", "ledger_head_mismatch")),
                Arguments.of("cut the last line", (Tamper) t -> rewrite(t.june(), l -> l.subList(0, l.size() - 1)),
                        List.of("ledger_tail_missing")),
                Arguments.of("delete the first segment", (Tamper) t -> Files.delete(t.may()),
                        List.of("ledger_chain_break")),
                Arguments.of("delete the last segment", (Tamper) t -> Files.delete(t.june()),
                        List.of("ledger_tail_missing")),
                Arguments.of("delete the first line", (Tamper) t -> rewrite(t.may(), l -> l.subList(1, l.size())),
                        List.of("ledger_chain_break")));
    }

    interface Tamper {
        void apply(LedgerVerifierTest t) throws IOException;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tampering")
    void verify_afterTampering_reportsIt(String name, Tamper tamper, List<String> expected) throws IOException {
        tamper.apply(this);

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);

        assertThat(r.intact()).isFalse();
        assertThat(codes(r)).containsExactlyElementsOf(expected);
    }

    @Test
    void verify_tornLineLeftByCrash_isAWarningOnly() throws IOException {
        Files.writeString(june(), "{\"v\":1,\"event\":\"e7\",\"ts", java.nio.file.StandardOpenOption.APPEND);

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);

        assertThat(r.intact()).isTrue();
        assertThat(codes(r)).containsExactly("ledger_torn_line", "ledger_head_behind");
    }

    @Test
    void verify_noLedger_isNotPresentAndIntact() throws IOException {
        LedgerVerifier.Report r = LedgerVerifier.verify(LedgerPaths.forRoot(project.resolve("elsewhere").toString()));

        assertThat(r.present()).isFalse();
        assertThat(r.intact()).isTrue();
    }

    @Test
    void verify_headMissingWhereLinesExist_fails() throws IOException {
        Files.delete(paths.headFile());

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);
        assertThat(codes(r)).containsExactly("ledger_head_missing");
        assertThat(r.intact()).isFalse();
    }

    @Test
    void verify_tailCutAndHeadDeleted_fails() throws IOException {
        rewrite(june(), l -> l.subList(0, l.size() - 1));
        Files.delete(paths.headFile());

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);
        assertThat(r.intact()).isFalse();
        assertThat(codes(r)).containsExactly("ledger_head_missing");
    }

    @Test
    void verify_headGarbled_fails() throws IOException {
        Files.writeString(paths.headFile(), "{\"v\":1,\"segment\":\"garbage");

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);
        assertThat(r.intact()).isFalse();
        assertThat(codes(r)).containsExactly("ledger_head_invalid");
    }

    @Test
    void verify_allSegmentsDeletedHeadKept_fails() throws IOException {
        Files.delete(may());
        Files.delete(june());

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);
        assertThat(r.intact()).isFalse();
        assertThat(codes(r)).containsExactly("ledger_tail_missing");
    }

    @Test
    void verify_frozenV1Fixture_isIntact(@TempDir Path fixtureProject) throws IOException {
        LedgerPaths fixture = LedgerPaths.forRoot(fixtureProject.toString());
        Files.createDirectories(fixture.ledgerDir());
        for (String name : List.of("2026-05.jsonl", "head.json")) {
            try (InputStream in = getClass().getResourceAsStream("/ledger/v1/" + name)) {
                Files.copy(in, fixture.ledgerDir().resolve(name));
            }
        }

        LedgerVerifier.Report r = LedgerVerifier.verify(fixture);

        assertThat(r.problems()).isEmpty();
        assertThat(r.chainLines()).isEqualTo(10);
    }

    @Test
    void verify_readsInstantsWrittenByAnyClock() throws IOException {
        clock.set(Instant.parse("2026-06-30T23:59:59.999Z"));
        new LedgerStore(paths, clock).append(Map.of("event", "last"));

        assertThat(LedgerVerifier.verify(paths).intact()).isTrue();
    }
}
