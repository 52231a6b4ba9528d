package dev.agentwarden.io;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Removal of a scratch directory Warden made: its entries first, a link removed as a link (never
 * followed), without streams or lambdas, so that the archive trainings that use it record none.
 */
public final class ScratchTree {
    private ScratchTree() {
    }

    /** Deletes {@code root} and what is below it, as far as it can; what cannot be deleted stays. */
    public static void delete(Path root) {
        if (Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(root)) {
                for (Path entry : entries) {
                    delete(entry);
                }
            } catch (IOException | RuntimeException e) {
                // left in place: the caller's scratch directory is its own and private
            }
        }
        try {
            Files.deleteIfExists(root);
        } catch (IOException e) {
            // left in place, as above
        }
    }
}
