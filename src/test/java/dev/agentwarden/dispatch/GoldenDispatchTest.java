package dev.agentwarden.dispatch;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus ({@link GoldenCorpus}) through {@link DispatchMain#run}, in-process, each case in a
 * fresh project: the run {@link GoldenServeTest} and {@link GoldenDecisionLineTest} also observe
 * ({@link GoldenInProcess}), made once by whichever suite reaches the case first.
 */
class GoldenDispatchTest {

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_inProcess_matchesGolden(GoldenCorpus.Case c) throws Exception {
        GoldenCorpus.Outcome outcome = GoldenInProcess.of(c).outcome();
        GoldenCorpus.assertMatches(c, outcome);
    }
}
