package dev.agentwarden.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A launcher's umask, nice value and limits, and the prefix that gives them to a concern the resident starts. */
class ProcessAttributesTest {
    private static final String HEADER = "Limit                     Soft Limit           Hard Limit           Units     ";

    private static String row(String label, String soft, String hard, String units) {
        return String.format("%-25s %-20s %-20s %-10s", label, soft, hard, units);
    }

    private static ProcessAttributes of(String umask, String nice, String stackSoft, String stackHard, String filesSoft,
                                        String filesHard) {
        return ProcessAttributes.parse(umask, nice, List.of(HEADER, row("Max stack size", stackSoft, stackHard, "bytes"),
                row("Max open files", filesSoft, filesHard, "files"), row("Max realtime timeout", "unlimited", "unlimited", "us")));
    }

    @Test
    void prefixOver_sameAttributes_none() {
        ProcessAttributes a = of("0022", "0", "8388608", "unlimited", "4096", "4096");
        assertThat(a.prefixOver(a)).isEmpty();
    }

    @Test
    void prefixOver_otherUmaskHigherNiceLowerStack_allThree() {
        ProcessAttributes launcher = of("0077", "5", "4194304", "unlimited", "4096", "4096");
        ProcessAttributes resident = of("0022", "2", "8388608", "unlimited", "4096", "4096");
        assertThat(launcher.prefixOver(resident)).containsExactly("/usr/bin/prlimit", "--stack=4194304:", "--",
                "/usr/bin/nice", "-n", "3", "/bin/sh", "-c", "umask 0077 && exec \"$0\" \"$@\"");
    }

    @Test
    void prefixOver_softAboveTheResidentsHard_cappedAtIt_lowerNiceLeft() {
        ProcessAttributes launcher = of("0022", "0", "unlimited", "unlimited", "4096", "4096");
        ProcessAttributes resident = of("0022", "10", "8388608", "16777216", "4096", "4096");
        assertThat(launcher.prefixOver(resident)).containsExactly("/usr/bin/prlimit", "--stack=16777216:", "--");
    }

    @Test
    void prefixOver_openFiles_isTheLaunchersHardLimit_asAJvmRaisesItsSoftOne() {
        ProcessAttributes launcher = of("0022", "0", "8388608", "unlimited", "256", "2048");
        ProcessAttributes resident = of("0022", "0", "8388608", "unlimited", "4096", "4096");
        assertThat(launcher.prefixOver(resident)).containsExactly("/usr/bin/prlimit", "--nofile=2048:", "--");
    }

    @Test
    void parse_nothingSent_unknown_noPrefix() {
        ProcessAttributes unknown = ProcessAttributes.parse(null, null, List.of());
        assertThat(unknown.prefixOver(ProcessAttributes.self())).isEmpty();
    }
}
