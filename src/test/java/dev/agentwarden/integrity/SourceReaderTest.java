package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.integrity.agentfile.Boundaries;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.release.ReleaseSource;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceReaderTest {
    static final BoundaryProfile SQUAD = BoundaryProfile.squad();
    static final byte[] WHOLE = Ev.squad();

    @TempDir
    Path dir;

    private SourceReader.SourceRead read(Path file) {
        return new SourceReader(SourceReader.DEFAULT_MAX_BYTES).read(file, SQUAD);
    }

    @Test
    void read_regularFile_isLoadedWithCountsShaAndMarkers() throws IOException {
        Path f = Files.write(dir.resolve("squad.agent.md"), WHOLE);
        SourceReader.SourceRead r = read(f);
        IntegrityEvent.PayloadReadStatus e = r.event();
        assertThat(e.status()).isEqualTo(ReadStatus.LOADED);
        assertThat(r.bytes()).isEqualTo(WHOLE);
        assertThat(e.bytesRead()).isEqualTo(WHOLE.length);
        assertThat(e.expectedBytes()).isEqualTo(WHOLE.length);
        assertThat(e.eofReached()).isTrue();
        assertThat(e.sourceStable()).isTrue();
        assertThat(e.sourceShaAfterRead()).isEqualTo(Sha256.hex(WHOLE));
        assertThat(e.normalizedSha256()).containsKey("squad-template");
        assertThat(e.boundaries()).isEqualTo(new Boundaries(6, true));
        assertThat(e.stampedVersion()).isEqualTo(Ev.VERSION);
        assertThat(e.realPath()).isNull();
    }

    @Test
    void read_emptyFile_isEmptyWithoutSha() throws IOException {
        IntegrityEvent.PayloadReadStatus e = read(Files.write(dir.resolve("a.md"), new byte[0])).event();
        assertThat(e.status()).isEqualTo(ReadStatus.EMPTY);
        assertThat(e.sourceShaAfterRead()).isNull();
    }

    @Test
    void read_absentFile_isAbsent() {
        IntegrityEvent.PayloadReadStatus e = read(dir.resolve("missing.md")).event();
        assertThat(e.status()).isEqualTo(ReadStatus.ABSENT);
        assertThat(e.reason()).startsWith("not_found");
    }

    @Test
    void read_directory_isAbsentNotRegular() throws IOException {
        IntegrityEvent.PayloadReadStatus e = read(Files.createDirectory(dir.resolve("d.md"))).event();
        assertThat(e.status()).isEqualTo(ReadStatus.ABSENT);
        assertThat(e.reason()).startsWith("not_regular_file");
    }

    @Test
    void read_unreadableFile_isAbsent() throws IOException {
        Path f = Files.write(dir.resolve("locked.md"), WHOLE);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("---------"));
        Assumptions.assumeFalse(Files.isReadable(f), "permission bits do not stop this user (root)");
        IntegrityEvent.PayloadReadStatus e = read(f).event();
        assertThat(e.status()).isEqualTo(ReadStatus.ABSENT);
        assertThat(e.reason()).startsWith("unreadable");
    }

    @Test
    void read_ioErrorMidRead_isTruncatedWithCounts() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        SourceReader failing = new SourceReader(SourceReader.DEFAULT_MAX_BYTES, 1024, soFar -> {
            throw new IOException("Input/output error");
        });
        IntegrityEvent.PayloadReadStatus e = failing.read(f, SQUAD).event();
        assertThat(e.status()).isEqualTo(ReadStatus.TRUNCATED);
        assertThat(e.bytesRead()).isEqualTo(1024);
        assertThat(e.expectedBytes()).isEqualTo(WHOLE.length);
        assertThat(e.reason()).startsWith("read_error");
    }

    @Test
    void read_symlinkToFile_isFollowedAndTheTargetRecorded() throws IOException {
        Path target = Files.write(dir.resolve("real.md"), WHOLE);
        Path link = Files.createSymbolicLink(dir.resolve("squad.agent.md"), target);
        IntegrityEvent.PayloadReadStatus e = read(link).event();
        assertThat(e.status()).isEqualTo(ReadStatus.LOADED);
        assertThat(e.realPath()).isEqualTo(target.toRealPath().toString());
        assertThat(e.sourceShaAfterRead()).isEqualTo(Sha256.hex(WHOLE));
    }

    @Test
    void read_danglingSymlink_isAbsent() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("squad.agent.md"), dir.resolve("gone.md"));
        IntegrityEvent.PayloadReadStatus e = read(link).event();
        assertThat(e.status()).isEqualTo(ReadStatus.ABSENT);
        assertThat(e.reason()).startsWith("dangling_symlink");
    }

    @Test
    void read_symlinkToDirectory_isAbsentNotRegular() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("squad.agent.md"), Files.createDirectory(dir.resolve("sub")));
        assertThat(read(link).event().reason()).startsWith("not_regular_file");
    }

    @Test
    void read_agentFileIsFifo_isAbsentWithoutBlocking() throws Exception {
        Path fifo = dev.agentwarden.testing.Fifo.make(dir.resolve("squad.agent.md"));
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> assertThat(read(fifo).event().reason()).startsWith("not_regular_file"));
    }

    @Test
    void read_agentFileLinkedToDevZero_isAbsentWithoutSpinning() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("squad.agent.md"), Path.of("/dev/zero"));
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> assertThat(read(link).event().reason()).startsWith("not_regular_file"));
    }

    @Test
    void read_overLimit_isTruncatedWithProof() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        IntegrityEvent.PayloadReadStatus e = new SourceReader(1000).read(f, SQUAD).event();
        assertThat(e.status()).isEqualTo(ReadStatus.TRUNCATED);
        assertThat(e.bytesRead()).isEqualTo(1000);
        assertThat(e.expectedBytes()).isEqualTo(WHOLE.length);
        assertThat(e.reason()).startsWith("source_over_limit");
        assertThat(e.countsProveTruncation()).isTrue();
    }

    @Test
    void read_exactlyAtLimit_isLoaded() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        assertThat(new SourceReader(WHOLE.length).read(f, SQUAD).event().status()).isEqualTo(ReadStatus.LOADED);
    }

    @Test
    void read_fileGrowingWhileRead_isUnstable() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        SourceReader reader = new SourceReader(SourceReader.DEFAULT_MAX_BYTES, 512, once(() ->
                Files.write(f, "appended\n".getBytes(), StandardOpenOption.APPEND)));
        IntegrityEvent.PayloadReadStatus e = reader.read(f, SQUAD).event();
        assertThat(e.status()).isEqualTo(ReadStatus.LOADED);
        assertThat(e.sourceStable()).isFalse();
        assertThat(e.reason()).startsWith("source_changed_during_read");
        Evaluation ev = Ev.evaluate(ReleaseSource.NONE, Ev.selected(SQUAD), e, Ev.notAttached());
        assertThat(ev.transportValue()).isNotEqualTo(TransportIntegrity.INTACT);
    }

    @Test
    void read_fileShrinkingWhileRead_isTruncated() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        SourceReader reader = new SourceReader(SourceReader.DEFAULT_MAX_BYTES, 512, once(() -> {
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                raf.setLength(1000);
            }
        }));
        IntegrityEvent.PayloadReadStatus e = reader.read(f, SQUAD).event();
        assertThat(e.status()).isEqualTo(ReadStatus.TRUNCATED);
        assertThat(e.bytesRead()).isEqualTo(1000);
        assertThat(e.expectedBytes()).isEqualTo(WHOLE.length);
        assertThat(e.sourceStable()).isFalse();
    }

    @Test
    void read_sameSizeRewriteWhileRead_isUnstableAndNeverIntact() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        byte[] rewritten = Arrays.copyOf(WHOLE, WHOLE.length);
        rewritten[WHOLE.length / 2] = (byte) (rewritten[WHOLE.length / 2] == 'x' ? 'y' : 'x');
        SourceReader reader = new SourceReader(SourceReader.DEFAULT_MAX_BYTES, 512, once(() -> {
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                raf.seek(0);
                raf.write(rewritten);
            }
        }));
        SourceReader.SourceRead r = reader.read(f, SQUAD);
        IntegrityEvent.PayloadReadStatus e = r.event();
        assertThat(e.bytesRead()).isEqualTo(WHOLE.length);
        assertThat(e.sourceStable()).isFalse();
        Evaluation ev = Ev.evaluate(ReleaseSource.NONE, Ev.selected(SQUAD), e,
                Ev.attached(AttachStatus.ATTACHED_FULL, r.bytes(), SQUAD));
        assertThat(ev.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void read_fileReplacedWhileRead_isUnstable() throws IOException {
        Path f = Files.write(dir.resolve("a.md"), WHOLE);
        Path other = Files.write(dir.resolve("b.md"), WHOLE);
        SourceReader reader = new SourceReader(SourceReader.DEFAULT_MAX_BYTES, 512, once(() ->
                Files.move(other, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE)));
        IntegrityEvent.PayloadReadStatus e = reader.read(f, SQUAD).event();
        assertThat(e.sourceStable()).isFalse();
        assertThat(e.reason()).contains("replaced");
    }

    @Test
    void stampedVersion_readsSquadsStampOnly() {
        assertThat(SourceReader.stampedVersion(Ev.utf8("x\n<!-- version: 0.13.2-preview.1 -->\n"))).isEqualTo("0.13.2-preview.1");
        assertThat(SourceReader.stampedVersion(Ev.utf8("<!-- version: evil; rm -rf -->\n<!-- version: 1.2 -->"))).isEqualTo("1.2");
        assertThat(SourceReader.stampedVersion(Ev.utf8("<!-- version: 1.2"))).isNull();
        assertThat(SourceReader.stampedVersion(Ev.utf8("no stamp"))).isNull();
    }

    private interface Io {
        void run() throws IOException;
    }

    private static SourceReader.ReadObserver once(Io action) {
        boolean[] done = {false};
        return soFar -> {
            if (!done[0]) {
                done[0] = true;
                action.run();
            }
        };
    }
}
