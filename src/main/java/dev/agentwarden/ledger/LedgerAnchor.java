package dev.agentwarden.ledger;

import com.sun.security.auth.module.UnixSystem;
import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.json.Json;
import dev.agentwarden.manifest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A copy of the chain's position kept outside the project, in the user's own state
 * ({@code ${XDG_STATE_HOME:-~/.local/state}/agent-warden/anchors/<sha256 of the project's real
 * path>.json}, file 0600, directories 0700). {@code warden ledger anchor} writes it; {@code ledger
 * verify} then requires the chain to still hold the anchored line with the anchored hash at the
 * anchored position. Since every line's {@code prev} is the hash of the line before it, that line
 * pins the whole history up to it: a history rewritten with a recomputed chain, or deleted, fails.
 * It proves nothing about lines appended after the anchor, and nothing against someone who can
 * write the user's own state directory.
 *
 * <p>An anchor file or directory that is not owned by this user, or that group or others may
 * write, is refused, as is a link.
 *
 * @param project    the project's real path
 * @param segment    month of the anchored line's segment
 * @param line       its physical line number in that segment
 * @param hash       its SHA-256
 * @param chainLines chain lines up to and including it
 * @param ts         when the anchor was written
 */
public record LedgerAnchor(String project, String segment, long line, String hash, long chainLines, String ts) {
    private static final int MAX_BYTES = 4096;
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

    /** Where the anchor of a project lives. */
    public static Path fileFor(Path projectRealPath, Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
                : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".local", "state");
        String key = Sha256.hex(projectRealPath.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 32);
        return base.resolve("agent-warden").resolve("anchors").resolve(key + ".json");
    }

    /** The anchor at {@code file}, or {@code null} when there is none; refuses one that others could have written. */
    public static LedgerAnchor read(Path file) throws IOException {
        Path dir = file.getParent();
        try {
            requirePrivate(dir, true);
            requirePrivate(file, false);
        } catch (NoSuchFileException e) {
            return null;
        }
        Map<String, Object> o = LedgerLine.parseState(StateFiles.readAll(file, MAX_BYTES, false));
        if (o == null || !(o.get("project") instanceof String p) || !(o.get("segment") instanceof String s)
                || !TokenShape.isMonth(s) || !(o.get("line") instanceof Long n) || n < 1
                || !(o.get("hash") instanceof String h) || !TokenShape.isLowerHex(h, 64)
                || !(o.get("chain_lines") instanceof Long c) || !(o.get("ts") instanceof String ts)) {
            throw new LedgerException("ledger_anchor_invalid", file + " is not a valid ledger anchor");
        }
        return new LedgerAnchor(p, s, n, h, c, ts);
    }

    /** Writes this anchor to {@code file}, creating its directory 0700; the file is 0600. */
    public void write(Path file) throws IOException {
        Path anchors = file.toAbsolutePath().getParent();
        Path app = anchors.getParent();
        if (!Files.isDirectory(app)) {
            Files.createDirectories(app);
        }
        if (!Files.exists(anchors, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(anchors, PosixFilePermissions.asFileAttribute(DIR_MODE));
            Files.setPosixFilePermissions(anchors, DIR_MODE);
        }
        requirePrivate(anchors, true);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("project", project);
        o.put("segment", segment);
        o.put("line", line);
        o.put("hash", hash);
        o.put("chain_lines", chainLines);
        o.put("ts", ts);
        AtomicWrite.write(file, (Json.write(o) + "\n").getBytes(StandardCharsets.UTF_8), FILE_MODE);
    }

    /** Refuses a path that is a link, of the wrong type, not owned by this user, or writable by group or others. */
    private static void requirePrivate(Path p, boolean directory) throws IOException {
        Map<String, Object> a = Files.readAttributes(p, "unix:uid,mode,isSymbolicLink,isDirectory,isRegularFile",
                LinkOption.NOFOLLOW_LINKS);
        if (Boolean.TRUE.equals(a.get("isSymbolicLink"))) {
            throw new UnsafeFileException("state_symlink_refused", p + " is a symbolic link; anchors are not read through links");
        }
        if (!Boolean.TRUE.equals(a.get(directory ? "isDirectory" : "isRegularFile"))) {
            throw new UnsafeFileException("state_not_regular", p + " is not a " + (directory ? "directory" : "regular file"));
        }
        long uid = new UnixSystem().getUid();
        if (!(a.get("uid") instanceof Integer owner) || owner != uid) {
            throw new UnsafeFileException("anchor_not_owned", p + " is owned by uid " + a.get("uid")
                    + ", not by this user (uid " + uid + "); refused");
        }
        if (a.get("mode") instanceof Integer mode && (mode & 0022) != 0) {
            throw new UnsafeFileException("anchor_writable_by_others", p + " is writable by group or others (mode "
                    + Integer.toOctalString(mode & 0777) + "); refused (chmod go-w)");
        }
    }
}
