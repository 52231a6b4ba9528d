package dev.agentwarden.dispatch;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * One packaged-jar JVM per cold golden case ({@link GoldenCorpus#coldCases}: one case of each kind),
 * shared by the suites that observe it: {@link GoldenDispatchIT} (stdout, stderr, exit code),
 * {@link GoldenDecisionLineIT} (the decision line) and {@link HotPathClassLoadIT} (the classes loaded).
 * Each ran the very same command in a JVM of its own; now the first suite to reach a case runs it and
 * the others read what it saw.
 *
 * <p>A run is {@code java FLAGS} with the class-data archive and {@code -Xlog:class+load} to a file
 * (never to stdout or stderr), in a fresh project of its own, from a compiled-manifest cache shared by
 * every case and compiled once, before the first case ({@link #warmCache}): no case loads YAML. A
 * run's project is kept, with the one decision line that run wrote, until the test JVM exits.
 */
final class GoldenRuns {
    /** What one run of a case left: its result, its project, its decision lines and the classes it loaded. */
    record Run(WardenProcess.Result result, GoldenCorpus.Project project, List<String> decisionLines,
            Set<String> loaded) {
    }

    private static final OncePerKey<Run> RUNS = new OncePerKey<>();
    private static final List<GoldenCorpus.Project> PROJECTS = Collections.synchronizedList(new ArrayList<>());
    private static GoldenCorpus.Project cacheOwner;

    private GoldenRuns() {
    }

    /** The run of {@code c}: started by this thread when no suite has asked for it yet, else awaited. */
    static Run of(GoldenCorpus.Case c) throws Exception {
        return RUNS.get(c.name(), () -> run(c));
    }

    private static Run run(GoldenCorpus.Case c) throws IOException, InterruptedException {
        Path cache = warmCache();
        GoldenCorpus.Project p = GoldenCorpus.Project.open(cache);
        PROJECTS.add(p);
        Path log = Files.createTempFile("warden-class-load", ".log");
        try {
            List<String> jvmArgs = new ArrayList<>(ClassDataArchive.flags());
            jvmArgs.add("-Xlog:class+load=info:file=" + log);
            WardenProcess.Result r = WardenProcess.run(jvmArgs, c.argv(), p.env(c), c.stdin(), p.dir);
            return new Run(r, p, DecisionLines.all(p.dir), HotPathClassLoadIT.classes(log));
        } finally {
            Files.deleteIfExists(log);
            // The JVM's logging moves the (empty) file it found aside as <name>.0 before it writes.
            Files.deleteIfExists(log.resolveSibling(log.getFileName() + ".0"));
        }
    }

    /** The shared cache, with the corpus manifest compiled into it by one dispatch (not observed). */
    private static synchronized Path warmCache() throws IOException, InterruptedException {
        if (cacheOwner == null) {
            GoldenCorpus.Project owner = GoldenCorpus.Project.open();
            GoldenCorpus.Case any = GoldenCorpus.cases().findFirst().orElseThrow().getPayload();
            WardenProcess.run(ClassDataArchive.flags(), any.argv(), owner.env(any), any.stdin(), owner.dir);
            cacheOwner = owner;
            Runtime.getRuntime().addShutdownHook(new Thread(GoldenRuns::deleteAll, "golden-runs-cleanup"));
        }
        return cacheOwner.cache;
    }

    private static void deleteAll() {
        try {
            synchronized (PROJECTS) {
                for (GoldenCorpus.Project p : PROJECTS) {
                    p.close();
                }
            }
            cacheOwner.close();
        } catch (IOException | UncheckedIOException e) {
            System.err.println("golden runs: could not delete a project: " + e);
        }
    }
}
