package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.io.UnsafeFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 13 for the halted-session markers the integrity-attach concern writes. */
class HaltedSessionsStateSafetyTest {
    @TempDir
    Path tmp;

    @Test
    void haltedRecord_markerSymlinkedOutOfProject_isRefusedAndTargetUnchanged() throws Exception {
        Path stateHome = tmp.resolve("project/.warden");
        HaltedSessions halted = new HaltedSessions(stateHome);
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "keep");
        Files.createDirectories(halted.marker("s1").getParent());
        Files.createSymbolicLink(halted.marker("s1"), victim);

        assertThatThrownBy(() -> halted.record("s1", "halted")).isInstanceOf(UnsafeFileException.class);
        assertThat(Files.readString(victim)).isEqualTo("keep");
    }

    @Test
    void haltedRecord_stateDirectorySymlinkedOutOfProject_isRefused() throws Exception {
        Path stateHome = Files.createDirectories(tmp.resolve("project/.warden"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(stateHome.resolve("state"), elsewhere);

        assertThatThrownBy(() -> new HaltedSessions(stateHome).record("s1", "halted")).isInstanceOf(UnsafeFileException.class);
        try (var list = Files.list(elsewhere)) {
            assertThat(list).isEmpty();
        }
    }
}
