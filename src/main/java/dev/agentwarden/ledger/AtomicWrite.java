package dev.agentwarden.ledger;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/** Replaces a file whole: a temporary sibling, then an atomic rename, so readers see old or new bytes, never a mix. */
final class AtomicWrite {
    /** Suffix of the temporary siblings; readers ignore such names. */
    static final String TMP_SUFFIX = ".tmp";
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final int ATTEMPTS = 8;

    private AtomicWrite() {
    }

    static void write(Path target, byte[] bytes) throws IOException {
        Path tmp = createSibling(target, bytes);
        try {
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new temporary sibling holding {@code bytes}; the name is unique among processes by exclusive creation. */
    private static Path createSibling(Path target, byte[] bytes) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Path tmp = target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(System.nanoTime())
                    + "-" + SEQUENCE.incrementAndGet() + TMP_SUFFIX);
            try {
                Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                return tmp;
            } catch (FileAlreadyExistsException taken) {
                if (attempt == ATTEMPTS) {
                    throw taken;
                }
            }
        }
    }
}
