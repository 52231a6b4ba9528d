package dev.agentwarden.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Makes a named pipe with {@code mkfifo} (Java has no API for one); skips the test where there is none. */
public final class Fifo {
    private Fifo() {
    }

    public static Path make(Path path) throws IOException, InterruptedException {
        Files.createDirectories(path.getParent());
        Process p;
        try {
            p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "mkfifo is not available: " + e.getMessage());
            throw e;
        }
        assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo failed");
        assumeTrue(Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS));
        return path;
    }
}
