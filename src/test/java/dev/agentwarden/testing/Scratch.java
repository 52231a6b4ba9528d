package dev.agentwarden.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Scratch folders a test made outside JUnit's {@code @TempDir}: deleted when the test is done with them. */
public final class Scratch {
    private Scratch() {
    }

    /**
     * Deletes {@code dir} and everything in it, as far as it can: what is left (a file a stopped process still
     * wrote) stays for the system's temp clean-up, and a test's verdict never depends on it.
     */
    public static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            List<Path> deepestFirst = paths.sorted(Comparator.reverseOrder()).toList();
            for (Path p : deepestFirst) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // Left behind; see above.
        }
    }

    /**
     * Waits, at most {@code limit}, until no process of this machine works in {@code dir} or below it (its
     * {@code /proc/<pid>/cwd}): a host may exit while hooks it started still run, and one still writing there when
     * JUnit deletes the folder fails the clean-up. Returns the pids still working there at the deadline.
     */
    public static List<Long> awaitNoProcessWorkingIn(Path dir, Duration limit) throws InterruptedException {
        Path real;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            return List.of();
        }
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            List<Long> inside = new ArrayList<>();
            for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
                try {
                    if (Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd")).startsWith(real)) {
                        inside.add(p.pid());
                    }
                } catch (IOException | SecurityException e) {
                    // gone, or another user's
                }
            }
            if (inside.isEmpty() || System.nanoTime() - deadline > 0) {
                return inside;
            }
            Thread.sleep(100);
        }
    }
}
