package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packaged jar, as its own JVM, writes the decision line the in-process dispatch writes (volatile
 * fields masked). Each case in projects of its own, so the cases run on the parallel pool's threads.
 */
@Execution(ExecutionMode.CONCURRENT)
class GoldenDecisionLineIT {

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decisionLine_jarProcess_matchesInProcess(GoldenCorpus.Case c) throws Exception {
        String jar;
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open()) {
            WardenProcess.run(ClassDataArchive.flags(), c.argv(), p.env(c), c.stdin(), p.dir);
            jar = DecisionLines.only(p.dir);
        }
        String inProcess;
        try (GoldenCorpus.Project p = GoldenCorpus.Project.open()) {
            GoldenCorpus.runInProcess(c, p);
            inProcess = DecisionLines.only(p.dir);
        }
        assertThat(DecisionLines.transport(jar)).isEqualTo(DecisionLog.OWN_JVM);
        assertThat(DecisionLines.masked(jar)).isEqualTo(DecisionLines.masked(inProcess));
    }
}
