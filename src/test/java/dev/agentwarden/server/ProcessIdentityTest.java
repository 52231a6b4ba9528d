package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A process's identity from /proc: start time (field 22 of stat), owner and command line. */
class ProcessIdentityTest {
    @Test
    void startTicks_commandNameWithSpacesAndParentheses_field22() {
        String stat = "4242 (evil) 1 2 3) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615";
        assertThat(ProcessIdentity.startTicks(stat)).isEqualTo(987654L);
    }

    @Test
    void startTicks_truncated_unknown() {
        assertThat(ProcessIdentity.startTicks("1 (x) S 1 2")).isEqualTo(-1);
    }

    @Test
    void thisProcess_hasAStartTime_isOwnedByMe_andItsCommandLine() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs /proc");
        long pid = ProcessHandle.current().pid();
        assertThat(ProcessIdentity.startTicks(pid)).isPositive();
        assertThat(ProcessIdentity.ownedByMe(pid)).isTrue();
        assertThat(ProcessIdentity.cmdline(pid)).isNotEmpty();
    }
}
