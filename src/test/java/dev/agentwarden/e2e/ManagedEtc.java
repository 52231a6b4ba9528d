package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * The scaffolding of the real-host {@code install --scope managed} suites (issue 26 item 3): an overlay on {@code /etc}
 * seen only inside mount namespaces (the machine's own {@code /etc} is never written) that holds the managed Warden
 * policy ({@code /etc/agent-warden/manifest.yaml}) and a copy of this checkout's launcher at {@link #LAUNCHER}, which
 * only root can change (install refuses any other); {@code warden install --scope managed} run as root inside it; and
 * the command prefix that starts a host session inside it.
 */
final class ManagedEtc {
    /** The launcher the managed hook runs, as a namespace over the overlay sees it. */
    static final String LAUNCHER = "/etc/warden/bin/warden";

    /** The upper and work directories of the overlay on {@code /etc}. */
    record Overlay(Path upper, Path work) {
        String mount() {
            return "mount -t overlay overlay -o lowerdir=/etc,upperdir=" + upper + ",workdir=" + work + " /etc";
        }

        /** A command prefix that enters a mount namespace of its own with this overlay on {@code /etc}. */
        List<String> inside() {
            return List.of("unshare", "-m", "sh", "-c", "set -e; " + mount() + "; exec \"$@\"", "_");
        }

        /** The file at {@code /etc/<relative>} as the namespace sees it, when the namespace wrote it. */
        Path written(String relative) {
            return upper.resolve(relative);
        }
    }

    /** The trained archive folder and the jar time it was trained for, once per JVM; guarded by the class. */
    private static Path trained;
    private static FileTime trainedJarTime;

    private ManagedEtc() {
    }

    /**
     * A managed policy that denies {@code rm -rf} on {@code platform}'s {@code tool} with {@code reason}, as
     * {@code /etc/agent-warden/manifest.yaml}.
     */
    static String denyRmRf(String platform, String tool, String reason) {
        return deny(platform, tool, "rm\\s+-rf", reason);
    }

    /** A managed policy that denies shell commands matching {@code pattern} (a YAML single-quoted regex) on {@code platform}. */
    static String deny(String platform, String tool, String pattern, String reason) {
        return """
                schema_version: 1
                concerns:
                  managed-deny:
                    script: builtin:deny-pattern
                    posture: blocking
                    tools: [%s]
                    patterns:
                      - match: '%s'
                        reason: "%s"
                platforms:
                  %s:
                    pre_tool_use: [managed-deny]
                """.formatted(tool, pattern, reason, platform);
    }

    /** A fresh overlay under {@code dir} holding {@code manifest} as the managed policy; the test is skipped unless root can mount it. */
    static Overlay overlay(Path dir, String manifest) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "install --scope managed runs as root");
        Path upper = Files.createDirectories(dir.resolve("etc-upper"));
        Path work = Files.createDirectories(dir.resolve("etc-work"));
        Files.setPosixFilePermissions(upper, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path policy = Files.createDirectories(upper.resolve("agent-warden"));
        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(policy.resolve("manifest.yaml"), manifest);
        Files.setPosixFilePermissions(policy.resolve("manifest.yaml"), PosixFilePermissions.fromString("rw-r--r--"));
        // The managed hook must run a launcher only root can change, wherever this checkout lies (a clone
        // under /tmp would be refused): a copy of it in the overlay, /etc/warden inside the namespace.
        Path home = WardenProcess.copyLauncherHome(upper);
        for (Path d : List.of(home, home.resolve("bin"), home.resolve("target"))) {
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Overlay etc = new Overlay(upper, work);
        Command.Result probe = Command.run(List.of("unshare", "-m", "sh", "-c", etc.mount()), dir, null, Duration.ofSeconds(20));
        Assumptions.assumeTrue(probe.ok(), "mount namespaces with overlayfs are not available here: " + probe.tail());
        provideArchive(etc, home.resolve("target"), dir);
        return etc;
    }

    /**
     * Gives the launcher copy a fresh class-data archive. Without one, its first command inside the namespace trains
     * one in the background, detached: a training still writing into the overlay (and keeping its namespace alive)
     * when the test ends made JUnit's clean-up of the test's folder fail. The archive is trained once per JVM, in the
     * foreground, and copied with its times; each copy of the jar gets the trained jar's time (the launcher's and the
     * JVM's freshness checks compare it).
     */
    private static synchronized void provideArchive(Overlay etc, Path target, Path dir) throws IOException {
        Path jar = target.resolve("warden.jar");
        if (trained == null) {
            Command.Result r = Command.run(List.of("unshare", "-m", "sh", "-c", "set -e; " + etc.mount() + "; exec "
                    + LAUNCHER + " train-archive"), dir, null, Duration.ofMinutes(3));
            assertThat(r.ok()).as("train-archive for the launcher copy: " + r.tail()).isTrue();
            Path keep = Files.createTempDirectory(WardenProcess.jar().getParent(), "managed-etc-cds");
            copyTree(target.resolve("cds"), keep);
            trained = keep;
            trainedJarTime = Files.getLastModifiedTime(jar);
            return;
        }
        copyTree(trained, Files.createDirectories(target.resolve("cds")));
        Files.setLastModifiedTime(jar, trainedJarTime);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(from)) {
            for (Path f : files) {
                if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES,
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** {@code warden install --scope managed --host <host> [extra]} inside the overlay; asserts it succeeded. */
    static Command.Result install(Overlay etc, E2eProject project, Map<String, String> baseEnv, String host, List<String> extra)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(LAUNCHER, "install", "--scope", "managed", "--host", host));
        cmd.addAll(extra);
        Command.Result r = inNamespace(etc, project, baseEnv, cmd);
        assertThat(r.exitCode()).as("warden install --scope managed: " + r.stdout() + r.stderr()).isZero();
        return r;
    }

    /** {@code command} inside the overlay, in the project, with {@code baseEnv} and the project's home. */
    static Command.Result inNamespace(Overlay etc, E2eProject project, Map<String, String> baseEnv, List<String> command)
            throws IOException {
        List<String> cmd = new ArrayList<>(etc.inside());
        cmd.addAll(command);
        Map<String, String> env = new LinkedHashMap<>(baseEnv);
        env.put("HOME", project.home().toString());
        return Command.run(cmd, project.root(), env, Duration.ofMinutes(2));
    }

    /** Whether any request the host sent the scripted model carries {@code text} (the deny reason reaching the model). */
    static boolean modelWasTold(ScriptedModelServer server, String text) {
        for (ScriptedModelServer.Exchange e : server.exchanges()) {
            if (dev.agentwarden.json.Json.write(e.body()).contains(text)) {
                return true;
            }
        }
        return false;
    }
}
