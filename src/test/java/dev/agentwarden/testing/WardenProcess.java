package dev.agentwarden.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.server.LauncherFacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the packaged jar ({@code -Dwarden.jar}, set by failsafe) as a process the way
 * {@code bin/warden} starts it, with exactly the given environment plus {@code PATH} and a
 * non-UTF-8 locale ({@code LANG=C}), as a host may run hooks.
 */
public final class WardenProcess {
    /**
     * The JVM flags {@code bin/warden} passes a one-event JVM ({@link LauncherFacts#JVM_FLAGS}), without
     * the class-data archive (which only costs speed) and the crash-log location.
     */
    public static final List<String> FLAGS = LauncherFacts.JVM_FLAGS;
    /** The commands {@code bin/warden} runs from the dispatch archive, not the commands' archive. */
    private static final List<String> DISPATCH_ARCHIVE_COMMANDS = List.of("dispatch", "train-archive", "__train");
    /** JVM options by which a test picks a run's class-data archive itself (or none, or records one). */
    private static final List<String> ARCHIVE_OPTIONS = List.of("-Xshare:", "-XX:SharedArchiveFile=",
            "-XX:ArchiveClassesAtExit=", "-XX:DumpLoadedClassList=", "-XX:SharedClassListFile=", "-XX:AOT");

    /** Long enough for a loaded CI machine; only proves nothing hangs. */
    public static final long TIMEOUT_SECONDS = 60;

    private WardenProcess() {
    }

    public static Path jar() {
        String jar = System.getProperty("warden.jar");
        assertThat(jar).as("system property warden.jar (set by failsafe)").isNotNull();
        assertThat(Path.of(jar)).exists();
        return Path.of(jar);
    }

    public static Path home() {
        String home = System.getProperty("warden.home");
        assertThat(home).as("system property warden.home (set by failsafe)").isNotNull();
        return Path.of(home);
    }

    public static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * A copy of the launcher home in {@code dir/warden} ({@code bin/warden} and
     * {@code target/warden.jar}), for a test that changes what the launcher finds around it.
     */
    public static Path copyLauncherHome(Path dir) throws IOException {
        Path copy = dir.resolve("warden");
        Files.createDirectories(copy.resolve("bin"));
        Files.createDirectories(copy.resolve("target"));
        copyExecutable(home().resolve("bin/warden"), copy.resolve("bin/warden"));
        Files.copy(jar(), copy.resolve("target/warden.jar"));
        return copy;
    }

    /** {@code script} written to {@code file}, executable by everyone: a stand-in program such as {@code java}. */
    public static Path writeScript(Path file, String script) throws IOException {
        return writeScript(file, script, "rwxr-xr-x");
    }

    /** {@code script} written to {@code file} (through {@link #copyExecutable}) with the permissions {@code mode}. */
    public static Path writeScript(Path file, String script, String mode) throws IOException {
        return writeExecutable(file, script.getBytes(StandardCharsets.UTF_8), mode);
    }

