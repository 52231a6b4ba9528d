package dev.agentwarden.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
