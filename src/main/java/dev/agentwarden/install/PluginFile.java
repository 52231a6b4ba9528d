package dev.agentwarden.install;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.install.SettingsFile.Edit;
import dev.agentwarden.install.SettingsFile.SettingsException;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A file of Warden's own that a host loads (OpenCode's bridge plugin), written and removed whole.
 * Writes go through {@link StateFiles}: no link on the way down from the root (the project, or for
 * user scope the deepest directory that already exists) and none at the file. The directories and
 * the file an install created are recorded ({@link CreatedPaths}) so that uninstall removes exactly
 * those, and only while the installer says the content is still Warden's (an empty edit result).
 */
public final class PluginFile implements HookFile {
    /** Largest plugin file read. */
    static final int MAX_BYTES = 1 << 20;

    private final Path file;
    private final Path recordDir;
    private final Path confinedTo;

    /**
     * @param file       the plugin file as the host finds it
     * @param recordDir  where the record of created paths is kept (Warden's lock directory)
     * @param confinedTo the project the file must be inside, or {@code null} for a user's config directory
     */
    public PluginFile(Path file, Path recordDir, Path confinedTo) {
        this.file = file.toAbsolutePath().normalize();
        this.recordDir = recordDir;
        this.confinedTo = confinedTo;
    }

    @Override
    public Path path() {
        return file;
    }

    /** {root, target}: where the walk starts, and the file below it with the root's links resolved. */
    private Path[] place() throws SettingsException {
        try {
            Path start = confinedTo != null ? confinedTo.toAbsolutePath().normalize() : file.getParent();
            while (start != null && !Files.exists(start, LinkOption.NOFOLLOW_LINKS)) {
                start = start.getParent();
            }
            if (start == null || !file.startsWith(start)) {
                throw new SettingsException("plugin_outside_project", file + " is not inside " + confinedTo
                        + "; Warden writes a project's plugin only inside it. Nothing was written.");
            }
            Path root = start.toRealPath();
            return new Path[] {root, root.resolve(start.relativize(file).toString())};
        } catch (IOException e) {
            throw new SettingsException("plugin_unreadable", "cannot resolve " + file + ": " + e.getMessage());
        }
    }

    @Override
    public byte[] read() throws SettingsException {
        return read(place()[1]);
    }

    private static byte[] read(Path target) throws SettingsException {
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return new byte[0];
        }
        try {
            return StateFiles.readAll(target, MAX_BYTES, false);
        } catch (IOException e) {
            throw new SettingsException("plugin_unreadable", target + " cannot be read safely (" + e.getMessage()
                    + "); it was left unchanged.");
        }
    }

    @Override
    public byte[] preview(Edit edit) throws SettingsException {
        return edit.apply(read());
    }

    @Override
    public byte[] update(Edit edit) throws SettingsException {
        Path[] at = place();
        byte[] before = read(at[1]);
        byte[] after = edit.apply(before);
        if (Arrays.equals(before, after) && Files.exists(at[1], LinkOption.NOFOLLOW_LINKS)) {
            return after;
        }
        List<Path> created = CreatedPaths.missing(at[1]);
        try {
            StateFiles.replace(at[0], at[1], after);
            if (!created.isEmpty()) {
                CreatedPaths.record(record(at[1]), at[1], created);
            }
        } catch (IOException e) {
            throw new SettingsException("plugin_unwritable", "cannot write " + at[1] + ": " + e.getMessage());
        }
        return after;
    }

    /** Removes the file when {@code edit} leaves nothing of it, with the directories install created for it. */
    @Override
    public byte[] updateAndTidy(Edit edit, List<Path> removed) throws SettingsException {
        Path[] at = place();
        byte[] before = read(at[1]);
        byte[] after = edit.apply(before);
        if (after.length > 0) {
            return before;
        }
        try {
            List<Path> gone = CreatedPaths.remove(record(at[1]), at[1]);
            removed.addAll(gone);
            if (StateFiles.delete(at[0], at[1])) {
                removed.add(at[1]);
            }
        } catch (IOException e) {
            throw new SettingsException("plugin_unwritable", "cannot remove " + at[1] + ": " + e.getMessage());
        }
        return after;
    }

    @Override
    public String describe() throws SettingsException {
        return place()[1].toString();
    }

    private Path record(Path target) throws IOException {
        OwnedPath.createPrivateDirectories(recordDir);
        String digest = Sha256.hex(target.toString().getBytes(StandardCharsets.UTF_8));
        return recordDir.resolve("plugin-" + digest.substring(0, 32) + ".created");
    }
}
