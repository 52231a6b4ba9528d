package dev.agentwarden.host;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * A host's JSON settings file, changed safely: read under an exclusive lock, transformed, and
 * replaced atomically (temporary file + rename) so a reader never sees half a file and two
 * installers never lose each other's change. A file that is not a JSON object is refused and left
 * exactly as it was.
 */
public final class SettingsFile {
    /** Largest settings file accepted. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    /**
     * One monitor per lock file: a {@link FileLock} orders processes, but a second thread of the same
     * JVM asking for it gets an {@link java.nio.channels.OverlappingFileLockException}.
     */
    private static final ConcurrentHashMap<Path, Object> LOCKS_IN_THIS_JVM = new ConcurrentHashMap<>();

    private final Path file;

    public SettingsFile(Path file) {
        this.file = file;
    }

    public Path path() {
        return file;
    }

    /** A settings file that cannot be changed, with a stable code. */
    public static final class SettingsException extends Exception {
        private static final long serialVersionUID = 1L;
        private final String code;

        SettingsException(String code, String message) {
            super(message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    /** The current content; an absent file reads as an empty object. */
    public Map<String, Object> read() throws SettingsException {
        if (!Files.exists(file)) {
            return new LinkedHashMap<>();
        }
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new SettingsException("settings_too_large", file + " is over " + MAX_BYTES + " bytes; refusing to edit it");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SettingsException("settings_unreadable", "cannot read " + file + ": " + e.getMessage());
        }
        if (new String(bytes, StandardCharsets.UTF_8).isBlank()) {
            return new LinkedHashMap<>();
        }
        Object parsed;
        try {
            parsed = Json.parse(bytes, JsonLimits.LENIENT);
        } catch (JsonException e) {
            throw new SettingsException("settings_not_json", file + " is not valid JSON (" + e.getMessage()
                    + "); fix or move it, then run again. It was left unchanged.");
        }
        if (!(parsed instanceof Map<?, ?>)) {
            throw new SettingsException("settings_not_object", file + " is JSON but not an object; it was left unchanged.");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) parsed;
        return map;
    }

    /**
     * Applies {@code change} under the lock and writes the result atomically; returns the new
     * content. Nothing is written when the content is unchanged.
     */
    public Map<String, Object> update(UnaryOperator<Map<String, Object>> change) throws SettingsException {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new SettingsException("settings_unwritable", "cannot create " + file.getParent() + ": " + e.getMessage());
        }
        Path lockFile = file.toAbsolutePath().normalize().resolveSibling("." + file.getFileName() + ".warden-lock");
        synchronized (LOCKS_IN_THIS_JVM.computeIfAbsent(lockFile, k -> new Object())) {
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = channel.lock()) {
                Map<String, Object> before = read();
                String beforeText = Json.write(before);
                Map<String, Object> after = change.apply(before);
                if (!Json.write(after).equals(beforeText) || !Files.exists(file)) {
                    writeAtomically(Json.writePretty(after));
                }
                return after;
            } catch (IOException e) {
                throw new SettingsException("settings_unwritable", "cannot write " + file + ": " + e.getMessage());
            }
        }
        // The lock file stays: deleting it would let a waiter and a newcomer lock different inodes.
    }

    private void writeAtomically(String text) throws IOException {
        AtomicWrite.write(file, text.getBytes(StandardCharsets.UTF_8), permissionsToKeep());
    }

    /** The settings file's own permissions, {@code rw-r--r--} for a new one; {@code null} without POSIX permissions. */
    private Set<PosixFilePermission> permissionsToKeep() {
        try {
            return Files.exists(file) ? Files.getPosixFilePermissions(file) : PosixFilePermissions.fromString("rw-r--r--");
        } catch (UnsupportedOperationException | IOException e) {
            return null;
        }
    }
}
