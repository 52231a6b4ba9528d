package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.testing.Fifo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 13: {@code integrity check --attached} on a FIFO or a device neither hangs nor spins. */
class AttachedFileReadTest {
    @TempDir
    Path tmp;

    @Test
    void readBounded_attachedFifo_isRefusedWithoutBlocking() throws Exception {
        Path fifo = Fifo.make(tmp.resolve("attached.md"));

        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> IntegrityCommand.readBounded(fifo, 1024))
                .isInstanceOf(IntegrityException.class).hasMessageContaining("attached_unreadable")
                .hasMessageContaining("state_not_regular"));
    }

    @Test
    void readBounded_attachedLinkToDevUrandom_isRefused() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("attached.md"), Path.of("/dev/urandom"));

        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(() -> IntegrityCommand.readBounded(link, 1024))
                .isInstanceOf(IntegrityException.class).hasMessageContaining("attached_unreadable"));
    }

    @Test
    void readBounded_attachedLinkToRegularFile_isRead() throws Exception {
        Path target = Files.writeString(tmp.resolve("real.md"), "payload");
        Path link = Files.createSymbolicLink(tmp.resolve("attached.md"), target);

        assertThat(IntegrityCommand.readBounded(link, 1024)).isEqualTo("payload".getBytes());
    }
}
