package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code install --scope managed} and its uninstall refuse a user who is not root, clearly and before touching anything. */
class ManagedInstallIT {

    @Test
    void installAndUninstall_asAnOrdinaryUser_sayRootIsNeeded_andExitNonZero(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "dropping to another uid needs root");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv is not installed");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (String command : List.of("install", "uninstall")) {
            ProcessBuilder pb = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    WardenProcess.java().toString(), "-jar", WardenProcess.jar().toString(), command, "--scope", "managed",
                    "--host", "claude").directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("WARDEN_"));
            pb.environment().put("HOME", dir.toString());
            Process p = pb.start();
            p.getOutputStream().close();
            assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(p.exitValue()).as(command + ": " + out).isNotZero();
            assertThat(out).contains("--scope managed edits /etc/claude-code/managed-settings.json")
                    .contains("only root may write; run it as root").doesNotContain("Exception");
        }
    }

    @Test
    void managedOnly_withoutScopeManaged_isAClearError(@TempDir Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(WardenProcess.java().toString(), "-jar", WardenProcess.jar().toString(),
                "install", "--host", "claude", "--managed-only", "--project-dir", dir.toString())
                .directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).isNotZero();
        assertThat(out).contains("--managed-only goes with --scope managed");
        assertThat(dir.resolve(".claude/settings.json")).doesNotExist();
    }
}
