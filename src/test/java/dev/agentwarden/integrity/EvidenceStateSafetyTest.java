package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.testing.Fifo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 items 9 and 13 for the integrity state: evidence log and halted-session markers. */
class EvidenceStateSafetyTest {
    @TempDir
    Path tmp;

    @Test
    void evidenceRead_logIsFifo_isRefusedWithoutBlocking() throws Exception {
        Path log = Fifo.make(tmp.resolve("project/.warden/" + EvidenceLog.RELATIVE));

        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> EvidenceLog.read(log))
                .isInstanceOf(IntegrityException.class).hasMessageContaining("evidence_unreadable"));
    }

    @Test
    void evidenceRead_logLinkedToDevZero_isRefusedWithoutSpinning() throws Exception {
        Path log = tmp.resolve("project/.warden/" + EvidenceLog.RELATIVE);
        Files.createDirectories(log.getParent());
        Files.createSymbolicLink(log, Path.of("/dev/zero"));

        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> EvidenceLog.read(log))
                .isInstanceOf(IntegrityException.class));
    }
}