    /** {@code content} written to {@code file} (through {@link #copyExecutable}) with the permissions {@code mode}. */
    public static Path writeExecutable(Path file, byte[] content, String mode) throws IOException {
        Path text = Files.write(file.resolveSibling(file.getFileName() + ".text"), content);
        try {
            copyExecutable(text, file);
        } finally {
            Files.delete(text);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    /**
     * {@code source} copied to {@code target} by a {@code cp} of its own, then
     * made executable by everyone. A program this JVM wrote itself could fail to start with
     * {@code ETXTBSY} ("Text file busy"): a child that another test thread forks at that moment
     * holds the write descriptor until it closes its descriptors; a file another process wrote has none here.
     * Both phases start processes from several threads (failsafe's process ITs, surefire's unit classes side
     * by side), so every program a test writes and then runs goes through here ({@code ProcessWideStateGuardTest}).
     */
    public static Path copyExecutable(Path source, Path target) throws IOException {
        Process cp = new ProcessBuilder("cp", source.toString(), target.toString()).redirectErrorStream(true).start();
        try {
            if (!cp.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || cp.exitValue() != 0) {
                cp.destroyForcibly();
                throw new IOException("cp " + source + " " + target + " failed: "
                        + new String(cp.getInputStream().readNBytes(4096), StandardCharsets.UTF_8));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted copying " + source, e);
        }
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        return target;
    }

    /**
     * Runs {@code bin/warden args…} (the launcher, as a host runs the installed hook) with stdin
     * from {@code stdin} bytes and exactly the given environment plus {@code PATH} and
     * {@code LANG=C}.
     */
    public static Result runLauncher(List<String> args, Map<String, String> env, byte[] stdin, Path workDir)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(home().toAbsolutePath().resolve("bin/warden").toString());
        command.addAll(args);
        return runCommand(command, env, stdin, workDir);
    }

    /** Runs {@code program args…} as {@link #runLauncher} runs the launcher (an installed hook that is not bin/warden). */
    public static Result runProgram(Path program, List<String> args, Map<String, String> env, byte[] stdin, Path workDir)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(program.toString());
        command.addAll(args);
        return runCommand(command, env, stdin, workDir);
    }

    /**
     * The JVM flags for {@code warden args…} as {@code bin/warden} picks them: {@link #FLAGS}, and for
     * every command but {@code dispatch} and the archive training, the commands' class-data archive
     * ({@link CommandsArchive}, none where it could not be trained).
     */
    public static List<String> flagsFor(List<String> args) {
        if (!args.isEmpty() && DISPATCH_ARCHIVE_COMMANDS.contains(args.get(0))) {
            return FLAGS;
        }
        List<String> flags = new ArrayList<>(FLAGS);
        flags.addAll(CommandsArchive.flags());
        return flags;
    }

    /**
     * {@code java FLAGS -cp <the test class path> main args…}: a test's own {@code main} class in a JVM
     * started as {@code bin/warden} starts one, for a test that needs several processes (locks, appends).
     * Without a class-data archive: the class path holds directories, whose classes no archive can hold.
     */
    public static List<String> testClassCommand(Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(java().toString()));
        command.addAll(FLAGS);
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(main.getName());
        command.addAll(List.of(args));
        return command;
    }

    /** The result of one run; stdout and stderr decoded as UTF-8 (the bytes are also kept). */
    public record Result(int exitCode, byte[] stdoutBytes, String stdout, String stderr) {
    }

    /**
     * Runs {@code java FLAGS [archive] [jvmArgs] -jar warden.jar args…} with stdin from {@code stdin}
     * bytes: the archive per {@link #flagsFor}, unless {@code jvmArgs} pick one (or none) themselves.
     */
    public static Result run(List<String> jvmArgs, List<String> args, Map<String, String> env, byte[] stdin, Path workDir)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.addAll(picksArchive(jvmArgs) ? FLAGS : flagsFor(args));
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(args);
        return runCommand(command, env, stdin, workDir);
    }

    private static boolean picksArchive(List<String> jvmArgs) {
        for (String arg : jvmArgs) {
            for (String option : ARCHIVE_OPTIONS) {
                if (arg.startsWith(option)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Runs {@code command} as {@link #runLauncher} runs the launcher. */
    static Result runCommand(List<String> command, Map<String, String> env, byte[] stdin, Path workDir)
            throws IOException, InterruptedException {
        Path io = Files.createTempDirectory("warden-process-io");
        try {
            Path in = Files.write(io.resolve("stdin"), stdin);
            Path out = io.resolve("stdout");
            Path err = io.resolve("stderr");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (workDir != null) {
                pb.directory(workDir.toFile());
            }
            pb.environment().clear();
            pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            pb.environment().put("LANG", "C");
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("warden did not finish within " + TIMEOUT_SECONDS + " s: " + command);
            }
            byte[] stdout = Files.readAllBytes(out);
            return new Result(p.exitValue(), stdout, new String(stdout, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            deleteTree(io);
        }
    }

    /** Deletes {@code root} and everything below it (nothing when it does not exist). */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
