package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.ResidentProcess;
import dev.agentwarden.testing.Scratch;
import dev.agentwarden.testing.TestTrust;
import dev.agentwarden.testing.WardenProcess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus ({@link GoldenCorpus}) through {@code bin/warden dispatch} with a resident
 * server running: every case is forwarded (the launcher's {@code java} refuses to start) and must
 * match its expectation with stdout, stderr and exit code byte-identical to the in-process run.
 * One resident serves every case; each case runs in a fresh project of its own (the class's cache,
 * where the resident is), so the cases run side by side on the parallel pool's threads.
 */
@Execution(ExecutionMode.CONCURRENT)
class GoldenForwardIT {
    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();
    private static ResidentProcess resident;
    private static Path calls;
    private static Path java;
    /** The cases' own projects, deleted once the resident has stopped. */
    private static final Queue<GoldenCorpus.Project> PROJECTS = new ConcurrentLinkedQueue<>();

    @BeforeAll
    static void start() throws Exception {
        resident = ResidentProcess.start(project.cache, 600);
        calls = project.cache.resolve("java-calls");
        java = ResidentProcess.forbiddenJava(project.cache, calls);
    }

    @AfterAll
    static void stop() throws Exception {
        resident.close();
        assertThat(Files.exists(resident.endpointFile())).as("endpoint withdrawn on stop").isFalse();
        for (GoldenCorpus.Project p : PROJECTS) {
            Scratch.delete(p.dir);
        }
    }

    static Stream<Named<GoldenCorpus.Case>> cases() throws IOException {
        return GoldenCorpus.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dispatch_forwardedToResident_matchesGoldenAndInProcess(GoldenCorpus.Case c) throws Exception {
        GoldenCorpus.Project own = GoldenCorpus.Project.open(project.cache);
        PROJECTS.add(own);
        Map<String, String> env = new LinkedHashMap<>(own.env(c));
        env.putAll(ResidentProcess.noJvm(java));

        WardenProcess.Result r = WardenProcess.runLauncher(c.argv(), env, c.stdin(), own.dir);

        ResidentProcess.assertNoJvmStarted(calls);
        GoldenCorpus.Outcome forwarded = new GoldenCorpus.Outcome(r.exitCode(), r.stdout(), r.stderr());
        GoldenCorpus.assertMatches(c, forwarded);
        assertThat(forwarded.normalized()).as("forwarded and in-process runs agree")
                .isEqualTo(GoldenCorpus.runInProcess(c, own).normalized());
    }

    /** A concern whose stderr holds NUL bytes: forwarded, the answer is still byte for byte the in-process one. */
    @Test
    void dispatch_nulBytesInAConcernsStderr_forwardedByteForByte_concernRanOnce() throws Exception {
        Path dir = Files.createDirectories(project.dir.resolve("nul-project"));
        Path script = dir.resolve("nul.sh");
        Files.writeString(script, "#!/bin/sh\necho ran >> \"$(dirname \"$0\")/runs\"\nprintf '\\000a\\000\\000b\\000' >&2\nexit 3\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        Files.createDirectories(dir.resolve(".warden"));
        Files.writeString(dir.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  nul: {script: nul.sh}
                platforms:
                  claude:
                    pre_tool_use: [nul]
                native_event_aliases:
                  claude:
                    PreToolUse: pre_tool_use
                """);
        List<String> argv = List.of("dispatch", "--host", "claude", "--project-dir", dir.toString());
        byte[] stdin = "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}"
                .getBytes(StandardCharsets.UTF_8);
        Map<String, String> wardenEnv = Map.of("WARDEN_CACHE_DIR", project.cache.toString(),
                "XDG_STATE_HOME", TestTrust.stateHome(dir));
        TestTrust.trust(dir, wardenEnv);
        Map<String, String> env = new LinkedHashMap<>(wardenEnv);
        env.putAll(ResidentProcess.noJvm(java));

        WardenProcess.Result r = WardenProcess.runLauncher(argv, env, stdin, dir);

        ResidentProcess.assertNoJvmStarted(calls);
        assertThat(Files.readAllLines(dir.resolve("runs"))).as("runs of the concern").hasSize(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DispatchCall.run(argv.toArray(String[]::new), new ByteArrayInputStream(stdin),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                wardenEnv, GoldenCorpus.CLOCK);
        assertThat(r.stderr()).contains("\0a\0\0b").isEqualTo(err.toString(StandardCharsets.UTF_8));
        assertThat(r.stdout()).isEqualTo(out.toString(StandardCharsets.UTF_8));
        assertThat(r.exitCode()).isEqualTo(code);
    }
}
