package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus ({@link GoldenCorpus}) through the packaged jar as a process: each case must
 * match its expectation and give byte-identical stdout, the same stderr and the same exit code as
 * the in-process run, in the project the process ran in. One JVM per kind of case
 * ({@link GoldenCorpus#coldCases}), as a host starts one per event (from the class-data archive, as
 * {@code bin/warden} starts it), the cases on the parallel pool's threads; the JVM is
 * {@link GoldenRuns}', shared with the other suites that observe that run. The other cases of a kind
 * are asserted in-process ({@link GoldenDispatchTest}), which this suite shows agrees with the process.
 */
@Execution(ExecutionMode.CONCURRENT)
class GoldenDispatchIT {
    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.coldCases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_jarProcess_matchesGoldenAndInProcess(GoldenCorpus.Case c) throws Exception {
        GoldenRuns.Run run = GoldenRuns.of(c);
        WardenProcess.Result process = run.result();

        assertThat(isValidUtf8(process.stdoutBytes())).as("stdout is UTF-8 whatever the locale").isTrue();
        GoldenCorpus.Outcome viaProcess = new GoldenCorpus.Outcome(process.exitCode(), process.stdout(), process.stderr());
        GoldenCorpus.assertMatches(c, viaProcess);
        GoldenCorpus.Outcome inProcess = GoldenCorpus.runInProcess(c, run.project());
        assertThat(viaProcess.normalized()).as("process and in-process runs agree").isEqualTo(inProcess.normalized());
    }

    private static boolean isValidUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }
}
