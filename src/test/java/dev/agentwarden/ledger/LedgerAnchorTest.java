package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 12: an anchor outside the project catches a deleted or recomputed history. */
class LedgerAnchorTest {
    @TempDir
    Path tmp;

    MutableClock clock = MutableClock.at("2026-05-30T10:00:00Z");
    LedgerPaths paths;
    Path anchorFile;

    @BeforeEach
    void setUp() throws IOException {
        paths = LedgerPaths.forRoot(Files.createDirectories(tmp.resolve("project")).toString());
        anchorFile = tmp.resolve("state/agent-warden/anchors/p.json");
        write(paths, "real", 4);
    }

    void write(LedgerPaths p, String prefix, int n) throws IOException {
        LedgerStore store = new LedgerStore(p, clock);
        for (int i = 1; i <= n; i++) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("event", prefix + i);
            store.append(fields);
            clock.advance(Duration.ofDays(1));
        }
    }

    LedgerAnchor anchor() throws IOException {
        LedgerAnchor a = LedgerVerifier.position(paths, null, paths.root().toString(), "2026-06-03T00:00:00Z");
        a.write(anchorFile);
        return a;
    }

    static void deleteLedger(LedgerPaths p) throws IOException {
        for (String s : p.segments()) {
            Files.delete(p.segment(s));
        }
        Files.deleteIfExists(p.headFile());
    }

    @Test
    void verify_historyRewrittenWithRecomputedChain_failsAgainstAnchor() throws IOException {
        anchor();
        deleteLedger(paths);
        clock = MutableClock.at("2026-05-30T10:00:00Z");
        write(paths, "forged", 4);
        assertThat(LedgerVerifier.verify(paths).intact()).as("the forged chain is self-consistent").isTrue();

        LedgerVerifier.Report r = LedgerVerifier.verifyAnchored(paths, anchorFile);

        assertThat(r.intact()).isFalse();
        assertThat(r.problems()).extracting(LedgerProblem::code).containsExactly("ledger_anchor_mismatch");
    }

    @Test
    void verify_allSegmentsAndHeadDeletedWithAnchor_fails() throws IOException {
        anchor();
        deleteLedger(paths);

        LedgerVerifier.Report r = LedgerVerifier.verifyAnchored(paths, anchorFile);

        assertThat(r.intact()).isFalse();
        assertThat(r.problems()).extracting(LedgerProblem::code).containsExactly("ledger_anchor_missing");
    }

    @Test
    void verify_wholeLedgerDirectoryDeletedWithAnchor_fails() throws IOException {
        anchor();
        deleteLedger(paths);
        Files.delete(paths.lockFile());
        Files.delete(paths.ledgerDir());

        LedgerVerifier.Report r = LedgerVerifier.verifyAnchored(paths, anchorFile);

        assertThat(r.intact()).isFalse();
        assertThat(r.problems()).extracting(LedgerProblem::code).containsExactly("ledger_anchor_missing");
    }

    @Test
    void verify_linesAppendedAfterAnchor_isIntact() throws IOException {
        anchor();
        write(paths, "later", 3);

        assertThat(LedgerVerifier.verifyAnchored(paths, anchorFile).problems()).isEmpty();
    }

    @Test
    void anchor_isPrivateToTheUser() throws IOException {
        anchor();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(anchorFile))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(anchorFile.getParent()))).isEqualTo("rwx------");
    }

    @Test
    void verify_anchorWritableByOthers_isRefused() throws IOException {
        anchor();
        Files.setPosixFilePermissions(anchorFile, PosixFilePermissions.fromString("rw-rw-rw-"));

        assertThatThrownBy(() -> LedgerAnchor.read(anchorFile)).isInstanceOfSatisfying(UnsafeFileException.class,
                e -> assertThat(e.code()).isEqualTo("anchor_writable_by_others"));
        assertThat(LedgerVerifier.verifyAnchored(paths, anchorFile).problems()).extracting(LedgerProblem::code)
                .containsExactly("ledger_anchor_unusable");
    }

    @Test
    void verify_anchorIsSymlink_isRefused() throws IOException {
        anchor();
        Path real = tmp.resolve("elsewhere.json");
        Files.move(anchorFile, real);
        Files.createSymbolicLink(anchorFile, real);

        assertThat(LedgerVerifier.verifyAnchored(paths, anchorFile).problems()).extracting(LedgerProblem::code)
                .containsExactly("ledger_anchor_unusable");
    }

    @Test
    void position_damagedLedger_isRefused() throws IOException {
        Files.delete(paths.headFile());

        assertThatThrownBy(() -> LedgerVerifier.position(paths, null, "p", "t")).isInstanceOfSatisfying(
                LedgerException.class, e -> assertThat(e.code()).isEqualTo("ledger_not_intact"));
    }
}
