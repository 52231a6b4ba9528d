package dev.agentwarden.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;

/**
 * Opens files that a cloned repository may have planted, without following them anywhere.
 *
 * <p>Writes stay inside a root (the project): every directory from the root down to the file's
 * parent must be a real directory, not a symbolic link (missing ones are created), and the file
 * itself must be absent or a regular file, checked without following links before it is opened
 * (a FIFO would block an open for writing) and again on the same path after, where its identity
 * (device and inode) must not have changed. Opens pass {@code O_NOFOLLOW}, or {@code O_EXCL} for a
 * new file, so a link swapped in between is refused by the kernel too.
 *
 * <p>Reads open only regular files, with a byte cap per call; a FIFO, device or directory is
 * refused before it is opened, so no read can block or run forever.
 *
 * <p>What is not covered: a process of the same user racing to swap a directory for a link
 * between the walk and the open; hard links (a repository cannot ship one).
 */
public final class StateFiles {
    private static final OpenOption[] READ = {StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS};
    private static final OpenOption[] READ_FOLLOW = {StandardOpenOption.READ};

    private StateFiles() {
    }

    /** Creates {@code dir} and its missing ancestors below {@code root}; each must be a real directory. */
    public static void ensureDirectory(Path root, Path dir) throws IOException {
        walk(root, dir, true);
    }

    /**
     * Whether {@code dir} exists as a real directory below {@code root}, with no link on the way.
     *
     * @throws UnsafeFileException when some component is a link or not a directory
     */
    public static boolean isDirectory(Path root, Path dir) throws IOException {
        return walk(root, dir, false);
    }

    /** Opens a regular file below {@code root} for appending, creating it when absent. */
    public static FileChannel openAppend(Path root, Path file) throws IOException {
        return openForWrite(root, file, true).channel();
    }

    /**
     * A file opened for appending ({@link #openAppendIdentified}), with the identity (device and
     * inode, {@link BasicFileAttributes#fileKey}) it was checked to have at its path before and after
     * the open; {@code null} when the open created it (nothing was checked after).
     */
    public record Opened(FileChannel channel, Object fileKey) {
    }

    /** {@link #openAppend}, also giving the identity of the file opened, to tell later whether the path still names it. */
    public static Opened openAppendIdentified(Path root, Path file) throws IOException {
        return openForWrite(root, file, true);
    }

    /**
     * The identity of what {@code file} names now, its last component not followed, or {@code null}
     * when it is absent or not a regular file: one {@code lstat}.
     */
    public static Object regularFileKey(Path file) throws IOException {
        BasicFileAttributes a = lstat(file);
        return a == null || !a.isRegularFile() ? null : a.fileKey();
    }

    /** Opens a regular file below {@code root} for writing in place (no truncation), creating it when absent. */
    public static FileChannel openWrite(Path root, Path file) throws IOException {
        return openForWrite(root, file, false).channel();
    }

    /**
     * Replaces a file below {@code root} whole ({@link AtomicWrite}); refuses when the path is a
     * link or anything but a regular file.
     */
    public static void replace(Path root, Path file, byte[] bytes) throws IOException {
        ensureDirectory(root, parentOf(file));
        BasicFileAttributes a = lstat(file);
        if (a != null) {
            requireRegular(file, a);
        }
        AtomicWrite.write(file, bytes);
    }

