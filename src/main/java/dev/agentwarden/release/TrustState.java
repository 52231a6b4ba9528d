package dev.agentwarden.release;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The highest root and manifest versions this project has trusted, so that an older manifest or
 * root cannot be replayed (rollback), and which root that was, so that a root that does not continue
 * it is seen. Kept in {@value #FILE} under the project's release state directory
 * ({@code .warden/state/release/}); updates only ever raise versions, under a file lock, and replace
 * the file atomically. The manifest floor belongs to the root lineage, not to its keys: rotations
 * never lower it.
 */
final class TrustState {
    static final String FILE = "trusted.json";
    private static final int FORMAT = 2;
    /** Format 1 also listed the root's key ids; it is read, and rewritten as format 2 on the next raise. */
    private static final int FORMAT_WITH_KEY_IDS = 1;
    private static final int MAX_BYTES = 64 * 1024;
    /** Longest wait for the state file lock; holders keep it only to read and replace one small file. */
    private static final long LOCK_WAIT_NANOS = 5_000_000_000L;
    /** File locks are per process; threads of one process take turns here first. */
    private static final Object PROCESS_LOCK = new Object();

    private final Path dir;
    private final boolean persist;
    private Snapshot overlay;

    private TrustState(Path dir, boolean persist) {
        this.dir = dir;
        this.persist = persist;
    }

    /**
     * What was last trusted.
     *
     * @param rootVersion     highest trusted root version, 0 before the first
     * @param rootSha256      hex SHA-256 of the RFC 8785 form of that root's {@code signed} object, or
     *                        {@code null} before the first (and in format 1 files)
     * @param manifestVersion highest trusted manifest version, 0 before the first
     */
    record Snapshot(long rootVersion, String rootSha256, long manifestVersion) {
        static final Snapshot EMPTY = new Snapshot(0, null, 0);
    }

    /** State persisted under {@code dir}. */
    static TrustState at(Path dir) {
        return new TrustState(dir, true);
    }

    /** State read from {@code dir} whose updates stay in this object: checks without recording. */
    static TrustState readOnly(Path dir) {
        return new TrustState(dir, false);
    }

    /** State that lives only as long as this object: no rollback protection across runs. */
    static TrustState inMemory() {
        return new TrustState(null, false);
    }

    Path file() {
        return dir == null ? null : dir.resolve(FILE);
    }

    Snapshot read() throws Untrusted {
        if (overlay != null) {
            return overlay;
        }
        if (dir == null) {
            return Snapshot.EMPTY;
        }
        Path file = file();
        byte[] bytes;
        try {
            if (!Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()) {
                throw TrustFailure.STATE_UNREADABLE.because(file + " is not a regular file (a symbolic link, device or"
                        + " pipe is never read; delete it to forget the trusted versions)");
            }
            try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                bytes = in.readNBytes(MAX_BYTES + 1);
            }
            if (bytes.length > MAX_BYTES) {
                throw TrustFailure.STATE_UNREADABLE.because(file + " is larger than " + MAX_BYTES + " bytes");
            }
        } catch (NoSuchFileException e) {
            return Snapshot.EMPTY;
        } catch (IOException e) {
            throw TrustFailure.STATE_UNREADABLE.because("cannot read " + file + ": " + e.getMessage());
        }
        return decode(bytes, file.toString());
    }

    /** Applies {@code change} to the current state and stores the result if it differs. */
    Snapshot update(UnaryOperator<Snapshot> change) throws Untrusted {
        if (!persist) {
            overlay = change.apply(read());
            return overlay;
        }
        synchronized (PROCESS_LOCK) {
            return updateLocked(change);
        }
    }

    private Snapshot updateLocked(UnaryOperator<Snapshot> change) throws Untrusted {
        try {
            Files.createDirectories(dir);
            try (FileChannel lockChannel = FileChannel.open(dir.resolve(FILE + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
                 FileLock lock = lock(lockChannel)) {
                Snapshot current = read();
                Snapshot next = change.apply(current);
                if (!next.equals(current)) {
                    write(next);
                }
                return next;
            }
        } catch (IOException e) {
            throw TrustFailure.STATE_UNREADABLE.because("cannot update " + file() + ": " + e.getMessage());
        }
    }

    /** The lock, waiting at most {@link #LOCK_WAIT_NANOS} for another process to release it. */
    private FileLock lock(FileChannel channel) throws IOException, Untrusted {
        long deadline = System.nanoTime() + LOCK_WAIT_NANOS;
        while (true) {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() - deadline > 0) {
                throw TrustFailure.STATE_UNREADABLE.because(dir.resolve(FILE + ".lock") + " stayed locked by another"
                        + " process for " + LOCK_WAIT_NANOS / 1_000_000_000 + " s");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + dir.resolve(FILE + ".lock"), e);
            }
        }
    }

    private void write(Snapshot snapshot) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("format", (long) FORMAT);
        json.put("root_version", snapshot.rootVersion());
        if (snapshot.rootSha256() != null) {
            json.put("root_sha256", snapshot.rootSha256());
        }
        json.put("manifest_version", snapshot.manifestVersion());
        AtomicWrite.write(file(), (Json.write(json) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static Snapshot decode(byte[] bytes, String source) throws Untrusted {
        Object document;
        try {
            document = Json.parse(bytes, JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.STATE_UNREADABLE.because(source + ": " + e.getMessage()
                    + " (delete it to forget the trusted versions)");
        }
        Fields f = Fields.of(document, source, TrustFailure.STATE_UNREADABLE);
        long format = f.positiveLong("format", 1);
        if (format != FORMAT && format != FORMAT_WITH_KEY_IDS) {
            throw TrustFailure.STATE_UNREADABLE.because(source + ": format " + format + " is not " + FORMAT);
        }
        String rootSha = format == FORMAT ? f.optionalString("root_sha256") : null;
        if (rootSha != null && !isSha256Hex(rootSha)) {
            throw TrustFailure.STATE_UNREADABLE.because(source + ": root_sha256 must be 64 lowercase hex digits"
                    + " (delete it to forget the trusted versions)");
        }
        return new Snapshot(f.positiveLong("root_version", 0), rootSha, f.positiveLong("manifest_version", 0));
    }

    private static boolean isSha256Hex(String s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
