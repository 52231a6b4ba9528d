package dev.agentwarden.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Whether a file or directory belongs to this user alone, by the rule OpenSSH's {@code StrictModes}
 * applies to {@code authorized_keys}: nobody else can have written it or can swap it.
 *
 * <p>The rule, for a path made absolute and normalized:
 * <ul>
 *   <li>the path itself is read without following a symlink: it is a regular file or a directory
 *       (a symlink is refused), owned by the effective user, with no group or other write bit;</li>
 *   <li>every directory above it, up to {@code /}, is owned by the user or root and has no group or
 *       other write bit, unless it has the sticky bit (as {@code /tmp}: others cannot rename or
 *       remove an entry that is not theirs, and the entry below it is checked in turn);</li>
 *   <li>a group write bit is allowed, as Debian's OpenSSH allows it for user-private groups (umask
 *       002), when the group is the user's private group: the user's primary gid in
 *       {@code /etc/passwd}, named as the user, with no member but the user in {@code /etc/group},
 *       and the primary group of no other user;</li>
 *   <li>a symlink among those directories is allowed when owned by the user or root; then the
 *       directories of its real path are checked by the same rule as well.</li>
 * </ul>
 * Where the file system has no Unix attributes the check cannot be made and passes.
 *
 * <p>Cost: one {@code lstat} per path component (plus one per component of the real path when
 * a symlink is on the way), a few microseconds; the effective uid is read once per JVM, and the
 * user's private group once per JVM, only when a group write bit is seen.
 */
public final class OwnedPath {
    private static final int TYPE_MASK = 0170000;
    private static final int TYPE_DIR = 0040000;
    private static final int TYPE_FILE = 0100000;
    private static final int TYPE_LINK = 0120000;
    private static final int GROUP_OTHER_WRITE = 0022;
    private static final int OTHER_WRITE = 0002;
    /** Largest {@code /etc/passwd} or {@code /etc/group} read; a larger one gives no private group. */
    private static final int MAX_ACCOUNT_FILE_BYTES = 16 * 1024 * 1024;
    private static final int UNKNOWN = -2;
    private static final int NONE = -1;
    private static final int STICKY = 01000;
    private static volatile int uid = -1;
    private static volatile int privateGid = UNKNOWN;

    private OwnedPath() {
    }

    /** Whether {@code path} passes the rule. */
    public static boolean isPrivate(Path path) {
        return problem(path) == null;
    }

    /**
     * Why {@code path} fails the rule ("… is owned by uid 65534", "… is writable by group or
     * others", …), or {@code null} when it passes. A path that does not exist fails.
     */
    public static String problem(Path path) {
        try {
            Path given = path.toAbsolutePath();
            Path absolute = given.normalize();
            // the entry itself as the kernel resolves the path ("..", links on the way)
            Map<String, Object> own = attributes(given);
            if (own == null) {
                return null;
            }
            int mode = (Integer) own.get("mode");
            int type = mode & TYPE_MASK;
            if (type == TYPE_LINK) {
                return absolute + " is a symlink";
            }
            if (type != TYPE_FILE && type != TYPE_DIR) {
                return absolute + " is not a regular file or directory";
            }
            int owner = (Integer) own.get("uid");
            if (owner != currentUid()) {
                return absolute + " is owned by uid " + owner + ", not by this user (uid " + currentUid() + ")";
            }
            if (writableByOthers(mode, (Integer) own.get("gid"))) {
                return absolute + " is writable by group or others (mode " + Integer.toOctalString(mode & 07777) + ")";
            }
            Path parent = absolute.getParent();
            // with "." or ".." the lexical walk may not be the way the kernel goes: check the real one too
            boolean linked = !given.equals(absolute);
            for (Path dir = parent; dir != null; dir = dir.getParent()) {
                Map<String, Object> a = attributes(dir);
                String problem = ancestorProblem(dir, a);
                if (problem != null) {
                    return problem;
                }
                linked |= ((Integer) a.get("mode") & TYPE_MASK) == TYPE_LINK;
            }
            if (linked && given.getParent() != null) {
                for (Path dir = given.getParent().toRealPath(); dir != null; dir = dir.getParent()) {
                    String problem = ancestorProblem(dir, attributes(dir));
                    if (problem != null) {
                        return problem;
                    }
                }
            }
            return null;
        } catch (IOException e) {
            return path + " cannot be checked: " + e;
        }
    }

    private static String ancestorProblem(Path dir, Map<String, Object> a) {
        int owner = (Integer) a.get("uid");
        int mode = (Integer) a.get("mode");
        if (owner != currentUid() && owner != 0) {
            return "directory " + dir + " is owned by uid " + owner + ", not by this user (uid " + currentUid()
                    + ") or root";
        }
        if ((mode & TYPE_MASK) == TYPE_LINK) {
            return null;
        }
        if ((mode & STICKY) == 0 && writableByOthers(mode, (Integer) a.get("gid"))) {
            return "directory " + dir + " is writable by group or others (mode "
                    + Integer.toOctalString(mode & 07777) + ")";
        }
        return null;
    }

