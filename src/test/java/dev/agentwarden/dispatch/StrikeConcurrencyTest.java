package dev.agentwarden.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.strike.Strikes;
import dev.agentwarden.testing.WardenProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent refused dispatches of one session, on threads of one JVM (a resident) and in several
 * processes (own-JVM hooks) at once, lose no strike: the store holds exactly one per dispatch, while
 * they append and the file is compacted under them.
 */
class StrikeConcurrencyTest {
    private static final int PROCESSES = 3;
    private static final int THREADS = 3;
    private static final int EVENTS = 8;
    /** Lines already in the file: the run's strikes cross the compaction size (512 lines). */
    private static final int STALE = 480;

    @TempDir
    Path project;
    @TempDir
    Path cache;

    @Test
    void concurrentDispatches_threadsAndProcesses_loseNoStrike() throws Exception {
        Path manifest = Files.writeString(project.resolve("policy.yaml"), """
                schema_version: 1
                concerns:
                  no-rm:
                    script: builtin:deny-pattern
                    patterns:
                      - {match: '^rm ', reason: 'rm refused'}
                platforms:
                  claude:
                    pre_tool_use: [no-rm]
                """);
        // stale strikes (older than a day) fill the file near its compaction size, so the run appends and compacts
        long now = Instant.parse("2026-12-07T14:00:00Z").toEpochMilli();
        Path file = Strikes.file(project.resolve(".warden"), "s1");
        Files.createDirectories(file.getParent());
        Files.writeString(file, (now - Duration.ofHours(25).toMillis() + "\n").repeat(STALE));
        List<Process> workers = new ArrayList<>();
        for (int w = 0; w < PROCESSES; w++) {
            workers.add(new ProcessBuilder(WardenProcess.testClassCommand(StrikeDispatchWorker.class, project.toString(),
                    manifest.toString(), cache.toString(), "s1", String.valueOf(THREADS), String.valueOf(EVENTS)))
                    .redirectErrorStream(true).redirectOutput(project.resolve("worker-" + w + ".log").toFile()).start());
        }
        boolean here = StrikeDispatchWorker.run(project, manifest, cache, "s1", THREADS, EVENTS);

        for (int w = 0; w < PROCESSES; w++) {
            Process p = workers.get(w);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("worker %d finished", w).isTrue();
            assertThat(p.exitValue()).as(Files.readString(project.resolve("worker-" + w + ".log"))).isZero();
        }
        assertThat(here).isTrue();
        assertThat(Strikes.read(project.resolve(".warden"), "s1", now)).hasSize((PROCESSES + 1) * THREADS * EVENTS);
    }
}