    /**
     * Creates a new file below {@code root} holding {@code bytes} ({@code O_EXCL}, which never
     * follows a link).
     *
     * @throws FileAlreadyExistsException when the name is taken
     */
    public static void createNew(Path root, Path file, byte[] bytes) throws IOException {
        ensureDirectory(root, parentOf(file));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            writeFully(ch, ByteBuffer.wrap(bytes), -1);
        }
    }

    /**
     * Deletes a file below {@code root} when present, after checking that no directory on the way
     * is a link (so the unlink cannot land outside); the file itself is unlinked, never followed.
     *
     * @return {@code true} when this call removed it
     */
    public static boolean delete(Path root, Path file) throws IOException {
        if (!walk(root, parentOf(file), false)) {
            return false;
        }
        return Files.deleteIfExists(file);
    }

    /**
     * Opens a regular file for reading.
     *
     * @param followLinks follow a link to its target (which must then be a regular file), as for an
     *                    agent file the hosts themselves follow; {@code false} refuses links
     * @throws NoSuchFileException  when it does not exist
     * @throws UnsafeFileException  when it is not a regular file (FIFO, device, directory) or a refused link
     */
    public static FileChannel openRead(Path file, boolean followLinks) throws IOException {
        BasicFileAttributes before = followLinks ? Files.readAttributes(file, BasicFileAttributes.class)
                : Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        requireRegular(file, before);
        FileChannel ch = FileChannel.open(file, followLinks ? READ_FOLLOW : READ);
        try {
            BasicFileAttributes after = followLinks ? Files.readAttributes(file, BasicFileAttributes.class)
                    : Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            requireSame(file, before, after);
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Reads a whole regular file of at most {@code maxBytes} bytes.
     *
     * @throws NoSuchFileException when it does not exist
     * @throws UnsafeFileException {@code file_too_large} when it holds more than {@code maxBytes},
     *                             or when it is not a regular file
     */
    public static byte[] readAll(Path file, long maxBytes, boolean followLinks) throws IOException {
        if (maxBytes < 0 || maxBytes >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxBytes out of range: " + maxBytes);
        }
        try (FileChannel ch = openRead(file, followLinks)) {
            long size = ch.size();
            if (size > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            byte[] buf = new byte[(int) Math.min(maxBytes + 1, size + 1)];
            int total = 0;
            while (true) {
                if (total == buf.length) {
                    if (total > maxBytes) {
                        throw tooLarge(file, maxBytes);
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(maxBytes + 1, buf.length * 2L));
                }
                int n = ch.read(ByteBuffer.wrap(buf, total, buf.length - total));
                if (n < 0) {
                    break;
                }
                total += n;
            }
            if (total > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            return total == buf.length ? buf : Arrays.copyOf(buf, total);
        }
    }

    /**
     * Reads a whole file of at most {@code maxBytes} bytes that a repository under {@code root} may
     * have planted ({@code .mcp.json}, hook settings, manifests): it must be a regular file, or a
     * link to a regular file that is itself under {@code root}; a link out of the project, to a
     * device ({@code /dev/zero}), a FIFO or a directory is refused before any byte is read, and the
     * cap applies to the bytes read, whatever size the file reports.
     *
     * @throws NoSuchFileException when it does not exist (or is a dangling link)
     * @throws UnsafeFileException {@code state_outside_project}, {@code state_not_regular} or {@code file_too_large}
     */
    public static byte[] readInside(Path root, Path file, long maxBytes) throws IOException {
        BasicFileAttributes a = lstat(file);
        if (a == null) {
            throw new NoSuchFileException(file.toString());
        }
        if (a.isSymbolicLink()) {
            Path target = file.toRealPath();
            if (!target.startsWith(root.toRealPath())) {
                throw new UnsafeFileException("state_outside_project", file + " is a symbolic link to " + target
                        + ", outside " + root + "; Warden follows no link out of the project (not read)");
            }
        }
        return readAll(file, maxBytes, true);
    }

    /** Writes every byte, at {@code position} when it is not negative, else at the channel's position. */
    public static void writeFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            if (pos < 0) {
                ch.write(buf);
            } else {
                pos += ch.write(buf, pos);
            }
        }
    }

    private static Opened openForWrite(Path root, Path file, boolean append) throws IOException {
        ensureDirectory(root, parentOf(file));
        BasicFileAttributes before = lstat(file);
        if (before == null) {
            try {
                return new Opened(FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                        append ? StandardOpenOption.APPEND : StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS), null);
            } catch (FileAlreadyExistsException raced) {
                before = lstat(file);
                if (before == null) {
                    throw raced;
                }
            }
        }
        requireRegular(file, before);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE,
                append ? StandardOpenOption.APPEND : StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        try {
            requireSame(file, before, lstat(file));
            return new Opened(ch, before.fileKey());
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The project's state directory, relative to the project root. */
    private static final Path STATE_DIR = Path.of(".warden", "state");

    /**
     * A {@code .gitignore} of {@code *} in the state directory Warden just created, so that a
     * project's ledger, decision log and markers are never committed by accident. Best effort: a
     * state directory without it works the same.
     */
    private static void keepOutOfGit(Path stateDir) {
        try {
            Files.write(stateDir.resolve(".gitignore"),
                    "# Warden's state: never committed (written by Warden when it made this directory)\n*\n"
                            .getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException ignored) {
            // someone else's file there, or an unwritable directory: only the convenience is lost
        }
    }

    /** Walks from {@code root} to {@code dir}; {@code false} when a component is missing and not created. */
    private static boolean walk(Path root, Path dir, boolean create) throws IOException {
        Path base = root.toAbsolutePath().normalize();
        Path target = dir.toAbsolutePath().normalize();
        if (!target.startsWith(base)) {
            throw new UnsafeFileException("state_outside_project", target + " is not inside " + base);
        }
        Path current = base;
        for (Path name : base.relativize(target)) {
            current = current.resolve(name);
            BasicFileAttributes a = lstat(current);
            if (a == null) {
                if (!create) {
                    return false;
                }
                boolean made = false;
                try {
                    Files.createDirectory(current);
                    made = true;
                } catch (FileAlreadyExistsException raced) {
                    // another writer made it; checked below like any existing one
                }
                if (made && current.equals(base.resolve(STATE_DIR))) {
                    keepOutOfGit(current);
                }
                a = lstat(current);
                if (a == null) {
                    throw new NoSuchFileException(current.toString(), null, "removed while being created");
                }
            }
            if (a.isSymbolicLink()) {
                throw new UnsafeFileException("state_symlink_refused", current
                        + " is a symbolic link; Warden does not follow links in its state (remove it)");
            }
            if (!a.isDirectory()) {
                throw new UnsafeFileException("state_not_directory", current + " is not a directory (remove it)");
            }
        }
        return true;
    }

    private static Path parentOf(Path file) {
        Path parent = file.toAbsolutePath().normalize().getParent();
        if (parent == null) {
            throw new IllegalArgumentException("no parent directory: " + file);
        }
        return parent;
    }

    /** The attributes of the path itself (links not followed), or {@code null} when it does not exist. */
    private static BasicFileAttributes lstat(Path p) throws IOException {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static void requireRegular(Path file, BasicFileAttributes a) throws UnsafeFileException {
        if (a.isSymbolicLink()) {
            throw new UnsafeFileException("state_symlink_refused", file
                    + " is a symbolic link; Warden does not follow links here (remove it)");
        }
        if (!a.isRegularFile()) {
            throw new UnsafeFileException("state_not_regular", file + " is "
                    + (a.isDirectory() ? "a directory" : "not a regular file (a FIFO, socket or device)")
                    + "; Warden opens only regular files here (remove it)");
        }
    }

    private static void requireSame(Path file, BasicFileAttributes before, BasicFileAttributes after)
            throws UnsafeFileException {
        if (after == null || !after.isRegularFile() || !Objects.equals(before.fileKey(), after.fileKey())) {
            throw new UnsafeFileException("file_changed_while_opening", file
                    + " was replaced while it was being opened; refused");
        }
    }

    private static UnsafeFileException tooLarge(Path file, long maxBytes) {
        return new UnsafeFileException("file_too_large", file + " holds more than " + maxBytes + " bytes, the limit");
    }
}
