package dev.agentwarden.managed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The mount-namespace technique of {@link ManagedLayerIT}: {@code unshare -m} as root, {@code unshare -Urm}
 * otherwise (where the user's files appear as root's), with an overlay on {@code /etc} whose upper
 * directory is a test's {@code <tmp>/upper} (so {@code <tmp>/upper/agent-warden} is {@code /etc/agent-warden}
 * inside) and {@code HOME} the test's {@code <tmp>/home}. The machine's own {@code /etc} is never written.
 */
final class ManagedLayerITSupport {
    private ManagedLayerITSupport() {
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    static List<String> unshare() {
        return isRoot() ? List.of("unshare", "-m") : List.of("unshare", "-Urm");
    }

    /** Whether {@link #unshare} with an overlay on /etc works here: probed once per test JVM. */
    static synchronized boolean namespacesWork() {
        if (namespacesWork == null) {
            namespacesWork = probeNamespaces();
        }
        return namespacesWork;
    }

    private static Boolean namespacesWork;

    private static boolean probeNamespaces() {
        try {
            Path d = Files.createTempDirectory("ns-probe");
            Files.createDirectories(d.resolve("up"));
            Files.createDirectories(d.resolve("work"));
            List<String> cmd = new ArrayList<>(unshare());
            cmd.addAll(List.of("bash", "-c", "mount -t overlay overlay -o lowerdir=/etc,upperdir=" + d.resolve("up")
                    + ",workdir=" + d.resolve("work") + " /etc"));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            boolean ok = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
            new ProcessBuilder("rm", "-rf", d.toString()).start().waitFor(20, TimeUnit.SECONDS);
            return ok;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * {@code warden ARGS} in a mount namespace whose /etc has {@code tmp}'s upper directory over it;
     * stdout, then a {@code --- stderr} line, then stderr.
     *
     * @param env variables set for warden beyond {@code HOME}, the cache and the state directory (none of
     *            the caller's {@code WARDEN_*} or {@code CLAUDE*} pass)
     */
    static String inNamespace(Path tmp, Map<String, String> env, List<String> args, Path stdin) throws Exception {
        Files.createDirectories(tmp.resolve("work"));
        StringBuilder java = new StringBuilder("exec " + javaCommand(args));
        for (String a : args) {
            java.append(" '").append(a).append('\'');
        }
        String script = "set -e; mount -t overlay overlay -o lowerdir=/etc,upperdir='" + tmp.resolve("upper")
                + "',workdir='" + tmp.resolve("work") + "' /etc; " + java;
        List<String> cmd = new ArrayList<>(unshare());
        cmd.addAll(List.of("bash", "-c", script));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().keySet().removeIf(k -> k.startsWith("WARDEN_") || k.startsWith("CLAUDE"));
        pb.environment().put("HOME", tmp.resolve("home").toString());
        pb.environment().put("WARDEN_CACHE_DIR", tmp.resolve("home/cache").toString());
        pb.environment().put("XDG_STATE_HOME", tmp.resolve("home/state").toString());
        pb.environment().putAll(env);
        if (stdin != null) {
            pb.redirectInput(stdin.toFile());
        }
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + args);
        }
        return Files.readString(out, StandardCharsets.UTF_8) + "\n--- stderr\n" + Files.readString(err, StandardCharsets.UTF_8);
    }

    /**
     * {@code 'java' FLAGS -jar 'warden.jar'} as shell words, for {@code warden args…}: the JVM flags
     * {@code bin/warden} starts that command with ({@link WardenProcess#flagsFor}).
     */
    static String javaCommand(List<String> args) {
        StringBuilder java = new StringBuilder("'" + WardenProcess.java() + "'");
        for (String flag : WardenProcess.flagsFor(args)) {
            java.append(" '").append(flag).append('\'');
        }
        return java.append(" -jar '").append(WardenProcess.jar()).append('\'').toString();
    }

    /** Runs {@code cmd}, which must exit 0 within 20 s. */
    static void run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd)).isZero();
    }
}
