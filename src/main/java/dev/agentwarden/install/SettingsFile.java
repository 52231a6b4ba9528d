package dev.agentwarden.install;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.json.JsonSplice;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A host's JSON settings file, changed safely. An edit works on the file's bytes, so whatever it
 * does not splice in or out stays byte for byte as written (see {@link JsonSplice}).
 *
 * <ul>
 *   <li>A file that is not a JSON object, or over {@link #MAX_BYTES}, is refused and left exactly
 *       as it was; so is a read-only file (no write bit for its owner), even for root.</li>
 *   <li>A symbolic link (dotfiles) is followed along its chain and its final target edited, in
 *       the target's directory, keeping the target's mode; the link stays a link. A dangling link
 *       or a loop is refused. With a confining directory (a project), a target outside it is
 *       refused, so a cloned repository cannot point an install at another file.</li>
 *   <li>The edit runs under an exclusive lock and its result replaces the file atomically
 *       (temporary file + rename): a reader never sees half a file and two installers never lose
 *       each other's change. The lock file lives in the caller's lock directory (Warden's cache),
 *       not beside the settings, where it could be committed; an uninstall removes it, and removes a
 *       settings file an install created when it leaves it empty ({@link #updateAndTidy}).</li>
 * </ul>
 */
public final class SettingsFile implements HookFile {
    /** Largest settings file accepted. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    /** What an absent or blank file reads as. */
    private static final byte[] EMPTY = "{}\n".getBytes(StandardCharsets.UTF_8);

    private static final int MAX_LINKS = 40;

    /**
     * One monitor per lock file: a {@link FileLock} orders processes, but a second thread of the same
     * JVM asking for it gets an {@link java.nio.channels.OverlappingFileLockException}.
     */
    private static final ConcurrentHashMap<Path, Object> LOCKS_IN_THIS_JVM = new ConcurrentHashMap<>();

    private final Path file;
    private final Path lockDir;
    private final Path confinedTo;
    /** Whether the document is a JSON object (checked on read) rather than TOML text taken as it is. */
    private final boolean json;

    /**
     * @param file       the settings file as the host names it
     * @param lockDir    where lock files are kept (created if absent)
     * @param confinedTo a directory the file must resolve inside, or {@code null} for anywhere
     */
    public SettingsFile(Path file, Path lockDir, Path confinedTo) {
        this(file, lockDir, confinedTo, true);
    }

    private SettingsFile(Path file, Path lockDir, Path confinedTo, boolean json) {
        this.file = file.toAbsolutePath();
        this.lockDir = lockDir;
        this.confinedTo = confinedTo;
        this.json = json;
    }

    /**
     * A TOML settings file (Codex's {@code requirements.toml}): the same locking, link and size rules, but
     * the bytes go to the edit as they are (absent reads as no bytes; the edit checks what it splices
     * into), and an uninstall that leaves no bytes removes a file its install created.
     */
    public static SettingsFile toml(Path file, Path lockDir, Path confinedTo) {
        return new SettingsFile(file, lockDir, confinedTo, false);
    }

    @Override
    public Path path() {
        return file;
    }

    /** An edit of a settings document: the current bytes in, the new bytes out. */
    @FunctionalInterface
    public interface Edit {
        byte[] apply(byte[] document) throws SettingsException;
    }

    /**
     * The one member named {@code key}, {@code null} if none; refused when named twice (which one a
     * host reads is unclear). {@code path} is the member's JSON path prefix, for the message.
     */
    public static JsonSpans.Member onlyMember(JsonSpans.Value object, String key, String path) throws SettingsException {
        List<JsonSpans.Member> found = object.named(key);
        if (found.size() > 1) {
            throw new SettingsException("settings_duplicate_key", "\"" + path + key + "\" is named " + found.size()
                    + " times; merge them into one, then run again. It was left unchanged.");
        }
        return found.isEmpty() ? null : found.get(0);
    }

    /** The string value of the one member named {@code key} of an object; {@code null} otherwise. */
    public static String stringMember(JsonSpans.Value object, String key) {
        if (object.kind() != JsonSpans.Kind.OBJECT) {
            return null;
        }
        List<JsonSpans.Member> found = object.named(key);
        return found.size() == 1 && found.get(0).value().kind() == JsonSpans.Kind.STRING ? found.get(0).value().text() : null;
    }

    /** A settings file that cannot be changed, with a stable code. */
    public static final class SettingsException extends Exception {
        private static final long serialVersionUID = 1L;
        private final String code;

        public SettingsException(String code, String message) {
            super(message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /**
     * The file edits go to: the settings file itself, or the final target of the links it is.
     *
     * @throws SettingsException for a dangling link or loop, a target that is not a regular file,
     *                           or one outside the confining directory
     */
    public Path target() throws SettingsException {
        Path target = file;
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            target = followLinks(file);
            if (!Files.isRegularFile(target)) {
                throw new SettingsException("settings_not_a_file", file + " is not a regular file; it was left unchanged.");
            }
        } else {
            target = realAncestor(file);
        }
        if (confinedTo != null) {
            Path root = realAncestor(confinedTo.toAbsolutePath());
            if (!target.startsWith(root)) {
                throw new SettingsException("settings_outside_project", file + " leads to " + target
                        + ", outside the project " + root + "; Warden writes a project's settings only inside it."
                        + " Replace the link with a file, or use --scope user for your own settings. Nothing was written.");
            }
        }
        return target;
    }

    /** The current content of the target, checked to be a JSON object; an absent or blank file reads as {@code {}}. */
    @Override
    public byte[] read() throws SettingsException {
        return read(target());
    }

    /** The bytes {@code edit} would write, with every check {@link #update} makes; nothing is written. */
    @Override
    public byte[] preview(Edit edit) throws SettingsException {
        Path target = target();
        byte[] before = read(target);
        byte[] after = apply(edit, before, target);
        if (!Arrays.equals(after, before) || !Files.exists(target)) {
            checkWritable(target);
        }
        return after;
    }

    /**
     * Applies {@code edit} under the lock and writes its result atomically; returns the new content.
     * Nothing is written when the content is unchanged and the file exists. The file and
     * directories this creates are recorded ({@link CreatedPaths}) for {@link #updateAndTidy}.
     */
    @Override
    public byte[] update(Edit edit) throws SettingsException {
        return update(edit, null);
    }

    /**
     * As {@link #update}, for an uninstall: when the result is an object with no member and the
     * file is one an update created, the file is removed along with the directories created for
     * it that are empty; and the lock file is retired and removed. {@code removed} receives what
     * was removed.
     */
    @Override
    public byte[] updateAndTidy(Edit edit, List<Path> removed) throws SettingsException {
        return update(edit, removed);
    }

    private byte[] update(Edit edit, List<Path> tidy) throws SettingsException {
        Path target = target();
        List<Path> created = CreatedPaths.missing(target);
        try {
            Files.createDirectories(target.getParent());
        } catch (IOException e) {
            throw new SettingsException("settings_unwritable", "cannot create " + target.getParent() + ": " + e.getMessage());
        }
        Path lockFile = lockFile(target);
        Path record = lockFile.resolveSibling(lockFile.getFileName().toString().replace(".lock", ".created"));
        synchronized (LOCKS_IN_THIS_JVM.computeIfAbsent(lockFile, k -> new Object())) {
            FileChannel channel = null;
            try {
                channel = lock(lockFile);
                byte[] before = read(target);
                byte[] after = apply(edit, before, target);
                if (!Arrays.equals(after, before) || !Files.exists(target)) {
                    checkWritable(target);
                    AtomicWrite.write(target, after, permissionsToKeep(target));
                    if (tidy == null && !created.isEmpty()) {
                        CreatedPaths.record(record, target, created);
                    }
                }
                if (tidy != null) {
                    if (json ? isEmptyObject(after) : after.length == 0) {
                        tidy.addAll(CreatedPaths.remove(record, target));
                    }
                    retire(channel, lockFile);
                }
                return after;
            } catch (IOException e) {
                throw new SettingsException("settings_unwritable", "cannot write " + target + ": " + e.getMessage());
            } finally {
                if (channel != null) {
                    try {
                        channel.close();
                    } catch (IOException e) {
                        // closing releases the lock either way
                    }
                }
            }
        }
    }

    /** Marks a lock file no longer in use (see {@link #lock}) and removes it; the caller holds its lock. */
    private static void retire(FileChannel channel, Path lockFile) throws IOException {
        channel.write(ByteBuffer.wrap(RETIRED), 0);
        channel.force(false);
        Files.deleteIfExists(lockFile);
    }

    /**
     * Opens and locks {@code lockFile}, returning the channel that holds the lock. A lock file that
     * an uninstall retired (it wrote {@link #RETIRED} into it before removing it) is let go and
     * the path opened again: a waiter that got the lock of a removed file would otherwise edit
     * beside a newcomer holding the lock of the new one.
     */
    private static FileChannel lock(Path lockFile) throws IOException {
        for (int attempt = 0; attempt < MAX_LOCK_ATTEMPTS; attempt++) {
            FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try {
                lockWithin(channel, lockFile);
                if (channel.size() == 0) {
                    return channel;
                }
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            channel.close();
            try {
                // a retired file still at the path (its uninstall stopped between marking and removing it) goes
                if (Files.readAttributes(lockFile, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).size() > 0) {
                    Files.deleteIfExists(lockFile);
                }
            } catch (NoSuchFileException e) {
                // removed by its uninstall: the next open creates a fresh one
            }
        }
        throw new IOException("the lock " + lockFile + " was retired " + MAX_LOCK_ATTEMPTS + " times in a row; remove it"
                + " and try again");
    }

    /** Lock files found retired in a row before giving up. */
    private static final int MAX_LOCK_ATTEMPTS = 100;

    /** What a retired lock file holds; a lock file in use is empty. */
    private static final byte[] RETIRED = "retired\n".getBytes(StandardCharsets.US_ASCII);

    private static boolean isEmptyObject(byte[] doc) {
        try {
            JsonSpans.Value root = JsonSpans.parse(doc);
            return root.kind() == JsonSpans.Kind.OBJECT && root.members().isEmpty();
        } catch (JsonException e) {
            return false;
        }
    }

    /** How long an install or uninstall waits for another one editing the same file. */
    static final long LOCK_WAIT_MS = 30_000;

    /** The lock on {@code channel}, polled until {@link #LOCK_WAIT_MS} has passed. */
    private static FileLock lockWithin(FileChannel channel, Path lockFile) throws IOException {
        long deadline = System.nanoTime() + LOCK_WAIT_MS * 1_000_000L;
        while (true) {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IOException("another warden install or uninstall has held " + lockFile + " for over "
                        + LOCK_WAIT_MS / 1000 + " s; try again when it has finished");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + lockFile);
            }
        }
    }

    /** The edit's result; a refusal from the edit is named after the file. */
    private byte[] apply(Edit edit, byte[] before, Path target) throws SettingsException {
        try {
            return edit.apply(before);
        } catch (SettingsException e) {
            throw new SettingsException(e.code(), where(target) + ": " + e.getMessage());
        }
    }

    private byte[] read(Path target) throws SettingsException {
        if (!Files.exists(target)) {
            return json ? EMPTY.clone() : new byte[0];
        }
        byte[] bytes;
        // a regular file (or a link to one) only: a FIFO would block the open, a device never end
        try (InputStream in = java.nio.channels.Channels.newInputStream(StateFiles.openRead(target, true))) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new SettingsException("settings_unreadable", "cannot read " + where(target) + ": " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {
            throw new SettingsException("settings_too_large", where(target) + " is over " + MAX_BYTES
                    + " bytes; refusing to edit it. It was left unchanged.");
        }
        if (!json) {
            return bytes;
        }
        if (isBlank(bytes)) {
            return EMPTY.clone();
        }
        JsonSpans.Value root;
        try {
            root = JsonSpans.parse(bytes);
        } catch (JsonException e) {
            throw new SettingsException("settings_not_json", where(target) + " is not valid JSON (" + e.getMessage()
                    + "); fix or move it, then run again. It was left unchanged.");
        }
        if (root.kind() != JsonSpans.Kind.OBJECT) {
            throw new SettingsException("settings_not_object", where(target) + " is JSON but not an object; it was left unchanged.");
        }
        return bytes;
    }

    /** The settings path, and the target it leads to when it is a symbolic link. */
    @Override
    public String describe() throws SettingsException {
        return where(target());
    }

    private String where(Path target) {
        return Files.isSymbolicLink(file) ? file + " (a link to " + target + ")" : file.toString();
    }

    private void checkWritable(Path target) throws SettingsException {
        if (!Files.exists(target)) {
            return;
        }
        boolean ownerMayWrite;
        String mode = "";
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(target);
            ownerMayWrite = permissions.contains(PosixFilePermission.OWNER_WRITE);
            mode = " (mode " + PosixFilePermissions.toString(permissions) + ")";
        } catch (UnsupportedOperationException | IOException e) {
            ownerMayWrite = true;
        }
        if (!ownerMayWrite || !Files.isWritable(target)) {
            throw new SettingsException("settings_read_only", where(target) + " is read-only" + mode
                    + "; Warden does not rewrite a file you protected. Make it writable (chmod u+w " + target
                    + ") and run again, or add the entries by hand. It was left unchanged.");
        }
    }

    /** The final target of the link chain starting at {@code link}, or a refusal naming the broken link. */
    private Path followLinks(Path link) throws SettingsException {
        Path at = link;
        for (int hops = 0; hops <= MAX_LINKS && Files.isSymbolicLink(at); hops++) {
            Path next;
            try {
                next = Files.readSymbolicLink(at);
            } catch (IOException e) {
                throw new SettingsException("settings_unreadable", "cannot read the link " + at + ": " + e.getMessage());
            }
            next = at.resolveSibling(next);
            if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                throw new SettingsException("settings_dangling_link", link + " is a symbolic link"
                        + (at.equals(link) ? "" : " (through " + at + ")") + " to " + next + ", which does not exist."
                        + " Create that file or remove the link, then run again. Nothing was written.");
            }
            at = next;
        }
        try {
            return at.toRealPath();
        } catch (IOException e) {
            throw new SettingsException("settings_dangling_link", link + " is a symbolic link that cannot be followed ("
                    + e.getMessage() + "; a loop?). Fix or remove the link, then run again. Nothing was written.");
        }
    }

    /** {@code path} with its deepest existing ancestor resolved to a real path, links and all. */
    private static Path realAncestor(Path path) throws SettingsException {
        Path existing = path;
        while (existing.getParent() != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(path));
        } catch (NoSuchFileException e) {
            return path;
        } catch (IOException e) {
            throw new SettingsException("settings_unreadable", "cannot resolve " + path + ": " + e.getMessage());
        }
    }

    private Path lockFile(Path target) throws SettingsException {
        try {
            if (!Files.isDirectory(lockDir)) {
                Files.createDirectories(lockDir);
                try {
                    Files.setPosixFilePermissions(lockDir, PosixFilePermissions.fromString("rwx------"));
                } catch (UnsupportedOperationException e) {
                    // no POSIX permissions here; the default applies
                }
            }
            String digest = Sha256.hex(target.toString().getBytes(StandardCharsets.UTF_8));
            return lockDir.resolve("settings-" + digest.substring(0, 32) + ".lock");
        } catch (IOException e) {
            throw new SettingsException("settings_unwritable", "cannot create the lock directory " + lockDir + ": " + e.getMessage()
                    + " (set WARDEN_CACHE_DIR to a directory you can write). Nothing was written.");
        }
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The target's own permissions, {@code rw-r--r--} for a new file; {@code null} without POSIX permissions. */
    private static Set<PosixFilePermission> permissionsToKeep(Path target) {
        try {
            return Files.exists(target) ? Files.getPosixFilePermissions(target) : PosixFilePermissions.fromString("rw-r--r--");
        } catch (UnsupportedOperationException | IOException e) {
            return null;
        }
    }
}
