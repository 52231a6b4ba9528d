package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A host that opens the hook's stdin and never closes it: the packaged jar, as a process, stops
 * waiting after {@code WARDEN_STDIN_TIMEOUT_MS} and answers per the bad-input rule, through the
 * host's adapter. The test holds the pipe's write end open for the whole run.
 */
class DispatchStdinDeadlineIT {
    @RegisterExtension
    static final GoldenCorpus.Project project = new GoldenCorpus.Project();

    @Test
    void dispatch_stdinNeverClosedWithFailClosedConcern_refusesThePreToolUse() throws Exception {
        Answer a = dispatchWithOpenStdin(List.of("dispatch", "--host", "claude", "--native-event", "PreToolUse",
                "--manifest", GoldenCorpus.manifest().toString()));

        assertThat(a.exitCode).isZero();
        assertThat(a.stdout).contains("\"permissionDecision\":\"deny\"").contains("payload_timeout");
        assertThat(a.stderr).contains("warden: payload_timeout: stdin still open after 300 ms (WARDEN_STDIN_TIMEOUT_MS)")
                .contains("refused (fail_closed)");
    }

    @Test
    void dispatch_stdinNeverClosedOnCodexStop_allowsWithTheJsonCodexRequires() throws Exception {
        Answer a = dispatchWithOpenStdin(List.of("dispatch", "--host", "codex", "--native-event", "Stop"));

        assertThat(a.exitCode).isZero();
        assertThat(a.stdout).isEqualTo("{}");
        assertThat(a.stderr).contains("warden: payload_timeout: stdin still open after 300 ms").contains("allowing");
    }

    private record Answer(int exitCode, String stdout, String stderr) {
    }

    /** Runs the jar with a stdin pipe whose write end this test keeps open until the process is gone. */
    private static Answer dispatchWithOpenStdin(List<String> args) throws IOException, InterruptedException {
        Path io = Files.createTempDirectory("warden-stdin-deadline");
        try {
            List<String> command = new ArrayList<>();
            command.add(WardenProcess.java().toString());
            command.addAll(WardenProcess.FLAGS);
            command.add("-jar");
            command.add(WardenProcess.jar().toString());
            command.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(command).directory(project.dir.toFile())
                    .redirectOutput(io.resolve("stdout").toFile()).redirectError(io.resolve("stderr").toFile());
            pb.environment().clear();
            pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            pb.environment().put("LANG", "C");
            pb.environment().putAll(Map.of("WARDEN_CACHE_DIR", project.cache.toString(),
                    "CLAUDE_PROJECT_DIR", project.dir.toString(), "WARDEN_STDIN_TIMEOUT_MS", "300"));
            Process p = pb.start();
            OutputStream stdin = p.getOutputStream();
            try {
                // Half an event, then silence: the host is alive, the pipe stays open.
                stdin.write("{\"hook_event_name\":".getBytes(StandardCharsets.UTF_8));
                stdin.flush();
                boolean ended = p.waitFor(WardenProcess.TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (!ended) {
                    p.destroyForcibly();
                }
                assertThat(ended).as("dispatch answered while its stdin was still open").isTrue();
            } finally {
                stdin.close();
            }
            return new Answer(p.exitValue(), Files.readString(io.resolve("stdout"), StandardCharsets.UTF_8),
                    Files.readString(io.resolve("stderr"), StandardCharsets.UTF_8));
        } finally {
            GoldenCorpus.deleteTree(io);
        }
    }
}
