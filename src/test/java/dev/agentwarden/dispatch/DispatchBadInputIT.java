package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link BadInputs} through the packaged jar as a process, on PreToolUse with a fail_closed
 * blocking concern bound: the JVM adds nothing to stdout, the host gets exactly what the in-process
 * run gives, and a 20 MB stdin is not a problem for either side of the pipe.
 */
@Execution(ExecutionMode.CONCURRENT)
class DispatchBadInputIT {
    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();

    static Stream<Named<BadInputs.BadInput>> inputs() {
        return BadInputs.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void dispatch_badInputThroughJar_sameAsInProcess(BadInputs.BadInput input) throws Exception {
        byte[] stdin = input.stdin().get();
        List<String> argv = BadInputs.argv("PreToolUse", true);
        Map<String, String> env = Map.of("WARDEN_CACHE_DIR", project.cache.toString(), "CLAUDE_PROJECT_DIR", project.dir.toString());

        WardenProcess.Result p = WardenProcess.run(List.of(), argv, env, stdin, project.dir);
        GoldenCorpus.Outcome viaProcess = new GoldenCorpus.Outcome(p.exitCode(), p.stdout(), p.stderr());

        BadInputs.assertWellBehaved(viaProcess);
        if (input.problem() != null) {
            BadInputs.assertDenied(viaProcess, input.problem());
        } else {
            assertThat(viaProcess.stdout()).isEmpty();
        }
        assertThat(viaProcess).isEqualTo(inProcess(argv, stdin, env));
    }

    private static GoldenCorpus.Outcome inProcess(List<String> argv, byte[] stdin, Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(argv.toArray(String[]::new), new ByteArrayInputStream(stdin),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, GoldenCorpus.CLOCK);
        return new GoldenCorpus.Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
