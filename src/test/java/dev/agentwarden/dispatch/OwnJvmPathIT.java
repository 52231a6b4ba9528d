package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The own-JVM path (one JVM per event, {@code WARDEN_RESIDENT=off}) from the compiled hook: it runs
 * the one-event JVM plan {@code bin/warden} wrote (its exact java command line) while every file
 * the plan was derived from is unchanged, the plan is this user's, 0600, no symlink, in the private
 * hook directory; else {@code bin/warden} runs the event and writes a new plan. And the JVM it runs
 * on JDK 17 maps the archive's module graph.
 *
 * <p>A copy of the launcher home (bin/warden, the jar, the hook's source) with a {@code java}
 * wrapper that notes which program started it ({@code /proc/PPID/exe}: bash for bin/warden, the
 * compiled hook for a plan) and dies (SIGSEGV) on an archive while a crash switch exists. Needs a
 * C compiler. The cases share the copy (its paths name the archive and are compiled into the hook): each starts
 * from the archive trained and the hook built once, copied back with their times.
 */
/* Beside the other classes, on the parallel pool (its home copy, cache and HOME are its own); its own lock keeps its
   cases in order, one at a time (they share the copy). */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("OwnJvmPathIT")
class OwnJvmPathIT {
    private static final String NO_VERIFY = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\","
            + "\"tool_input\":{\"command\":\"git commit --no-verify -m x\"}}";
    private static final List<String> DISPATCH = List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse");
    private static final long DEADLINE_MS = 60_000;

    /*
     * One launcher home per class: its archive trained and its hook built once (no case here tests the first
     * training or build), kept aside with their times; each case starts from them again (see freshState).
     */
    private static Path dir;
    private static Path home;
    private static Path cache;
    private static Path hook;
    private static Path parents;
    private static Path trainedArchive;
    private static Path builtHook;

    private Path java;
    private Map<String, String> env;

    @BeforeAll
    static void copyHomeTrainAndBuildHook() throws Exception {
        assumeTrue(onPath("cc") || onPath("gcc"), "no C compiler: the compiled hook cannot be built here");
        dir = Files.createTempDirectory("warden-own-jvm-it");
        home = WardenProcess.copyLauncherHome(dir);
        Files.createDirectories(home.resolve("src/main/c"));
        Files.copy(WardenProcess.home().resolve("src/main/c/warden-hook.c"), home.resolve("src/main/c/warden-hook.c"));
        parents = dir.resolve("parents");
        cache = dir.resolve("cache");
        Map<String, String> env = baseEnv(writeJava(""));
        WardenProcess.Result trained = run(home.resolve("bin/warden"), List.of("train-archive"), "", env, dir);
        assertThat(trained.exitCode()).as(trained.stderr()).isZero();
        WardenProcess.Result built = run(home.resolve("bin/warden"), List.of("build-hook"), "", env, dir);
        assertThat(built.exitCode()).as(built.stderr()).isZero();
        hook = Path.of(built.stdout().strip());
        assertThat(hook.toString()).startsWith(cache.toString());
        trainedArchive = copyWithTimes(home.resolve("target/cds"), Files.createDirectory(dir.resolve("trained-cds")));
        builtHook = Files.createDirectory(dir.resolve("built-hook")).resolve("warden");
        copyWithTimes(hook, builtHook);
    }

    /**
     * What a case may have changed, as the class's set-up left it: a new java wrapper, an empty cache holding only
     * the built hook (no plans), the trained archive (no failure count, nothing set aside), no switches.
     */
    @BeforeEach
    void freshState() throws Exception {
        for (String scratch : List.of("parents", "crash", "cds-log", "cds.log", "other", "real-plan", "project", "cache")) {
            GoldenCorpus.deleteTree(dir.resolve(scratch));
        }
        Path cds = home.resolve("target/cds");
        GoldenCorpus.deleteTree(cds);
        copyWithTimes(trainedArchive, Files.createDirectory(cds));
        java = writeJava("");
        env = baseEnv(java);
        Files.createDirectories(hook.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        for (Path d = hook.getParent(); !d.equals(dir); d = d.getParent()) {
            Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
        }
        copyWithTimes(builtHook, hook);
    }

    private static Map<String, String> baseEnv(Path java) throws IOException {
        Files.createDirectories(cache, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path project = Files.createDirectories(dir.resolve("project"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WARDEN_JAVA", java.toString());
        env.put("WARDEN_RESIDENT", "off");
        env.put("WARDEN_CACHE_DIR", cache.toString());
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        env.put("HOME", dir.toString());
        return env;
    }

    @AfterEach
    void awaitTraining() throws Exception {
        if (dir != null) {
            poll("no archive training in progress", () -> trainingDirs().isEmpty());
        }
    }

    @AfterAll
    static void deleteCopy() throws Exception {
        if (dir != null) {
            GoldenCorpus.deleteTree(dir);
        }
    }

    /**
     * Two trainings side by side (a first event's background training and the user's {@code train-archive}, as
     * {@code warden doctor} then {@code train-archive} once did): each writes its own temporaries, so both succeed and
     * only the two archives remain. With shared temporary names one removed the other's class list mid-dump.
     */
    @Test
    void trainArchive_twiceSideBySide_bothSucceed_andLeaveOnlyTheArchives() throws Exception {
        Path cds = home.resolve("target/cds");
        GoldenCorpus.deleteTree(cds);
        java.util.concurrent.FutureTask<WardenProcess.Result> other = new java.util.concurrent.FutureTask<>(
                () -> run(home.resolve("bin/warden"), List.of("train-archive"), "", env, dir));
        new Thread(other, "second train-archive").start();
        WardenProcess.Result first = run(home.resolve("bin/warden"), List.of("train-archive"), "", env, dir);
        WardenProcess.Result second = other.get(DEADLINE_MS, TimeUnit.MILLISECONDS);

        assertThat(first.exitCode()).as(first.stderr()).isZero();
        assertThat(second.exitCode()).as(second.stderr()).isZero();
        try (Stream<Path> left = Files.list(cds)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("warden-")))
                    .as("what the trainings left in %s", cds)
                    .allMatch(n -> n.endsWith(".static.jsa") || n.endsWith(".aot"))
                    .anyMatch(n -> n.endsWith(".static.jsa") && !n.endsWith(".commands.static.jsa") || n.endsWith(".aot"));
        }
    }

    @Test
    void jvmPlan_filesUnchanged_hookRunsTheJvmWithoutTheLauncher() throws Exception {
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("the first event: bin/warden runs the JVM and writes the plan").isNotEqualTo(hook.toString());
        assertThat(plan("claude")).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plan("claude")))).isEqualTo("rw-------");

        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("the next event: the hook runs the JVM itself").isEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_javaReplaced_fallsBackToLauncher() throws Exception {
        planned();
        Files.delete(java);
        writeJava("# another build\n");
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("a java that is not the planned file: bin/warden runs it").isNotEqualTo(hook.toString());
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("and plans the new one").isEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_anotherJavaChosen_fallsBackToLauncher() throws Exception {
        planned();
        Path other = Files.createDirectories(dir.resolve("other"));
        Path otherJava = Files.createSymbolicLink(other.resolve("java"), java);
        env.put("WARDEN_JAVA", otherJava.toString());
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("WARDEN_JAVA names another java than the plan's").isNotEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_ownedByAnotherUser_isIgnored() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file to another user");
        planned();
        Files.setAttribute(plan("claude"), "unix:uid", 65534);
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).isNotEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_readableByOthers_isIgnored() throws Exception {
        planned();
        Files.setPosixFilePermissions(plan("claude"), PosixFilePermissions.fromString("rw-r--r--"));
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).isNotEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_symlinkedPlan_isRefused() throws Exception {
        planned();
        Path real = dir.resolve("real-plan");
        Files.copy(plan("claude"), real);
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-------"));
        Files.delete(plan("claude"));
        Files.createSymbolicLink(plan("claude"), real);
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("a symlinked plan is not followed").isNotEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_archiveReplaced_fallsBackToLauncher() throws Exception {
        planned();
        Path archive = onlyArchive();
        byte[] bytes = Files.readAllBytes(archive);
        Files.delete(archive);
        Files.write(archive, bytes);
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("an archive that is not the planned file").isNotEqualTo(hook.toString());
    }

    @Test
    void jvmPlan_jvmDiesWithTheArchive_launcherSetsItAsideAndAnswersPerFailMode() throws Exception {
        planned();
        Path archive = onlyArchive();
        Files.writeString(dir.resolve("crash"), "");
        WardenProcess.Result died = hook(List.of("dispatch", "--host", "codex", "--native-event", "Stop"), "{}");
        assertThat(lastParent()).as("codex's plan does not exist yet: bin/warden").isNotEqualTo(hook.toString());
        assertThat(died.stderr()).contains("the JVM died (exit 139)");
        Files.delete(dir.resolve("crash"));
        hook(DISPATCH, NO_VERIFY);
        poll("the archive retrained", () -> Files.exists(archive) && trainingDirs().isEmpty());
        hook(DISPATCH, NO_VERIFY);
        WardenProcess.Result planned = hook(DISPATCH, NO_VERIFY);
        assertThat(lastParent()).isEqualTo(hook.toString());
        assertDeny(planned);

        Files.writeString(dir.resolve("crash"), "");
        WardenProcess.Result viaPlan = hook(DISPATCH, NO_VERIFY);
        assertThat(lastParent()).as("the planned JVM died").isEqualTo(hook.toString());
        assertThat(viaPlan.exitCode()).as("fails open, as bin/warden would").isZero();
        assertThat(viaPlan.stdout()).isEmpty();
        assertThat(viaPlan.stderr()).contains("the JVM died (exit 139)").contains("archive set aside, to be retrained");
        assertThat(archive).as("bin/warden set the archive aside").doesNotExist();
    }

    /** Every host's refusals, through the compiled hook's plan, are exactly bin/warden's answers. */
    @Test
    void jvmPlan_sameVerdictAsLauncher_forEachHostsDeny() throws Exception {
        Set<String> hosts = new LinkedHashSet<>();
        List<GoldenCorpus.Case> denies = new ArrayList<>();
        try (Stream<Named<GoldenCorpus.Case>> cases = GoldenCorpus.cases()) {
            for (GoldenCorpus.Case c : cases.map(Named::getPayload).toList()) {
                boolean refusal = c.expected().exitCode() == 2 || c.expected().stdout().contains("deny")
                        || c.expected().stdout().contains("block");
                if (refusal && c.env().isEmpty() && hosts.add(c.host())) {
                    denies.add(c);
                }
            }
        }
        assertThat(hosts).as("hosts with a refusal case").hasSizeGreaterThan(3);
        try (GoldenCorpus.Project project = GoldenCorpus.Project.open(cache)) {
            for (GoldenCorpus.Case c : denies) {
                Map<String, String> caseEnv = new LinkedHashMap<>(env);
                caseEnv.putAll(project.env(c));
                String stdin = new String(c.stdin(), StandardCharsets.UTF_8);
                WardenProcess.Result viaLauncher = run(home.resolve("bin/warden"), c.argv(), stdin, caseEnv, project.dir);
                run(hook, c.argv(), stdin, caseEnv, project.dir);
                WardenProcess.Result viaPlan = run(hook, c.argv(), stdin, caseEnv, project.dir);
                assertThat(lastParent()).as(c.name() + ": the hook ran the JVM from its plan").isEqualTo(hook.toString());
                assertThat(viaPlan.exitCode()).as(c.name() + " exit").isEqualTo(viaLauncher.exitCode())
                        .isEqualTo(c.expected().exitCode());
                // the integrity gate names a session per event
                assertThat(GoldenCorpus.normalized(viaPlan.stdout())).as(c.name() + " stdout")
                        .isEqualTo(GoldenCorpus.normalized(viaLauncher.stdout()));
                assertThat(GoldenCorpus.normalized(viaPlan.stderr())).as(c.name() + " stderr")
                        .isEqualTo(GoldenCorpus.normalized(viaLauncher.stderr()));
            }
        }
    }

    @Test
    void archive_jdk17OneEventJvm_mapsTheArchivedModuleGraph() throws Exception {
        assumeTrue(Runtime.version().feature() == 17, "JDK 17's archived heap needs G1; later JDKs load it for any collector");
        Files.writeString(dir.resolve("cds-log"), "");
        assertDeny(launcher(DISPATCH, NO_VERIFY));
        String log = Files.readString(dir.resolve("cds.log"));
        assertThat(log).as("the one-event JVM's class-data sharing").contains("full module graph: enabled");
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /** The java wrapper (see the class comment); {@code variant} is a comment that makes it another file. */
    private static Path writeJava(String variant) throws IOException {
        Files.deleteIfExists(dir.resolve("jdk/bin/java"));
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin")).getParent();
        Path release = Path.of(System.getProperty("java.home"), "release");
        if (Files.exists(release) && !Files.exists(jdk.resolve("release"))) {
            Files.copy(release, jdk.resolve("release"));
        }
        String d = dir.toString();
        return WardenProcess.writeScript(jdk.resolve("bin/java"), "#!/bin/sh\n" + variant
                + "readlink /proc/$PPID/exe >> '" + parents + "'\n"
                + "for a in \"$@\"; do\n"
                + "  case \"$a\" in -XX:SharedArchiveFile=*|-XX:AOTCache=*) [ -f '" + d + "/crash' ] && kill -SEGV $$ ;; esac\n"
                + "done\n"
                + "if [ -f '" + d + "/cds-log' ]; then\n"
                + "  first=1\n"
                + "  for a in \"$@\"; do\n"
                + "    [ -n \"$first\" ] && set -- && first=\n"
                + "    [ \"$a\" = -cp ] && set -- \"$@\" '-Xlog:cds=info:file=" + d + "/cds.log'\n"
                + "    set -- \"$@\" \"$a\"\n"
                + "  done\n"
                + "fi\n"
                + "exec '" + WardenProcess.java() + "' \"$@\"\n");
    }

    /** A plan written and used once. */
    private void planned() throws Exception {
        hook(DISPATCH, NO_VERIFY);
        assertDeny(hook(DISPATCH, NO_VERIFY));
        assertThat(lastParent()).as("the plan is in use").isEqualTo(hook.toString());
    }

    private Path plan(String host) throws IOException {
        Path hookDir = hook.getParent().getParent();
        try (Stream<Path> files = Files.list(hookDir)) {
            List<Path> plans = files.filter(f -> f.getFileName().toString().startsWith("jvm-plan-")
                    && f.getFileName().toString().endsWith("-" + host)).toList();
            assertThat(plans).as("plans for " + host).hasSizeLessThanOrEqualTo(1);
            return plans.isEmpty() ? hookDir.resolve("jvm-plan-none-" + host) : plans.get(0);
        }
    }

    private String lastParent() throws IOException {
        List<String> lines = Files.readAllLines(parents);
        assertThat(lines).as("java was started").isNotEmpty();
        return lines.get(lines.size() - 1);
    }

    private Path onlyArchive() throws IOException {
        try (Stream<Path> files = Files.list(home.resolve("target/cds"))) {
            // dispatch's archive; the other commands' (.commands.static.jsa) is not on this path
            List<Path> archives = files.filter(f -> f.getFileName().toString().startsWith("warden-")
                    && !f.getFileName().toString().endsWith(".bad")
                    && !f.getFileName().toString().endsWith(".commands.static.jsa")).toList();
            assertThat(archives).hasSize(1);
            return archives.get(0);
        }
    }

    /**
     * {@code from} (a file, or a folder's files) copied to {@code to} with its mode and times, by {@code cp -p}: the
     * launcher and the JVM take an archive whose mtime is the jar's to the nanosecond (this JVM's own copy keeps
     * microseconds), and a hook no older than its source, as current.
     */
    private static Path copyWithTimes(Path from, Path to) throws Exception {
        String source = Files.isDirectory(from) ? from + "/." : from.toString();
        Process cp = new ProcessBuilder("cp", "-pR", source, to.toString()).redirectErrorStream(true).start();
        String out = new String(cp.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(cp.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("cp " + from).isTrue();
        assertThat(cp.exitValue()).as("cp -pR " + source + " " + to + ": " + out).isZero();
        return to;
    }

    private static List<Path> trainingDirs() {
        try (Stream<Path> files = Files.list(home.resolve("target/cds"))) {
            return files.filter(f -> f.getFileName().toString().startsWith(".training-")).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private WardenProcess.Result hook(List<String> args, String stdin) throws Exception {
        Files.deleteIfExists(parents);
        return run(hook, args, stdin, env, dir);
    }

    private WardenProcess.Result launcher(List<String> args, String stdin) throws Exception {
        return run(home.resolve("bin/warden"), args, stdin, env, dir);
    }

    private static WardenProcess.Result run(Path program, List<String> args, String stdin, Map<String, String> env,
                                            Path workDir) throws Exception {
        return WardenProcess.runProgram(program, args, env, stdin.getBytes(StandardCharsets.UTF_8), workDir);
    }

    private static void assertDeny(WardenProcess.Result r) {
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("\"permissionDecision\":\"deny\"");
    }

    private static void poll(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + DEADLINE_MS + " ms: " + what);
            }
            Thread.sleep(50);
        }
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
