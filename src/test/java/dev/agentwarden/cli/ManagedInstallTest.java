package dev.agentwarden.cli;

import dev.agentwarden.testing.WardenProcess;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher a managed hook names must be root's alone (issue 26 item 3). */
class ManagedInstallTest {

    @Test
    void launcherInAWorldWritableDirectory_isRefused(@TempDir Path dir) throws Exception {
        Path home = home(dir);
        Files.setPosixFilePermissions(home.resolve("bin"), PosixFilePermissions.fromString("rwxrwxrwx"));

        String problem = ManagedInstall.launcherProblem(WardenHome.at(home));

        assertThat(problem).contains(home.resolve("bin").toString()).contains("writable by group or others");
    }

    @Test
    void groupWritableLauncher_isRefused(@TempDir Path dir) throws Exception {
        Path home = home(dir);
        Files.setPosixFilePermissions(home.resolve("bin/warden"), PosixFilePermissions.fromString("rwxrwxr-x"));

        assertThat(ManagedInstall.launcherProblem(WardenHome.at(home)))
                .contains(home.resolve("bin/warden") + " is writable by group or others");
    }

    @Test
    void launcherOwnedByAUser_isRefused(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "changing a file's owner needs root");
        Path home = home(dir);
        Process p = new ProcessBuilder("chown", "1000", home.resolve("bin/warden").toString()).start();
        assertThat(p.waitFor()).isZero();

        assertThat(ManagedInstall.launcherProblem(WardenHome.at(home))).contains("is owned by uid 1000, not root");
    }

    /** A checkout-shaped home whose files are 755/644 (the temp directory above may still fail the check). */
    private static Path home(Path dir) throws Exception {
        Path home = Files.createDirectories(dir.resolve("warden"));
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("target"));
        WardenProcess.writeScript(home.resolve("bin/warden"), "#!/bin/sh\n");
        Files.writeString(home.resolve("target/warden.jar"), "");
        return home;
    }
}
