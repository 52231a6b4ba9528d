package dev.agentwarden.inventory;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Snapshots under {@code .warden/state/inventory/}: one file per snapshot,
 * {@code <taken_at>-t<turn>-<hash12>.json}, written whole by {@link AtomicWrite}. No directory on the
 * way and no target may be a symbolic link: a link planted in a cloned repository would otherwise
 * aim Warden's writes anywhere the user can write.
 */
public final class SnapshotStore {
    /** Largest snapshot file read back. */
    static final long MAX_FILE_BYTES = 32L * 1024 * 1024;
    private final Path stateHome;

    /** @param stateHome the project's {@code .warden} directory */
    public SnapshotStore(Path stateHome) {
        this.stateHome = stateHome;
    }

    public Path dir() {
        return stateHome.resolve("state").resolve("inventory");
    }

    /** Writes a snapshot; returns its file. */
    public Path write(InventorySnapshot snapshot) throws IOException {
        Path dir = dir();
        for (Path p : new Path[] {stateHome, stateHome.resolve("state"), dir}) {
            if (Files.isSymbolicLink(p)) {
                throw new IOException(p + " is a symbolic link; refusing to write inventory snapshots through it");
            }
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(p, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } catch (UnsupportedOperationException e) {
                    Files.createDirectory(p);
                }
            } else if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(p + " is not a directory");
            }
        }
        String stamp = snapshot.takenAt().replace(":", "").replace("-", "");
        Path target = dir.resolve(stamp + "-t" + snapshot.turnIndex() + "-" + snapshot.sha256().substring(0, 12) + ".json");
        if (Files.isSymbolicLink(target)) {
            throw new IOException(target + " is a symbolic link; refusing to write through it");
        }
        AtomicWrite.write(target, Json.writePretty(snapshot.toJson()).getBytes(StandardCharsets.UTF_8),
                PosixFilePermissions.fromString("rw-------"));
        return target;
    }

    /** Stored snapshot files, oldest first. */
    public List<Path> list() throws IOException {
        Path dir = dir();
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        String[] names = dir.toFile().list();
        if (names != null) {
            for (String n : names) {
                if (n.endsWith(".json") && !n.startsWith(".")) {
                    out.add(dir.resolve(n));
                }
            }
        }
        Collections.sort(out);
        return out;
    }

    /** The newest stored snapshot whose inventory hash is {@code sha256}, or {@code null}. */
    public InventorySnapshot findByHash(String sha256) throws IOException {
        List<Path> files = list();
        for (int k = files.size() - 1; k >= 0; k--) {
            try {
                InventorySnapshot s = read(files.get(k));
                if (s.sha256().equals(sha256)) {
                    return s;
                }
            } catch (IOException | JsonException e) {
                // An unreadable file is not the baseline.
            }
        }
        return null;
    }

    /** Reads a snapshot file (not through a symbolic link); the hashes are recomputed from the manifests. */
    @SuppressWarnings("unchecked")
    public static InventorySnapshot read(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new IOException(file + " is a symbolic link; not read");
        }
        Object value = Json.parse(StateFiles.readAll(file, MAX_FILE_BYTES, false), JsonLimits.I_JSON);
        if (!(value instanceof Map<?, ?> m)) {
            throw new JsonException("inventory_schema", file + " is not a JSON object", 0);
        }
        return InventorySnapshot.fromJson((Map<String, Object>) m);
    }
}
