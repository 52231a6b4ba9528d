package dev.agentwarden.io;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
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
 * trusted only when it is not a link, is owned by this user, and has no group or other write bit.
 * New directories are 0700 and new files 0600.
 *
 * <p>The trust branch's {@code OwnedPath} checks a whole path up to {@code /}; this checks the
 * entries Warden itself creates here, as the ledger anchors always have.
 */
public final class UserState {
    public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");
    private static final int GROUP_OTHER_WRITE = 0022;
    private static volatile long uid = -1;

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
     * Refuses {@code p} unless it is a real directory (or regular file), owned by this user, with no
     * group or other write bit. Codes: {@code state_symlink_refused}, {@code state_not_directory} or
     * {@code state_not_regular}, {@code <prefix>_not_owned}, {@code <prefix>_writable_by_others}.
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
        long me = currentUid();
        if (!(a.get("uid") instanceof Integer owner) || owner != me) {
            throw new UnsafeFileException(prefix + "_not_owned", p + " is owned by uid " + a.get("uid")
                    + ", not by this user (uid " + me + "); refused");
        }
        if (a.get("mode") instanceof Integer mode && (mode & GROUP_OTHER_WRITE) != 0) {
            throw new UnsafeFileException(prefix + "_writable_by_others", p + " is writable by group or others (mode "
                    + Integer.toOctalString(mode & 0777) + "); refused (chmod go-w)");
        }
    }

    /**
     * Creates {@code dir} with mode 0700 (and each missing parent the same way) when absent, then
     * {@linkplain #requirePrivate checks} it.
     */
    public static void ensurePrivateDirectory(Path dir, String prefix) throws IOException {
        createPrivate(dir.toAbsolutePath().normalize());
        requirePrivate(dir, true, prefix);
    }

    /** This process's uid, the owner of the files it creates. */
    public static long currentUid() {
        long u = uid;
        if (u < 0) {
            u = new UnixSystem().getUid();
            uid = u;
        }
        return u;
    }

    private static void createPrivate(Path dir) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path parent = dir.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createPrivate(parent);
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
            Files.setPosixFilePermissions(dir, DIR_MODE);
        } catch (FileAlreadyExistsException raced) {
            // another process made it; the caller checks what it is
        }
    }

    private static boolean isAbsolute(String path) {
        return path != null && !path.isEmpty() && Path.of(path).isAbsolute();
    }
}
