package dev.agentwarden.dispatch;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The golden corpus ({@link GoldenCorpus}) through {@link DispatchMain#run}, in-process. */
class GoldenDispatchTest {
    private static GoldenCorpus.Project project;

    @BeforeAll
    static void createProject() throws IOException {
        project = new GoldenCorpus.Project();
    }

    @AfterAll
    static void deleteProject() throws IOException {
        project.close();
    }

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
