package dev.agentwarden.install;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.OwnedPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The settings file and directories an install created (they did not exist before it), recorded
 * beside the settings lock in Warden's cache, so that an uninstall that leaves the file empty
 * removes exactly what install added: the file, and each created directory that is empty. A
 * record is believed only when it is this user's alone ({@link OwnedPath}), and only for the
 * settings file it names and that file's own directories.
 */
final class CreatedPaths {
    /** Largest record read. */
    private static final int MAX_BYTES = 64 * 1024;

    private CreatedPaths() {
    }

    /** {@code target} and its ancestors that do not exist yet, deepest first. */
    static List<Path> missing(Path target) {
        List<Path> out = new ArrayList<>();
        for (Path p = target; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            out.add(p);
        }
        return out;
    }

    /** Adds {@code created} to the record of {@code target}. */
    static void record(Path record, Path target, List<Path> created) throws IOException {
        Set<Path> all = new LinkedHashSet<>(read(record, target));
        all.addAll(created);
        StringBuilder sb = new StringBuilder();
        for (Path p : all) {
            sb.append(p).append('\n');
        }
        AtomicWrite.write(record, sb.toString().getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-------"));
    }

    /** The paths recorded for {@code target}: itself or its ancestors only; none when the record is not trustworthy. */
    static List<Path> read(Path record, Path target) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.exists(record, LinkOption.NOFOLLOW_LINKS) || !OwnedPath.isPrivate(record)) {
            return out;
        }
        byte[] bytes = Files.readAllBytes(record);
        if (bytes.length > MAX_BYTES) {
            return out;
        }
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                Path p = Path.of(line);
                if (p.isAbsolute() && target.startsWith(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /**
     * Removes what the record says install created for {@code target}: the file when it is among
     * them, then each recorded directory that is empty, deepest first; then the record. Returns
     * what was removed.
     */
    static List<Path> remove(Path record, Path target) throws IOException {
        List<Path> made = read(record, target);
        List<Path> removed = new ArrayList<>();
        if (!made.contains(target)) {
            return removed;
        }
        made.sort((a, b) -> b.getNameCount() - a.getNameCount());
        for (Path p : made) {
            try {
                if (p.equals(target) ? Files.deleteIfExists(p)
                        : Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(p)) {
                    removed.add(p);
                }
            } catch (DirectoryNotEmptyException e) {
                // holds something of someone else's now: it stays
            }
        }
        Files.deleteIfExists(record);
        return removed;
    }
}
