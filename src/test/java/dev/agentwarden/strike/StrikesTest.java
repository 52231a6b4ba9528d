package dev.agentwarden.strike;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.testing.WardenProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The strike store: counts in a window, its cap, its checks, and a lock held elsewhere met with a deadline. */
class StrikesTest {
    private static final long T0 = 1_765_000_000_000L;

    @TempDir
    Path project;

    private Path home() {
        return project.resolve(".warden");
    }

    @Test
    void record_thenCount_inTheWindowOnly() throws Exception {
        Strikes.record(home(), "s1", T0);
        Strikes.record(home(), "s1", T0 + 60_000);
        assertThat(Strikes.count(home(), "s1", T0 + 60_000, 10 * 60_000)).isEqualTo(2);
        assertThat(Strikes.count(home(), "s1", T0 + 10 * 60_000, 10 * 60_000)).isEqualTo(1);
        assertThat(Strikes.count(home(), "s2", T0 + 60_000, 10 * 60_000)).isZero();
        assertThat(Strikes.file(home(), "s1").getFileName().toString()).matches("[0-9a-f]{16}\\.strikes");
        assertThat(Files.readString(Strikes.file(home(), "s1"))).isEqualTo(T0 + "\n" + (T0 + 60_000) + "\n");
    }

    @Test
    void record_countsAtMostTheCap_newestLast_andCompactsTheFile() throws Exception {
        int total = Strikes.COMPACT_AT + 5;
        for (int i = 0; i < total; i++) {
            Strikes.record(home(), "s1", T0 + i);
            long[] kept = Strikes.read(home(), "s1", T0 + i);
            assertThat(kept).hasSize(Math.min(i + 1, Strikes.MAX_STRIKES));
            assertThat(kept[kept.length - 1]).isEqualTo(T0 + i);
        }
        long lines = Files.readString(Strikes.file(home(), "s1")).lines().count();
        assertThat(lines).as("lines after compaction").isLessThan(Strikes.COMPACT_AT).isGreaterThanOrEqualTo(Strikes.MAX_STRIKES);
    }

    @Test
    void aTornLastLine_isNotRead_andTheNextRecordRewritesTheFile() throws Exception {
        Strikes.record(home(), "s1", T0);
        Path file = Strikes.file(home(), "s1");
        Files.writeString(file, Files.readString(file) + "17650", java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
        assertThat(Strikes.read(home(), "s1", T0 + 1)).containsExactly(T0);
        Strikes.record(home(), "s1", T0 + 1);
        assertThat(Files.readString(file)).isEqualTo(T0 + "\n" + (T0 + 1) + "\n");
    }

    @Test
    void aSessionWithoutAnId_keepsNothing() throws Exception {
        assertThat(Strikes.record(home(), "", T0)).isEmpty();
        assertThat(Strikes.record(home(), null, T0)).isEmpty();
        assertThat(home()).doesNotExist();
    }

    @Test
    void aFileOthersMayWrite_orNotTimes_isAFailure_neverZero() throws Exception {
        Strikes.record(home(), "s1", T0);
        Path file = Strikes.file(home(), "s1");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> Strikes.count(home(), "s1", T0, 60_000)).isInstanceOf(Strikes.Failed.class)
                .hasMessageContaining("writable by group or others");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(file, "{\"other\":1}\n");
        assertThatThrownBy(() -> Strikes.count(home(), "s1", T0, 60_000)).isInstanceOf(Strikes.Failed.class)
                .hasMessageContaining("line 1 is not a time in epoch milliseconds");
    }

    @Test
    void aLockHeldByAnotherProcess_failsAtTheDeadline_thenRecordsOnceItIsFree() throws Exception {
        Strikes.record(home(), "s1", T0);
        Process holder = lockS1InAnotherProcess();
        try {
            long start = System.nanoTime();
            assertThatThrownBy(() -> Strikes.record(home(), "s1", T0 + 1)).isInstanceOf(Strikes.Failed.class)
                    .hasMessageContaining("locked by another process past " + Strikes.LOCK_WAIT_MS + " ms");
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(waitedMs).as("waited for the lock").isGreaterThanOrEqualTo(Strikes.LOCK_WAIT_MS);
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Strikes.record(home(), "s1", T0 + 2)).containsExactly(T0, T0 + 2);
    }

    /** Another session's file held by another process delays no other session of this JVM (a resident's threads). */
    @Test
    void aLockHeldOnOneSession_doesNotDelayAnotherSessionsRecord() throws Exception {
        Strikes.record(home(), "s1", T0);
        Process holder = lockS1InAnotherProcess();
        try {
            CompletableFuture<Throwable> blocked = new CompletableFuture<>();
            Thread writer = new Thread(() -> {
                try {
                    Strikes.record(home(), "s1", T0 + 1);
                    blocked.complete(null);
                } catch (Throwable e) {
                    blocked.complete(e);
                }
            });
            writer.start();
            // s1's writer is waiting for the other process's lock (it polls with sleeps) once it is TIMED_WAITING.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (writer.getState() != Thread.State.TIMED_WAITING && !blocked.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(blocked).as("s1's writer waits for the other process's lock").isNotDone();
            assertThat(Strikes.record(home(), "s2", T0 + 1)).containsExactly(T0 + 1);
            assertThat(blocked).as("s2 recorded while s1 still waited").isNotDone();
            assertThat(blocked.get(30, TimeUnit.SECONDS)).isInstanceOf(Strikes.Failed.class)
                    .hasMessageContaining("locked by another process");
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A process that holds session s1's lock file until its stdin closes; started once it holds it. */
    private Process lockS1InAnotherProcess() throws Exception {
        Path lockFile = Strikes.file(home(), "s1").resolveSibling(
                Strikes.file(home(), "s1").getFileName().toString().replace(".strikes", ".lock"));
        Process holder = new ProcessBuilder(WardenProcess.testClassCommand(StrikeLockHolder.class, lockFile.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
        } catch (Throwable e) {
            holder.destroyForcibly();
            throw e;
        }
        return holder;
    }
}
