package dev.agentwarden.ledger;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight OS processes append 500 events each to one ledger at the same time; every line must be
 * there exactly once, whole, in one unbroken chain, with counts consistent with serial execution.
 */
class LedgerMultiProcessTest {
    static final int PROCESSES = 8;
    static final int EVENTS = 500;

    @TempDir
    Path project;

    @Test
    void append_eightProcessesConcurrently_loseNoLineAndKeepOneChain() throws Exception {
        List<Process> workers = new ArrayList<>();
        try {
            for (int w = 0; w < PROCESSES; w++) {
                workers.add(startWorker(w));
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
            for (int w = 0; w < PROCESSES; w++) {
                Process p = workers.get(w);
                assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("worker %d finished", w).isTrue();
                assertThat(p.exitValue()).as("worker %d exit; stderr: %s", w,
                        Files.readString(project.resolve("worker-" + w + ".err"))).isZero();
            }
        } finally {
            workers.forEach(Process::destroyForcibly);
        }

        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        LedgerVerifier.Report report = LedgerVerifier.verify(paths);
        assertThat(report.problems()).isEmpty();
        assertThat(report.chainLines()).isEqualTo((long) PROCESSES * EVENTS);

        Map<String, int[]> perSession = new HashMap<>();
        List<String> badCounts = new ArrayList<>();
        LedgerReader.read(paths, e -> {
            int[] c = perSession.computeIfAbsent(e.string("session_id"), k -> new int[2]);
            long concurrent = e.integer("concurrent_open");
            if ("subagent_start".equals(e.string("event"))) {
                c[0]++;
                if (e.integer("session_open") != 1 || concurrent < 1 || concurrent > PROCESSES) {
                    badCounts.add(e.location());
                }
            } else {
                c[1]++;
                if (e.integer("session_open") != 0 || !Boolean.TRUE.equals(e.fields().get("start_seen"))
                        || e.integer("duration_ms") == null || concurrent > PROCESSES - 1) {
                    badCounts.add(e.location());
                }
            }
        });
        assertThat(perSession).hasSize(PROCESSES);
        perSession.forEach((session, c) -> assertThat(c).as(session).containsExactly(EVENTS / 2, EVENTS / 2));
        assertThat(badCounts).isEmpty();
        try (var open = Files.list(paths.openDir())) {
            assertThat(open).isEmpty();
        }
    }

    private Process startWorker(int w) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-cp", classpath,
                LedgerAppendMain.class.getName(), project.toString(), String.valueOf(w), String.valueOf(EVENTS))
                .redirectError(project.resolve("worker-" + w + ".err").toFile())
                .start();
    }
}
