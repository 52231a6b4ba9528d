package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus ({@link GoldenCorpus}) through {@code bin/warden dispatch} with a resident
 * server running: every case is forwarded (the launcher's {@code java} refuses to start) and must
 * match its expectation with stdout, stderr and exit code byte-identical to the in-process run.
 */
class GoldenForwardIT {
    private static GoldenCorpus.Project project;
    private static ResidentProcess resident;
    private static Path calls;
    private static Path java;

    @BeforeAll
    static void start() throws Exception {
        project = new GoldenCorpus.Project();
        resident = ResidentProcess.start(project.cache, 600);
        calls = project.cache.resolve("java-calls");
        java = ResidentProcess.forbiddenJava(project.cache, calls);
    }

    @AfterAll
    static void stop() throws Exception {
        resident.close();
        assertThat(Files.exists(resident.endpointFile())).as("endpoint withdrawn on stop").isFalse();
        project.close();
    }

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_forwardedToResident_matchesGoldenAndInProcess(GoldenCorpus.Case c) throws Exception {
        Map<String, String> env = new LinkedHashMap<>(project.env(c));
        env.putAll(ResidentProcess.noJvm(java));

        WardenProcess.Result r = WardenProcess.runLauncher(c.argv(), env, c.stdin(), project.dir);

        ResidentProcess.assertNoJvmStarted(calls);
        GoldenCorpus.Outcome forwarded = new GoldenCorpus.Outcome(r.exitCode(), r.stdout(), r.stderr());
        GoldenCorpus.assertMatches(c, forwarded);
        assertThat(forwarded.normalized()).as("forwarded and in-process runs agree")
                .isEqualTo(GoldenCorpus.runInProcess(c, project).normalized());
    }
}
