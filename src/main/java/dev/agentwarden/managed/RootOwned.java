package dev.agentwarden.managed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether a managed file is the administrator's: the OpenSSH {@code StrictModes} rule with root as the
 * only owner allowed. The file itself is a regular file, not a symlink, owned by uid 0, with no group
 * or other write bit; every directory above it up to {@code /} is a directory (not a symlink) owned by
 * uid 0 with no group or other write bit. So only root can have written it or can swap it.
 */
public final class RootOwned {
    private static final int TYPE_MASK = 0170000;
    private static final int TYPE_DIR = 0040000;
    private static final int TYPE_FILE = 0100000;
    private static final int GROUP_OTHER_WRITE = 0022;

    private RootOwned() {
    }

    /** Why {@code file} is not the administrator's, or {@code null} when it is; a file that does not exist is {@link NoSuchFileException}. */
    public static String problem(Path file) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        Map<String, Object> own = attributes(absolute);
        if (own == null) {
            return null;
        }
        String p = entryProblem(absolute, own, TYPE_FILE, "a regular file");
        if (p != null) {
            return p;
        }
        for (Path dir = absolute.getParent(); dir != null; dir = dir.getParent()) {
            String d = entryProblem(dir, attributes(dir), TYPE_DIR, "a directory");
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    private static String entryProblem(Path path, Map<String, Object> a, int type, String what) {
        int mode = (Integer) a.get("mode");
        if ((mode & TYPE_MASK) != type) {
            return path + " is not " + what + ((mode & TYPE_MASK) == 0120000 ? " (a symlink)" : "");
        }
        int uid = (Integer) a.get("uid");
        if (uid != 0) {
            return path + " is owned by uid " + uid + ", not root";
        }
        if ((mode & GROUP_OTHER_WRITE) != 0) {
            return path + " is writable by group or others (mode " + Integer.toOctalString(mode & 07777) + ")";
        }
        return null;
    }

    private static Map<String, Object> attributes(Path p) throws IOException {
        try {
            return Files.readAttributes(p, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return null;
        }
    }
}
