package dev.agentwarden.dispatch;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.ledger.UtcTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * {@code WARDEN_CAPTURE_DIR=DIR}: each event's raw stdin saved as
 * {@code DIR/<host>-<native event>-<timestamp>.json}, the input of {@code warden replay} and
 * {@code warden test --from-capture}.
 *
 * <p>The files hold prompts and tool inputs, so the directory must be this user's alone
 * ({@link OwnedPath}: a directory, not a symlink, owned by the user, no group or other write bit,
 * and so every directory above it); a missing one is created 0700. Each file is created new, 0600,
 * without following a link. At most the payload cap in force is read, so at most that is saved;
 * a payload over it is not saved. A capture that fails never changes the answer: the returned
 * note goes to stderr.
 */
final class Capture {
    /** The variable that turns capture on, naming the directory. */
    static final String DIR_VARIABLE = "WARDEN_CAPTURE_DIR";
    /** Attempts at a free name when events of the same host and event share a millisecond. */
    private static final int MAX_NAME_TRIES = 100;

    private Capture() {
    }

    /**
     * Saves {@code raw} (what was read from stdin, {@code null} when nothing could be) under {@code dir}.
     *
     * @param problem why the payload could not be read, or {@code null}
     * @return a stderr note when nothing was saved, else {@code null}
     */
    static String save(Path dir, String host, String nativeEvent, long epochMillis, byte[] raw, String problem) {
        if (raw == null) {
            return "warden: capture: nothing saved (" + (problem == null ? "no payload" : problem)
                    + "); the hook answer is unchanged";
        }
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                OwnedPath.createPrivateDirectories(dir);
            }
            String unsafe = OwnedPath.problem(dir);
            if (unsafe == null && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                unsafe = dir + " is not a directory";
            }
            if (unsafe != null) {
                return "warden: capture: not saved: " + unsafe + " (" + DIR_VARIABLE
                        + " must be a directory of yours alone); the hook answer is unchanged";
            }
            String base = safeName(host) + "-" + safeName(nativeEvent == null ? "unknown" : nativeEvent) + "-"
                    + stamp(epochMillis);
            for (int i = 0; i < MAX_NAME_TRIES; i++) {
                Path file = dir.resolve(i == 0 ? base + ".json" : base + "-" + i + ".json");
                try {
                    write(file, raw);
                    return null;
                } catch (FileAlreadyExistsException taken) {
                    // another event of the same millisecond: try the next name
                }
            }
            return "warden: capture: not saved: no free name for " + base + ".json in " + dir
                    + "; the hook answer is unchanged";
        } catch (IOException | RuntimeException e) {
            return "warden: capture: not saved (" + e.getMessage() + "); the hook answer is unchanged";
        }
    }

    private static void write(Path file, byte[] raw) throws IOException {
        // built here, not in a static field, and no EnumSet: dispatch avoids reflection at class load
        FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------"));
        try (FileChannel ch = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), mode)) {
            StateFiles.writeFully(ch, ByteBuffer.wrap(raw), -1);
        }
    }

    /** {@code 2026-12-01T11-24-37.123Z}: the ISO instant with {@code -} for {@code :}, which some file systems refuse. */
    static String stamp(long epochMillis) {
        return UtcTime.iso(epochMillis).replace(':', '-');
    }

    /** {@code s} with every character but letters, digits, {@code _} and {@code .} made {@code _}, so a name cannot climb out. */
    static String safeName(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 64));
        for (int i = 0; i < s.length() && i < 64; i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
                    || c == '.' && i > 0;
            sb.append(ok ? c : '_');
        }
        return sb.length() == 0 ? "_" : sb.toString();
    }
}