    /**
     * Creates {@code dir} and any missing parents, each new one with mode 0700 from the moment it
     * exists (the umask can only remove bits). Existing directories are left as they are.
     */
    public static void createPrivateDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createPrivateDirectories(parent);
        }
        try {
            if (absolute.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(absolute);
            }
        } catch (FileAlreadyExistsException raced) {
            // another process made it; the caller checks what it is
        }
    }

    /** This process's effective uid (the owner of the files it creates). */
    public static int currentUid() {
        int u = uid;
        if (u < 0) {
            u = readUid();
            uid = u;
        }
        return u;
    }

    /**
     * The owner of {@code /proc/self}, which Linux gives the effective uid (a process made
     * non-dumpable by a credential change shows root instead: then this user's files look foreign
     * and are refused, never the reverse); elsewhere the owner of a file this process creates.
     * Reading {@code /proc/self/status} would say the same at ten times the cost on a cold JVM.
     */
    private static int readUid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException noProc) {
            // not Linux: ask a file of our own
        }
        try {
            Path probe = Files.createTempFile("warden-uid", ".probe");
            try {
                return (Integer) Files.getAttribute(probe, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot tell this process's uid: " + e, e);
        }
    }

    /** Whether {@code mode} lets anyone but this user write: an other write bit, or a group one for a group not the user's private group. */
    private static boolean writableByOthers(int mode, int gid) {
        if ((mode & GROUP_OTHER_WRITE) == 0) {
            return false;
        }
        return (mode & OTHER_WRITE) != 0 || gid != privateGroup();
    }

    /** The gid of this user's private group, or {@code -1} when it has none; read once per JVM. */
    public static int privateGroup() {
        int g = privateGid;
        if (g == UNKNOWN) {
            g = readPrivateGroup(currentUid(), Path.of("/etc/passwd"), Path.of("/etc/group"));
            privateGid = g;
        }
        return g;
    }

    /** {@link #privateGroup()} from the given account files; {@code -1} when either cannot be read. */
    static int readPrivateGroup(int uid, Path passwdFile, Path groupFile) {
        try {
            return privateGroup(uid, new String(StateFiles.readAll(passwdFile, MAX_ACCOUNT_FILE_BYTES, true),
                    StandardCharsets.UTF_8), new String(StateFiles.readAll(groupFile, MAX_ACCOUNT_FILE_BYTES, true),
                    StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException unreadable) {
            return NONE;
        }
    }

    /**
     * The private group of {@code uid} by {@code passwd} and {@code group} (their text): its primary
     * gid when that group is named as the user, has no member but the user, and is no other
     * account's primary group; else {@code -1}.
     */
    static int privateGroup(int uid, String passwd, String group) {
        String wantedUid = Integer.toString(uid);
        String name = null;
        String gid = null;
        for (int start = 0; start < passwd.length(); ) {
            int end = lineEnd(passwd, start);
            String line = passwd.substring(start, end);
            start = end + 1;
            if (name == null && wantedUid.equals(field(line, 2))) {
                name = field(line, 0);
                gid = field(line, 3);
            }
        }
        if (name == null || name.isEmpty() || gid == null || gid.isEmpty()) {
            return NONE;
        }
        for (int start = 0; start < passwd.length(); ) {
            int end = lineEnd(passwd, start);
            String line = passwd.substring(start, end);
            start = end + 1;
            if (gid.equals(field(line, 3)) && !name.equals(field(line, 0))) {
                return NONE;
            }
        }
        boolean named = false;
        for (int start = 0; start < group.length(); ) {
            int end = lineEnd(group, start);
            String line = group.substring(start, end);
            start = end + 1;
            if (!gid.equals(field(line, 2))) {
                continue;
            }
            if (!name.equals(field(line, 0)) || !onlyMember(field(line, 3), name)) {
                return NONE;
            }
            named = true;
        }
        if (!named) {
            return NONE;
        }
        try {
            return Integer.parseInt(gid);
        } catch (NumberFormatException notANumber) {
            return NONE;
        }
    }

    private static int lineEnd(String text, int start) {
        int end = text.indexOf('\n', start);
        return end < 0 ? text.length() : end;
    }

    /** The {@code index}th colon-separated field of {@code line}, or {@code null} when it has fewer. */
    private static String field(String line, int index) {
        int start = 0;
        for (int i = 0; i < index; i++) {
            int colon = line.indexOf(':', start);
            if (colon < 0) {
                return null;
            }
            start = colon + 1;
        }
        int end = line.indexOf(':', start);
        return end < 0 ? line.substring(start).strip() : line.substring(start, end);
    }

    /** Whether a group's member list (comma-separated) names nobody but {@code name}. */
    private static boolean onlyMember(String members, String name) {
        if (members == null) {
            return true;
        }
        for (int start = 0; start <= members.length(); ) {
            int comma = members.indexOf(',', start);
            int end = comma < 0 ? members.length() : comma;
            String member = members.substring(start, end).strip();
            if (!member.isEmpty() && !member.equals(name)) {
                return false;
            }
            start = end + 1;
        }
        return true;
    }

    /** uid and mode of {@code p} itself (a symlink is not followed), or {@code null} without Unix attributes. */
    private static Map<String, Object> attributes(Path p) throws IOException {
        try {
            return Files.readAttributes(p, "unix:uid,gid,mode", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return null;
        }
    }
}
