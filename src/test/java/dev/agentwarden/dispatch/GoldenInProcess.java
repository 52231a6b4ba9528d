package dev.agentwarden.dispatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One in-process dispatch per golden case ({@link GoldenCorpus#runInProcess}), shared by the unit suites
 * that observe it: {@link GoldenDispatchTest} (its outcome against the case's expectation),
 * {@link GoldenServeTest} (the outcome {@code serve}'s answer must equal) and {@link GoldenDecisionLineTest}
 * (the decision line it wrote). Each ran the very same dispatch of its own; now the first suite to reach a
 * case runs it and the others read what it saw.
 *
 * <p>A run is in a fresh project of its own (deleted once its decision lines are read), from a
 * compiled-manifest cache shared by every run and deleted when the JVM exits.
 */
final class GoldenInProcess {
    /** What one in-process run of a case returned and the decision lines it left in its project. */
    record Run(GoldenCorpus.Outcome outcome, List<String> decisionLines) {
    }

    private static final OncePerKey<Run> RUNS = new OncePerKey<>();
    private static GoldenCorpus.Project cacheOwner;

    private GoldenInProcess() {
    }

    /** The run of {@code c}: started by this thread when no suite has asked for it yet, else awaited. */
    static Run of(GoldenCorpus.Case c) throws Exception {
        return RUNS.get(c.name(), () -> run(c));
    }

    private static Run run(GoldenCorpus.Case c) throws IOException {
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open(cache())) {
            GoldenCorpus.Outcome outcome = GoldenCorpus.runInProcess(c, p);
            return new Run(outcome, DecisionLines.all(p.dir));
        }
    }

    /** Every run's compiled-manifest cache. */
    static synchronized Path cache() throws IOException {
        if (cacheOwner == null) {
            GoldenCorpus.Project owner = GoldenCorpus.Project.open();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    owner.close();
                } catch (IOException | UncheckedIOException e) {
                    System.err.println("golden in-process runs: could not delete the cache: " + e);
                }
            }, "golden-in-process-cleanup"));
            cacheOwner = owner;
        }
        return cacheOwner.cache;
    }
}
