package dev.agentwarden.ledger;

import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentwarden.guard.GuardDerivation;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.testing.Fifo;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 items 9 and 13: planted links, FIFOs and devices in {@code .warden/state/}. */
class LedgerStateSafetyTest {
    static final Duration NO_HANG = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    Path project;
    Path victim;
    MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
    LedgerPaths paths;
    LedgerStore store;

    @BeforeEach
    void setUp() throws IOException {
        project = Files.createDirectories(tmp.resolve("project"));
        victim = tmp.resolve("victim.txt");
        Files.writeString(victim, "the user's own file, which must survive\n".repeat(20));
        paths = LedgerPaths.forRoot(project.toString());
        store = new LedgerStore(paths, clock);
        Files.createDirectories(paths.ledgerDir());
    }

    Map<String, Object> payload(String agent) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("agent_id", agent);
        p.put("agent_type", "general-purpose");
        return p;
    }

    void start(String agent) throws IOException {
        TestLedger.record(SubagentLedger.Kind.START, payload(agent), "s1", LedgerSettings.DEFAULTS, store);
    }

    @Test
    void append_throughSymlinkedHead_isRefusedAndTargetUnchanged() throws IOException {
        String before = Files.readString(victim);
        Files.createSymbolicLink(paths.headFile(), victim);

        assertThatThrownBy(() -> start("a1")).isInstanceOf(UnsafeFileException.class);

        assertThat(Files.readString(victim)).isEqualTo(before);
    }

    @Test
    void append_throughSymlinkedSegment_isRefusedAndTargetUnchanged() throws IOException {
        String before = Files.readString(victim);
        Files.createSymbolicLink(paths.segment("2026-05"), victim);

        assertThatThrownBy(() -> start("a1")).isInstanceOf(UnsafeFileException.class);

        assertThat(Files.readString(victim)).isEqualTo(before);
    }

    @Test
    void append_ledgerDirectorySymlinkedOutOfProject_isRefused() throws IOException {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.delete(paths.ledgerDir());
        Files.createSymbolicLink(paths.ledgerDir(), elsewhere);

        assertThatThrownBy(() -> start("a1")).isInstanceOfSatisfying(UnsafeFileException.class,
                e -> assertThat(e.code()).isEqualTo("state_symlink_refused"));
        try (var list = Files.list(elsewhere)) {
            assertThat(list).isEmpty();
        }
    }

    @Test
    void append_wardenDirectorySymlinkedOutOfProject_isRefused() throws IOException {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path warden = project.resolve(".warden");
        try (var walk = Files.walk(warden)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        Files.createSymbolicLink(warden, elsewhere);

        assertThatThrownBy(() -> start("a1")).isInstanceOfSatisfying(UnsafeFileException.class,
                e -> assertThat(e.code()).isEqualTo("state_symlink_refused"));
        try (var list = Files.list(elsewhere)) {
            assertThat(list).isEmpty();
        }
    }

    @Test
    void append_openRecordDirectorySymlinkedOutOfProject_isRefused() throws IOException {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(paths.openDir(), elsewhere);

        assertThatThrownBy(() -> start("a1")).isInstanceOf(UnsafeFileException.class);
        try (var list = Files.list(elsewhere)) {
            assertThat(list).isEmpty();
        }
    }

    @Test
    void append_lockFileSymlinked_isRefusedAndTargetUnchanged() throws IOException {
        String before = Files.readString(victim);
        Files.createSymbolicLink(paths.lockFile(), victim);

        assertThatThrownBy(() -> start("a1")).isInstanceOf(UnsafeFileException.class);
        assertThat(Files.readString(victim)).isEqualTo(before);
    }

    @Test
    void append_segmentIsFifo_isRefusedWithoutBlocking() throws Exception {
        Fifo.make(paths.segment("2026-05"));

        assertTimeoutPreemptively(NO_HANG, () -> assertThatThrownBy(() -> start("a1"))
                .isInstanceOf(UnsafeFileException.class));
    }

    @Test
    void verifyStatsAndDerive_segmentIsFifo_reportUnreadableWithoutBlocking() throws Exception {
        start("a1");
        Fifo.make(paths.segment("2026-04"));

        assertTimeoutPreemptively(NO_HANG, () -> {
            LedgerVerifier.Report r = LedgerVerifier.verify(paths);
            assertThat(r.intact()).isFalse();
            assertThat(r.problems()).extracting(LedgerProblem::code).contains("ledger_segment_unreadable");
            LedgerStats.Report stats = LedgerStats.compute(paths, LedgerSettings.DEFAULTS, clock);
            assertThat(stats.toJson()).containsEntry("unreadable_segments", 1L);
            GuardDerivation.derive(paths, Instant.parse("2026-01-01T00:00:00Z"));
        });
    }

    @Test
    void verify_segmentLinkedToDevZero_reportsUnreadableWithoutSpinning() throws IOException {
        start("a1");
        Files.createSymbolicLink(paths.segment("2026-04"), Path.of("/dev/zero"));

        assertTimeoutPreemptively(NO_HANG, () -> {
            LedgerVerifier.Report r = LedgerVerifier.verify(paths);
            assertThat(r.problems()).extracting(LedgerProblem::code).contains("ledger_segment_unreadable");
        });
    }

    @Test
    void openSet_recordLinkedToDevZero_isInvalidWithoutSpinning() throws IOException {
        Files.createDirectories(paths.openDir());
        Files.createSymbolicLink(paths.openDir().resolve(AgentRef.of("x") + ".json"), Path.of("/dev/zero"));

        assertTimeoutPreemptively(NO_HANG, () -> {
            OpenSet set = OpenSet.read(paths, clock.millis(), LedgerSettings.DEFAULT_TTL_MS);
            assertThat(set.invalid()).extracting(LedgerProblem::code).containsExactly("open_record_unsafe");
        });
    }

    @Test
    void append_afterHeadDeleted_recordsGapInTheChain() throws IOException {
        start("a1");
        start("a2");
        Files.delete(paths.headFile());

        start("a3");

        LedgerVerifier.Report r = LedgerVerifier.verify(paths);
        assertThat(r.intact()).isFalse();
        assertThat(r.problems()).extracting(LedgerProblem::code).containsExactly("ledger_gap");
    }
}
