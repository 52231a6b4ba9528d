package dev.agentwarden.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.server.LauncherFacts;
import dev.agentwarden.server.Resident;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A resident server ({@code warden resident start}) of the packaged jar, started by a test where
 * {@code bin/warden} looks for it: {@code <cache>/resident}, keyed by the jar's hash.
 */
public final class ResidentProcess implements AutoCloseable {
    private final Process process;
    private final Path dir;
    private final String key;

    private ResidentProcess(Process process, Path dir, String key) {
        this.process = process;
        this.dir = dir;
        this.key = key;
    }

    /** The resident directory {@code bin/warden} uses for a Warden cache dir. */
    public static Path dirFor(Path cacheDir) {
        return cacheDir.resolve("resident");
    }

    /** The key {@code bin/warden} gives the packaged jar: the first 16 hex digits of its SHA-256. */
    public static String jarKey() throws IOException {
        return Sha256.hex(Files.readAllBytes(WardenProcess.home().resolve("target/warden.jar"))).substring(0, 16);
    }

    /** Starts one for {@code cacheDir} and waits until its endpoint is published. */
    public static ResidentProcess start(Path cacheDir, long idleSeconds) throws IOException, InterruptedException {
        return start(cacheDir, idleSeconds, Map.of());
    }

    /** {@link #start(Path, long)} with {@code extraEnv} added to the resident's own environment. */
    public static ResidentProcess start(Path cacheDir, long idleSeconds, Map<String, String> extraEnv)
            throws IOException, InterruptedException {
        Path dir = dirFor(cacheDir);
        String key = jarKey();
        Process p = launch(dir, key, idleSeconds, extraEnv);
        ResidentProcess resident = new ResidentProcess(p, dir, key);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WardenProcess.TIMEOUT_SECONDS);
        while (resident.endpoint() == null || resident.endpoint().pid() != p.pid()) {
            if (!p.isAlive()) {
                throw new AssertionError("resident exited with " + p.exitValue() + ": "
                        + Files.readString(dir.resolve("test-resident.log"), StandardCharsets.UTF_8));
            }
            if (System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new AssertionError("resident published no endpoint in " + dir);
            }
            Thread.sleep(50);
        }
        return resident;
    }

    /** {@code warden resident start} for {@code dir} and {@code key}, output to {@code dir/test-resident.log}. */
    public static Process launch(Path dir, String key, long idleSeconds) throws IOException {
        return launch(dir, key, idleSeconds, Map.of());
    }

    /** {@link #launch(Path, String, long)} with {@code extraEnv} added to the inherited environment. */
    public static Process launch(Path dir, String key, long idleSeconds, Map<String, String> extraEnv) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>();
        command.add(WardenProcess.java().toString());
        command.addAll(LauncherFacts.RESIDENT_FLAGS);
        command.addAll(List.of("-jar", WardenProcess.jar().toString(), "resident", "start", "--dir", dir.toString(),
                "--key", key, "--idle-exit", Long.toString(idleSeconds)));
        Path log = dir.resolve("test-resident.log");
        // As bin/warden starts it: UTF-8 whatever the test's locale.
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("LC_ALL", "C.UTF-8");
        pb.environment().putAll(extraEnv);
        return pb.start();
    }

    public Resident.Endpoint endpoint() {
        return Resident.read(endpointFile());
    }

    public Path endpointFile() {
        return Resident.endpointFile(dir, key);
    }

    public Process process() {
        return process;
    }

    /** Stops it (SIGTERM, as {@code warden resident stop} does) and waits for it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /**
     * A {@code java} that must not be started: it records its arguments in {@code calls} and exits
     * 97. {@code WARDEN_JAVA} set to it proves an event was answered without a JVM.
     */
    public static Path forbiddenJava(Path dir, Path calls) throws IOException {
        Path script = dir.resolve("forbidden-java");
        return WardenProcess.writeScript(script, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\nexit 97\n", "rwx------");
    }

    /** The environment that makes {@code bin/warden} use the resident and never start a JVM. */
    public static Map<String, String> noJvm(Path forbiddenJava) {
        launcherFactsFresh();
        return Map.of("WARDEN_JAVA", forbiddenJava.toString(), "WARDEN_NO_ARCHIVE", "1", "WARDEN_RESIDENT", "auto");
    }

    /**
     * Has {@code bin/warden} write {@code launcher-facts.sh} for the current jar with a real java:
     * a launcher whose jar is newer than its facts asks java for them first, which a forbidden java
     * would count as a JVM started (and fail) whichever test happens to run first after a rebuild.
     */
    private static synchronized void launcherFactsFresh() {
        Path facts = WardenProcess.home().resolve("target/launcher-facts.sh");
        try {
            if (Files.isRegularFile(facts)
                    && Files.getLastModifiedTime(facts).compareTo(Files.getLastModifiedTime(WardenProcess.jar())) >= 0) {
                return;
            }
            WardenProcess.runLauncher(List.of("--version"), Map.of(), new byte[0], WardenProcess.home());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("could not refresh " + facts + ": " + e, e);
        }
    }

    /**
     * Stops every resident started for {@code cacheDir} (a test's own cache: never another test's), by a launcher or
     * by the test, without a JVM of its own: each process running {@code resident start --dir <cacheDir>/resident},
     * published or still starting. A launcher writes its start marker ({@code <key>.starting}) just before it forks
     * one: while a marker younger than {@link #FORK_GRACE} is there and no such process yet, it waits for one. A
     * resident left running would write into a folder JUnit deletes.
     */
    public static void stopStartedIn(Path cacheDir) throws IOException, InterruptedException {
        Path dir = dirFor(cacheDir);
        if (!Files.isDirectory(dir)) {
            return;
        }
        long deadline = System.nanoTime() + FORK_GRACE.toNanos();
        while (youngMarker(dir) && residentsIn(dir).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        for (ProcessHandle p : residentsIn(dir)) {
            p.destroy();
            p.onExit().orTimeout(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }

    /** How long after writing its start marker a launcher's fork may take to become a resident process. */
    static final java.time.Duration FORK_GRACE = java.time.Duration.ofSeconds(5);

    private static boolean youngMarker(Path dir) throws IOException {
        long now = System.currentTimeMillis();
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".starting")).toList()) {
                try {
                    if (now - Files.getLastModifiedTime(f).toMillis() < FORK_GRACE.toMillis()) {
                        return true;
                    }
                } catch (IOException gone) {
                    // the resident removed it: published
                }
            }
        }
        return false;
    }

    /** The live processes running {@code resident start --dir dir}. */
    private static List<ProcessHandle> residentsIn(Path dir) {
        List<ProcessHandle> residents = new ArrayList<>();
        for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
            List<String> args = List.of(p.info().arguments().orElse(new String[0]));
            int at = args.indexOf("--dir");
            if (at >= 2 && at + 1 < args.size() && args.get(at - 2).equals("resident") && args.get(at - 1).equals("start")
                    && args.get(at + 1).equals(dir.toString())) {
                residents.add(p);
            }
        }
        return residents;
    }

    public static void assertNoJvmStarted(Path calls) throws IOException {
        assertThat(Files.exists(calls) ? Files.readString(calls, StandardCharsets.UTF_8) : "")
                .as("java invocations by bin/warden (must be none: the resident answers)").isEmpty();
    }
}
