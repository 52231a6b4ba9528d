package dev.agentwarden.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;

/**
 * The user's own Warden state, outside every project: {@code ${XDG_STATE_HOME:-~/.local/state}/agent-warden}.
 * What lives here (ledger anchors, release rollback floors) must not be writable by a cloned
 * repository or by the governed agent editing project files, so a file or directory here is
 * trusted only when it is not a link and passes {@link OwnedPath}'s rule; this class names the
 * reason with a stable code. New directories are 0700 and new files 0600.
 */
public final class UserState {
    public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final int GROUP_OTHER_WRITE = 0022;

    private UserState() {
    }

    /**
     * {@code <XDG_STATE_HOME>/agent-warden} when {@code env} sets it to an absolute path, else
     * {@code <HOME>/.local/state/agent-warden}. A map that names neither (a test's or an embedder's
     * partial environment) falls back to this process's own environment, then to {@code user.home}.
     */
    public static Path home(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        String home = env.get("HOME");
        if (isAbsolute(xdg)) {
            return Path.of(xdg, "agent-warden");
        }
        if (isAbsolute(home)) {
            return Path.of(home, ".local", "state", "agent-warden");
        }
        if (isAbsolute(System.getenv("XDG_STATE_HOME"))) {
            return Path.of(System.getenv("XDG_STATE_HOME"), "agent-warden");
        }
        return Path.of(System.getProperty("user.home"), ".local", "state", "agent-warden");
    }

    /**
     * Refuses {@code p} unless it is a real directory (or regular file) that passes
     * {@link OwnedPath}'s rule (owned by this user, no group or other write bit, and no directory
     * above it that someone else could swap). Codes: {@code state_symlink_refused},
     * {@code state_not_directory} or {@code state_not_regular}; {@code <prefix>_not_owned} or
     * {@code <prefix>_writable_by_others} for the entry itself; {@code <prefix>_path_not_private}
     * for a directory above it.
     *
     * @param prefix the first word of the ownership codes ({@code anchor}, {@code release_state})
     * @throws java.nio.file.NoSuchFileException when it does not exist
     */
    public static void requirePrivate(Path p, boolean directory, String prefix) throws IOException {
        Map<String, Object> a = Files.readAttributes(p, "unix:uid,mode,isSymbolicLink,isDirectory,isRegularFile",
                LinkOption.NOFOLLOW_LINKS);
        if (Boolean.TRUE.equals(a.get("isSymbolicLink"))) {
            throw new UnsafeFileException("state_symlink_refused", p + " is a symbolic link; Warden does not read"
                    + " its own state through links (remove it)");
        }
        if (!Boolean.TRUE.equals(a.get(directory ? "isDirectory" : "isRegularFile"))) {
            throw new UnsafeFileException(directory ? "state_not_directory" : "state_not_regular", p + " is not a "
                    + (directory ? "directory" : "regular file") + " (remove it)");
        }
        String problem = OwnedPath.problem(p);
        if (problem == null) {
            return;
        }
        if (!(a.get("uid") instanceof Integer owner) || owner != OwnedPath.currentUid()) {
            throw new UnsafeFileException(prefix + "_not_owned", problem + "; refused");
        }
        if (a.get("mode") instanceof Integer mode && (mode & GROUP_OTHER_WRITE) != 0) {
            throw new UnsafeFileException(prefix + "_writable_by_others", problem + "; refused (chmod go-w)");
        }
        throw new UnsafeFileException(prefix + "_path_not_private", problem + "; refused");
    }

    /**
     * Creates {@code dir} with mode 0700 (and each missing parent the same way) when absent, then
     * {@linkplain #requirePrivate checks} it.
     */
    public static void ensurePrivateDirectory(Path dir, String prefix) throws IOException {
        OwnedPath.createPrivateDirectories(dir);
        requirePrivate(dir, true, prefix);
    }

    private static boolean isAbsolute(String path) {
        return path != null && !path.isEmpty() && Path.of(path).isAbsolute();
    }
}
