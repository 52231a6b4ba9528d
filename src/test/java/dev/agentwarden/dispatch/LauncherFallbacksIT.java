package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code bin/warden} when things go wrong around the JVM. Its class-data archive over time: an
 * archive the JVM would refuse (the jar's mtime changed, same bytes) is retrained instead of being
 * refused on every event, and a JVM that dies with the archive sets it aside to be retrained and
 * probed again, a bounded number of times. And when it cannot start Warden at all, it still
 * answers in the host's protocol where it can tell (Codex's Stop needs JSON).
 *
 * <p>Each test runs a private copy of the launcher home (its own {@code target/cds}) with a
 * {@code java} wrapper that can be told to die, as a damaged archive would make it, whenever it is
 * given an archive to load.
 */
/* Each case has a launcher home, HOME and cache of its own: the cases run on the parallel pool. */
@Execution(ExecutionMode.CONCURRENT)
class LauncherFallbacksIT {
    private static final Duration TRAINING = Duration.ofMinutes(3);
    private static final String REFUSED = "Unable to use shared archive";

    private Path dir;
    private Path home;
    private Path jar;
    private Path cds;
    private Path crashSwitch;
    private Map<String, String> env;

    @BeforeEach
    void copyLauncherHome() throws IOException {
        dir = Files.createTempDirectory("warden-archive-it");
        home = WardenProcess.copyLauncherHome(dir);
        jar = home.resolve("target/warden.jar");
        cds = home.resolve("target/cds");
        crashSwitch = dir.resolve("crash");

        // A JDK whose java dies (SIGSEGV) on an archive while the crash switch exists.
        Path jdk = dir.resolve("jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Path release = Path.of(System.getProperty("java.home"), "release");
        if (Files.exists(release)) {
            Files.copy(release, jdk.resolve("release"));
        }
        Path wrapper = WardenProcess.writeScript(jdk.resolve("bin/java"), "#!/bin/sh\n"
                + "printf '%s\\n' \"$*\" > '" + dir.resolve("last-java-args") + "'\n"
                + "[ -f '" + dir.resolve("exit1") + "' ] && case \" $* \" in *' dispatch '*) exit 1 ;; esac\n"
                + "for a in \"$@\"; do\n"
                + "  case \"$a\" in -XX:SharedArchiveFile=*|-XX:AOTCache=*) [ -f '" + crashSwitch + "' ] && kill -SEGV $$ ;; esac\n"
                + "done\n"
                + "exec '" + WardenProcess.java() + "' \"$@\"\n");

        Path project = Files.createDirectories(dir.resolve("project"));
        env = new LinkedHashMap<>();
        env.put("WARDEN_JAVA", wrapper.toString());
        env.put("WARDEN_RESIDENT", "off");
        env.put("WARDEN_CACHE_DIR", Files.createDirectories(dir.resolve("cache")).toString());
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        env.put("HOME", dir.toString());
    }

    @AfterEach
    void deleteCopy() throws Exception {
        // A background training may still be writing into the copy.
        poll("no training in progress", () -> trainingDirs().isEmpty());
        GoldenCorpus.deleteTree(dir);
    }

    @Test
    void archive_jarMtimeChangedSameBytes_isRetrainedInsteadOfRefusedOnEveryEvent() throws Exception {
        assertThat(launcher(List.of("train-archive"), "").exitCode).as("train-archive").isZero();
        Path archive = onlyArchive();
        assertThat(dispatch().stderr).doesNotContain(REFUSED);

        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

        assertThat(dispatch().stderr).as("an event right after the jar's mtime changed").doesNotContain(REFUSED);
        poll("the archive is retrained for the jar's new mtime",
                () -> mtime(archive).equals(mtime(jar)) && trainingDirs().isEmpty());
        Run used = dispatch();
        assertThat(Files.readString(dir.resolve("last-java-args"))).as("the event's JVM was given the retrained archive")
                .contains("=" + archive + " ");
        assertThat(used.stderr).as("and did not refuse it").doesNotContain(REFUSED);
    }

    @Test
    void archive_jvmDiesWithIt_isSetAsideRetrainedAndProbed_boundedByTheFailureCount() throws Exception {
        assertThat(launcher(List.of("train-archive"), "").exitCode).as("train-archive").isZero();
        Path archive = onlyArchive();

        Files.writeString(crashSwitch, "");
        Run died = launcher(List.of("dispatch", "--host", "codex", "--native-event", "Stop"), "{}");
        assertThat(died.exitCode).isZero();
        assertThat(died.stdout).as("Codex's Stop still gets JSON").isEqualTo("{}");
        assertThat(died.stderr).contains("the JVM died (exit 139)").contains("archive set aside, to be retrained (failure 1 of 3)");
        assertThat(archive).doesNotExist();

        // The next events train a new archive and prove it loads before using it.
        Files.delete(crashSwitch);
        dispatch();
        poll("a new archive, trained and probed", () -> Files.exists(archive) && trainingDirs().isEmpty());
        assertThat(dispatch().stderr).doesNotContain("died").doesNotContain(REFUSED);

        // While it keeps dying, each retraining's probe fails, until the launcher gives up.
        Files.writeString(crashSwitch, "");
        dispatch();
        for (int i = 0; i < 5; i++) {
            dispatch();
            poll("no training in progress", () -> trainingDirs().isEmpty());
        }
        assertThat(Files.readString(failedMarker(), StandardCharsets.UTF_8).strip()).as("failures counted, then no more trainings")
                .isEqualTo("3");
        assertThat(archive).doesNotExist();
        Run served = dispatch();
        assertThat(served.exitCode).isZero();
        assertThat(served.stderr).doesNotContain("died");
    }

    @Test
    void cannotRun_jarMissingOrNoJava_codexStopStillGetsJson() throws Exception {
        Files.delete(jar);
        Run stop = launcher(List.of("dispatch", "--host", "codex", "--native-event", "Stop"), "{}");
        Run subagentStop = launcher(List.of("dispatch", "--host", "codex", "--native-event", "SubagentStop"), "{}");
        Run preToolUse = launcher(List.of("dispatch", "--host", "codex", "--native-event", "PreToolUse"), "{}");
        Run claudeStop = launcher(List.of("dispatch", "--host", "claude", "--native-event", "Stop"), "{}");
        env.put("WARDEN_JAVA", dir.resolve("no-such-java").toString());
        Files.copy(WardenProcess.jar(), jar);
        Run noJava = launcher(List.of("dispatch", "--host", "codex", "--native-event", "Stop"), "{}");

        assertThat(stop).isEqualTo(new Run(0, "{}", "warden: " + jar + " is missing (run bin/warden demo or mvn -B package); allowing\n"));
        assertThat(subagentStop.stdout).isEqualTo("{}");
        assertThat(preToolUse.stdout).isEmpty();
        assertThat(claudeStop.stdout).isEmpty();
        assertThat(noJava).isEqualTo(new Run(0, "{}", "warden: no java found (set WARDEN_JAVA or JAVA_HOME); allowing\n"));
    }

    /**
     * Copilot CLI reads exit 1 on preToolUse as its own fail-closed deny and exit 2 as a deny: every
     * path of the launcher answers it exit 0, with nothing on stdout for "allow" and, under
     * {@code WARDEN_FAIL_MODE=closed}, the event's refusal as JSON.
     */
    @Test
    void cannotRun_copilot_allowIsExitZeroAndNothing_closedIsARealDeny() throws Exception {
        List<String> pre = List.of("dispatch", "--host", "copilot", "--native-event", "preToolUse");
        List<String> permission = List.of("dispatch", "--host", "copilot", "--native-event", "permissionRequest");
        String payload = "{\"sessionId\":\"s\",\"timestamp\":1,\"cwd\":\"" + dir.resolve("project")
                + "\",\"toolName\":\"bash\",\"toolArgs\":{\"command\":\"echo hi\"}}";
        String deny = "{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":"
                + "\"[warden] Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)\"}";
        Map<String, String> closed = Map.of("WARDEN_FAIL_MODE", "closed");

        Run served = launcher(pre, payload);
        assertThat(served.exitCode).as("a real dispatch through the jar: " + served.stderr).isZero();
        assertThat(served.stdout).isEmpty();
        Run brokenManifest = launcher(List.of("dispatch", "--host", "copilot", "--native-event", "preToolUse",
                "--manifest", dir.resolve("missing.yaml").toString()), payload, closed);
        assertThat(brokenManifest.exitCode).isZero();
        assertThat(brokenManifest.stdout).as("the jar's closed answer").isEqualTo(deny);

        Files.writeString(dir.resolve("exit1"), "");
        Run died = launcher(pre, payload);
        Run diedClosed = launcher(pre, payload, closed);
        Files.delete(dir.resolve("exit1"));
        assertThat(died).isEqualTo(new Run(0, "", "warden: the JVM exited with status 1; this event was not evaluated; allowing\n"));
        assertThat(diedClosed.exitCode).isZero();
        assertThat(diedClosed.stdout).isEqualTo(deny);

        Files.delete(jar);
        Run missing = launcher(pre, payload);
        Run missingClosed = launcher(pre, payload, closed);
        Run permissionClosed = launcher(permission, payload, closed);
        Run stopClosed = launcher(List.of("dispatch", "--host", "copilot", "--native-event", "agentStop"), "{}", closed);
        Run endClosed = launcher(List.of("dispatch", "--host", "copilot", "--native-event", "sessionEnd"), "{}", closed);
        Run claudeClosed = launcher(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse"), "{}", closed);

        assertThat(missing).isEqualTo(new Run(0, "", "warden: " + jar + " is missing (run bin/warden demo or mvn -B package); allowing\n"));
        assertThat(missingClosed.exitCode).isZero();
        assertThat(missingClosed.stdout).isEqualTo(deny);
        assertThat(permissionClosed.stdout).isEqualTo("{\"behavior\":\"deny\",\"message\":"
                + "\"[warden] Warden cannot evaluate policy (WARDEN_FAIL_MODE=closed)\"}");
        assertThat(stopClosed.stdout).startsWith("{\"decision\":\"block\"");
        assertThat(endClosed).as("nothing to refuse at session end").isEqualTo(new Run(0, "",
                "warden: " + jar + " is missing (run bin/warden demo or mvn -B package); refusing (WARDEN_FAIL_MODE=closed)\n"));
        assertThat(claudeClosed.exitCode).as("other hosts keep exit 2").isEqualTo(2);
    }

    private record Run(int exitCode, String stdout, String stderr) {
    }

    private Run dispatch() throws IOException, InterruptedException {
        return launcher(List.of("dispatch", "--host", "claude", "--native-event", "Stop"), "{}");
    }

    private Run launcher(List<String> args, String stdin) throws IOException, InterruptedException {
        return launcher(args, stdin, Map.of());
    }

    private Run launcher(List<String> args, String stdin, Map<String, String> extraEnv) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/warden").toString());
        command.addAll(args);
        Path in = Files.writeString(dir.resolve("stdin"), stdin);
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.resolve("project").toFile())
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().put("LANG", "C");
        pb.environment().putAll(env);
        pb.environment().putAll(extraEnv);
        Process p = pb.start();
        if (!p.waitFor(TRAINING.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/warden did not finish: " + command);
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private Path onlyArchive() throws IOException {
        try (Stream<Path> files = Files.list(cds)) {
            // dispatch's archive; the other commands' (.commands.static.jsa) is not on this path
            List<Path> archives = files.filter(f -> f.getFileName().toString().startsWith("warden-")
                    && !f.getFileName().toString().endsWith(".commands.static.jsa")).toList();
            assertThat(archives).hasSize(1);
            return archives.get(0);
        }
    }

    private Path failedMarker() throws IOException {
        try (Stream<Path> files = Files.list(cds)) {
            List<Path> markers = files.filter(f -> f.getFileName().toString().startsWith(".failed-")).toList();
            assertThat(markers).hasSize(1);
            return markers.get(0);
        }
    }

    private List<Path> trainingDirs() {
        try (Stream<Path> files = Files.list(cds)) {
            return files.filter(f -> f.getFileName().toString().startsWith(".training-")).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static FileTime mtime(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static void poll(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TRAINING.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited for: " + what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
