package dev.agentwarden.dispatch;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The golden corpus ({@link GoldenCorpus}) through {@link DispatchMain#run}, in-process. */
class GoldenDispatchTest {
    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_inProcess_matchesGolden(GoldenCorpus.Case c) {
        GoldenCorpus.Outcome outcome = GoldenCorpus.runInProcess(c, project);
        GoldenCorpus.assertMatches(c, outcome);
    }
}
