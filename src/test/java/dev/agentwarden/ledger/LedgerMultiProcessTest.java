package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.testing.WardenProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many OS processes append events to one ledger at the same time; every event must be there
 * exactly once, whole, in one unbroken chain, with counts consistent with serial execution.
 */
class LedgerMultiProcessTest {
    @TempDir
    Path project;

    @Test
    void append_eightProcessesConcurrently_loseNoLineAndKeepOneChain() throws Exception {
        runWorkers(8, 500);

        LedgerVerifier.Report report = LedgerVerifier.verify(LedgerPaths.forRoot(project.toString()));
        assertThat(report.problems()).isEmpty();
        assertThat(report.chainLines()).isEqualTo(8L * 500);
        assertCounts(8, 500);
    }

    /**
     * Issue 10 item 11: 24 cold JVMs on a 2-core machine used to pass the old 5 s lock wait and drop
     * events silently. Now none is lost: each is in the chain, or was spooled and is folded in by
     * the next write (here a final one), never dropped.
     */
    @Test
    void append_twentyFourColdProcessesConcurrently_loseNoEvent() throws Exception {
        runWorkers(24, 10);
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        new LedgerStore(paths, Clock.systemUTC()).append(Map.of("event", "fold_marker"));

        LedgerVerifier.Report report = LedgerVerifier.verify(paths);
        assertThat(report.problems()).isEmpty();
        assertThat(Spool.pending(paths)).isEmpty();
        assertThat(report.chainLines()).isEqualTo(24L * 10 + 1);
        assertCounts(24, 10);
    }

    private void runWorkers(int processes, int events) throws Exception {
        List<Process> workers = new ArrayList<>();
        try {
            for (int w = 0; w < processes; w++) {
                workers.add(startWorker(w, events));
            }
            for (Process p : workers) {
                String first = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
                assertThat(first).as("worker handshake").isEqualTo("ready");
            }
            for (Process p : workers) {
                try (OutputStream go = p.getOutputStream()) {
                    go.write("go\n".getBytes(StandardCharsets.UTF_8));
                }
            }
            for (int w = 0; w < processes; w++) {
                Process p = workers.get(w);
                assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("worker %d finished", w).isTrue();
                assertThat(p.exitValue()).as("worker %d exit; stderr: %s", w,
                        Files.readString(project.resolve("worker-" + w + ".err"))).isZero();
            }
        } finally {
            workers.forEach(Process::destroyForcibly);
        }
    }

    private void assertCounts(int processes, int events) throws IOException {
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        Map<String, int[]> perSession = new HashMap<>();
        List<String> badCounts = new ArrayList<>();
        LedgerReader.read(paths, e -> {
            if (!e.string("event").startsWith("subagent_")) {
                return;
            }
            int[] c = perSession.computeIfAbsent(e.string("session_id"), k -> new int[2]);
            long concurrent = e.integer("concurrent_open");
            if ("subagent_start".equals(e.string("event"))) {
                c[0]++;
                if (e.integer("session_open") != 1 || concurrent < 1 || concurrent > processes) {
                    badCounts.add(e.location());
                }
            } else {
                c[1]++;
                if (e.integer("session_open") != 0 || !Boolean.TRUE.equals(e.fields().get("start_seen"))
                        || e.integer("duration_ms") == null || concurrent > processes - 1) {
                    badCounts.add(e.location());
                }
            }
        });
        assertThat(perSession).hasSize(processes);
        perSession.forEach((session, c) -> assertThat(c).as(session).containsExactly(events / 2, events / 2));
        assertThat(badCounts).isEmpty();
        try (var open = Files.list(paths.openDir())) {
            assertThat(open).isEmpty();
        }
    }

    private Process startWorker(int w, int events) throws IOException {
        return new ProcessBuilder(WardenProcess.testClassCommand(LedgerAppendMain.class, project.toString(),
                String.valueOf(w), String.valueOf(events)))
                .redirectError(project.resolve("worker-" + w + ".err").toFile())
                .start();
    }
}
