package dev.agentwarden.ledger;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Replaces a file whole: a temporary sibling, then an atomic rename, so readers see old or new bytes, never a mix. */
final class AtomicWrite {
    /** Suffix of the temporary siblings; readers ignore such names. */
    static final String TMP_SUFFIX = ".tmp";

    private AtomicWrite() {
    }

    static void write(Path target, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", TMP_SUFFIX);
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
