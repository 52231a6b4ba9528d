package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packaged jar, as its own JVM, writes the decision line the in-process dispatch writes (volatile
 * fields masked), for one case of each kind ({@link GoldenCorpus#coldCases}); the in-process line of
 * every case is compared with the resident's and serve's ({@link GoldenDecisionLineTest},
 * {@link GoldenServeTest}). Each run in a project of its own, so the cases run on the parallel pool's
 * threads; all share one compiled-manifest cache, as a host's events do. The jar's run is
 * {@link GoldenRuns}' (compiled once before the first case), shared with the other suites that observe
 * that run.
 */
@Execution(ExecutionMode.CONCURRENT)
class GoldenDecisionLineIT {
    /** Its {@code cache} is every case's manifest cache; its project directory is unused. */
    @RegisterExtension
    static final GoldenCorpus.Project shared = new GoldenCorpus.Project();

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.coldCases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decisionLine_jarProcess_matchesInProcess(GoldenCorpus.Case c) throws Exception {
        List<String> jarLines = GoldenRuns.of(c).decisionLines();
        assertThat(jarLines).as("decision lines of the jar's run of %s", c).hasSize(1);
        String jar = jarLines.get(0);
        String inProcess;
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open(shared.cache)) {
            GoldenCorpus.runInProcess(c, p);
            inProcess = DecisionLines.only(p.dir);
        }
        assertThat(DecisionLines.transport(jar)).isEqualTo(DecisionLog.OWN_JVM);
        assertThat(DecisionLines.masked(jar)).isEqualTo(DecisionLines.masked(inProcess));
    }
}
