package dev.agentwarden.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replaces a file whole: a temporary sibling, then an atomic rename, so readers see old or new
 * bytes, never a mix, and concurrent writers never share a temporary file. The parent directory
 * must exist.
 */
public final class AtomicWrite {
    /** Suffix of the temporary siblings; readers of a directory skip such names. */
    public static final String TMP_SUFFIX = ".tmp";
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final int ATTEMPTS = 8;

    private AtomicWrite() {
    }

    /** Writes with the permissions new files get by default. */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, bytes, null);
    }

    /**
     * Writes a file that has exactly {@code permissions} from the moment it exists (where the file
     * system has POSIX permissions), so a secret is never readable by others, not even briefly.
     *
     * @param permissions the new file's permissions, or {@code null} for the default
     */
    public static void write(Path target, byte[] bytes, Set<PosixFilePermission> permissions) throws IOException {
        Path tmp = createSibling(target, bytes, permissions);
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
    private static Path createSibling(Path target, byte[] bytes, Set<PosixFilePermission> permissions)
            throws IOException {
        for (int attempt = 1; ; attempt++) {
            Path tmp = target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(System.nanoTime())
                    + "-" + SEQUENCE.incrementAndGet() + TMP_SUFFIX);
            try {
                if (permissions == null) {
                    Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } else {
                    writeNew(tmp, bytes, permissions);
                }
                return tmp;
            } catch (FileAlreadyExistsException taken) {
                if (attempt == ATTEMPTS) {
                    throw taken;
                }
            }
        }
    }

    private static void writeNew(Path tmp, byte[] bytes, Set<PosixFilePermission> permissions) throws IOException {
        boolean posix = tmp.getFileSystem().supportedFileAttributeViews().contains("posix");
        try (SeekableByteChannel channel = posix
                ? Files.newByteChannel(tmp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(permissions))
                : Files.newByteChannel(tmp, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
        if (posix) {
            // The creation mode passes through the umask; set exactly what was asked for.
            Files.setPosixFilePermissions(tmp, permissions);
        }
    }
}
