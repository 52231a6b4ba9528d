package dev.agentwarden.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start, taken from the README itself (between its {@code quickstart:begin} and
 * {@code quickstart:end} markers) and run as one {@code bash -euo pipefail} script in a scratch git
 * repository (started in a subdirectory of it) under a scratch 0700 home, with this checkout's {@code bin/} first on PATH: every
 * command must succeed, so the README cannot promise what Warden does not do.
 */
public class ReadmeQuickStartIT {
    @TempDir
    Path tmp;

    /** The quick start's shell block, without its fence. */
    static String quickStart(Path readme) throws IOException {
        String text = Files.readString(readme);
        int begin = text.indexOf("<!-- quickstart:begin -->");
        int end = text.indexOf("<!-- quickstart:end -->");
        assertThat(begin).as("README has a quickstart:begin marker").isNotNegative();
        assertThat(end).as("README has a quickstart:end marker after it").isGreaterThan(begin);
        String block = text.substring(begin, end);
        int open = block.indexOf("```bash\n");
        int close = block.lastIndexOf("\n```");
        assertThat(open).as("the quick start is one ```bash block").isNotNegative();
        assertThat(close).isGreaterThan(open);
        return block.substring(open + "```bash\n".length(), close + 1);
    }

    /** Runs the quick start with {@code wardenBin} first on PATH ({@code extraEnv} may replace PATH whole); returns the script's output. */
    public static String runQuickStart(Path tmp, Path readme, Path wardenBin, Map<String, String> extraEnv) throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path script = tmp.resolve("quickstart.sh");
        Files.writeString(script, "set -euo pipefail\n" + quickStart(readme));
        run(project, home, List.of("git", "init", "-q"), Map.of(), wardenBin);
        // from a subdirectory, as a newcomer may well start: nothing may land below the root
        Path deep = Files.createDirectories(project.resolve("src/deep"));
        String output = run(deep, home, List.of("bash", script.toString()), extraEnv, wardenBin);
        try (var below = Files.list(deep)) {
            assertThat(below.toList()).as("files the quick start left in a subdirectory").isEmpty();
        }
        return output;
    }

    private static String run(Path dir, Path home, List<String> command, Map<String, String> extraEnv, Path wardenBin)
            throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("WARDEN_") || k.startsWith("CLAUDE") || k.startsWith("XDG_"));
        env.put("HOME", home.toString());
        env.put("PATH", wardenBin + ":" + System.getenv("PATH"));
        env.put("WARDEN_RESIDENT", "off");
        env.putAll(extraEnv);
        Path out = Files.createTempFile(dir.getParent(), "out", ".txt");
        pb.redirectOutput(out.toFile());
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command + "\n" + Files.readString(out));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(command + " exited non-zero:\n" + output).isZero();
        return output;
    }

    @Test
    void quickStart_everyCommandSucceeds_fromTheCheckout() throws Exception {
        Path home = WardenProcess.home();

        String output = runQuickStart(tmp, home.resolve("README.md"), home.resolve("bin"), Map.of());

        assertThat(output).contains("force push refused").contains("plain push allowed");
        assertThat(tmp.resolve("project/.claude/settings.json")).exists();
        assertThat(Files.readString(tmp.resolve("project/.warden/manifest.yaml"))).contains("no-force-push");
    }
}
