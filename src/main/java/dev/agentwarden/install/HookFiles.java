package dev.agentwarden.install;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A hooks directory of per-event executable files ({@link HookFileInstaller}), changed safely.
 *
 * <ul>
 *   <li>A file is Warden's only when it is a regular file holding exactly what Warden writes for
 *       its name ({@link HookFileInstaller#launcherOf}); anything else under a name Warden needs is
 *       the user's own, and install refuses, writing nothing, rather than replace or chain to it.
 *       Uninstall removes Warden's files alone, and the directories install created once they are
 *       empty ({@link CreatedPaths}).</li>
 *   <li>No symbolic link is followed: a hooks directory, or any directory between it and its
 *       anchor, that is a link is refused, and so is a link under a hook's name.</li>
 *   <li>Each file is written to a temporary name the host ignores, made {@code 0755}, and renamed
 *       into place: the host never runs half a file. Edits run under a lock in Warden's cache.</li>
 * </ul>
 */
public final class HookFiles {
    /** Largest hook file read to tell Warden's from the user's. */
    static final int MAX_FILE_BYTES = 64 * 1024;
    private static final long LOCK_WAIT_MS = 10_000;

    private final HookFileInstaller installer;
    private final Path dir;
    private final Path anchor;
    private final Path lockDir;

    public HookFiles(HookFileInstaller installer, Path projectRoot, Map<String, String> env, Path lockDir) {
        this.installer = installer;
        this.dir = installer.hooksDirectory(projectRoot, env).toAbsolutePath().normalize();
        this.anchor = installer.anchor(projectRoot, env).toAbsolutePath().normalize();
        this.lockDir = lockDir;
    }

    public Path directory() {
        return dir;
    }

    /**
     * What the directory holds under the host's event names.
     *
     * @param warden  event → launcher, for each file that is exactly Warden's
     * @param foreign event → what the file is, for each other file under an event's name
     */
    public record State(Map<String, HookLauncher> warden, Map<String, String> foreign) {
    }

    /** The files under the host's event names now. */
    public State read() throws SettingsException {
        checkDirectory();
        Map<String, HookLauncher> warden = new LinkedHashMap<>();
        Map<String, String> foreign = new LinkedHashMap<>();
        for (String event : installer.events()) {
            Path file = dir.resolve(event);
            BasicFileAttributes attrs;
            try {
                attrs = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException absent) {
                continue;
            }
            if (attrs.isSymbolicLink()) {
                foreign.put(event, "a symbolic link");
            } else if (!attrs.isRegularFile()) {
                foreign.put(event, "not a regular file");
            } else {
                HookLauncher launcher = attrs.size() > MAX_FILE_BYTES ? null : installer.launcherOf(readFile(file), event);
                if (launcher == null) {
                    foreign.put(event, "not the file Warden writes");
                } else {
                    warden.put(event, launcher);
                }
            }
        }
        return new State(warden, foreign);
    }

    /**
     * Writes Warden's file for each of {@code events} and removes Warden's files for every other
     * event; returns one line per file touched or kept. Refuses, changing nothing, when a name it
     * needs holds a file that is not Warden's.
     */
    public List<String> install(HookLauncher launcher, List<String> events, boolean dryRun) throws SettingsException {
        List<String> report = new ArrayList<>();
        try (Lock ignored = lock()) {
            State state = read();
            List<String> taken = new ArrayList<>();
            for (String event : events) {
                if (state.foreign().containsKey(event)) {
                    taken.add(dir.resolve(event) + " (" + state.foreign().get(event) + ")");
                }
            }
            if (!taken.isEmpty()) {
                throw new SettingsException("hook_file_taken", String.join(", ", taken) + (taken.size() == 1 ? " is" : " are")
                        + " yours, and Warden does not replace or chain to a hook file it did not write; nothing was"
                        + " installed. The host runs every file named after the event whatever its extension, so"
                        + " renaming yours (for example to " + events.get(0) + ".sh) keeps it running beside Warden's.");
            }
            List<Path> created = CreatedPaths.missing(dir);
            if (!dryRun && !created.isEmpty()) {
                Files.createDirectories(dir);
                checkDirectory();
                CreatedPaths.record(record(), dir, created);
            }
            for (String event : events) {
                byte[] want = installer.content(launcher, event);
                if (launcher.equals(state.warden().get(event))) {
                    report.add("unchanged " + dir.resolve(event));
                    continue;
                }
                if (!dryRun) {
                    write(dir.resolve(event), want);
                }
                report.add((dryRun ? "would write " : "wrote ") + dir.resolve(event) + " (mode 0755)");
            }
            for (String event : state.warden().keySet()) {
                if (!events.contains(event)) {
                    if (!dryRun) {
                        Files.deleteIfExists(dir.resolve(event));
                    }
                    report.add((dryRun ? "would remove " : "removed ") + dir.resolve(event) + " (no longer bound)");
                }
            }
            for (Map.Entry<String, String> kept : state.foreign().entrySet()) {
                report.add("kept " + dir.resolve(kept.getKey()) + " (" + kept.getValue() + ": yours, runs beside Warden's)");
            }
            return report;
        } catch (IOException e) {
            throw new SettingsException("hook_files_unwritable", "cannot write hook files in " + dir + ": " + e.getMessage());
        }
    }

    /** Removes Warden's files, then the directories install created that are left empty; returns what it removed. */
    public List<String> uninstall() throws SettingsException {
        List<String> report = new ArrayList<>();
        try (Lock ignored = lock()) {
            State state = read();
            for (String event : state.warden().keySet()) {
                Files.deleteIfExists(dir.resolve(event));
                report.add("removed " + dir.resolve(event));
            }
            if (isEmptyDirectory(dir)) {
                for (Path p : CreatedPaths.remove(record(), dir)) {
                    report.add("removed " + p + " (install created it; nothing else was in it)");
                }
            }
            for (Map.Entry<String, String> kept : state.foreign().entrySet()) {
                report.add("kept " + dir.resolve(kept.getKey()) + " (" + kept.getValue() + ": yours)");
            }
            return report;
        } catch (IOException e) {
            throw new SettingsException("hook_files_unwritable", "cannot remove hook files in " + dir + ": " + e.getMessage());
        }
    }

    /** Refuses a hooks directory that is, or lies below, a symbolic link or a non-directory under its anchor. */
    private void checkDirectory() throws SettingsException {
        if (!dir.startsWith(anchor)) {
            throw new SettingsException("hook_dir_outside", dir + " is not under " + anchor + "; nothing was written.");
        }
        Path p = anchor;
        for (Path part : anchor.relativize(dir)) {
            p = p.resolve(part);
            BasicFileAttributes attrs;
            try {
                attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException absent) {
                return;
            }
            if (attrs.isSymbolicLink()) {
                throw new SettingsException("hook_dir_symlink", p + " is a symbolic link; Warden follows no link when it"
                        + " writes hook files (a cloned project could point it anywhere). Replace the link with the"
                        + " directory itself. Nothing was written.");
            }
            if (!attrs.isDirectory()) {
                throw new SettingsException("hook_dir_not_a_directory", p + " is not a directory; nothing was written.");
            }
        }
    }

    /** Whether {@code d} is a directory with nothing in it; while it holds anything, the record of what install created stays. */
    private static boolean isEmptyDirectory(Path d) throws IOException {
        if (!Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
            return !entries.iterator().hasNext();
        }
    }

    /** Writes {@code content} at {@code target}, mode 0755, through a temporary file renamed into place. */
    private static void write(Path target, byte[] content) throws IOException {
        Path tmp = target.resolveSibling("." + target.getFileName() + ".warden-" + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(tmp);
        try (FileChannel ch = FileChannel.open(tmp, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static byte[] readFile(Path file) {
        // a regular file only: a FIFO would block the open, a device never end
        try (InputStream in = java.nio.channels.Channels.newInputStream(StateFiles.openRead(file, false))) {
            return in.readNBytes(MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private Path record() {
        return lockDir.resolve("hookdir-" + digest() + ".created");
    }

    private String digest() {
        return Sha256.hex(dir.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 32);
    }

    /** The exclusive lock on this directory's lock file in Warden's cache, polled for at most {@link #LOCK_WAIT_MS}. */
    private Lock lock() throws SettingsException {
        try {
            if (!Files.isDirectory(lockDir)) {
                Files.createDirectories(lockDir);
                Files.setPosixFilePermissions(lockDir, PosixFilePermissions.fromString("rwx------"));
            }
            FileChannel channel = FileChannel.open(lockDir.resolve("hookdir-" + digest() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            long until = System.nanoTime() + LOCK_WAIT_MS * 1_000_000;
            while (true) {
                FileLock held = channel.tryLock();
                if (held != null) {
                    return new Lock(channel);
                }
                if (System.nanoTime() > until) {
                    channel.close();
                    throw new SettingsException("hook_files_locked", "another warden install or uninstall has held the lock on "
                            + dir + " for over " + LOCK_WAIT_MS / 1000 + " s; try again when it is done");
                }
                Thread.sleep(20);
            }
        } catch (IOException e) {
            throw new SettingsException("hook_files_unwritable", "cannot lock " + dir + " in " + lockDir + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SettingsException("hook_files_locked", "interrupted while waiting for the lock on " + dir);
        }
    }

    /** A held lock; closing the channel releases it. */
    private record Lock(FileChannel channel) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
