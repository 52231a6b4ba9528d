package dev.agentwarden.release;

import dev.agentwarden.json.Fields;
import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.io.UserState;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.release.TrustFailure.Untrusted;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The highest root and manifest versions a project has trusted, so that an older manifest or root
 * cannot be replayed (rollback), and which root that was, so that a root that does not continue it
 * is seen. Kept in the user's own state ({@link ReleaseFloor}); updates only ever raise versions,
 * under a file lock, and replace the file atomically (mode 0600, directory 0700). The manifest floor
 * belongs to the root lineage, not to its keys: rotations never lower it.
 *
 * <p>A floor file or directory that is a link, not owned by this user, or writable by group or
 * others is refused as {@code release_state_untrusted}: the manifest is then untrusted, never
 * checked against a floor someone else could have lowered.
 *
 * <p>Migration: while the user's file does not exist, the project's old {@code trusted.json} is
 * read once, and only when it is a regular file owned by this user that group and others cannot
 * write; its root and manifest version floors are taken (they can only raise an empty floor), its
 * root hash is not (a planted foreign hash would make every manifest {@code root_replaced}). The
 * result is written to the user's file at once, which is authoritative from then on; a project
 * file that is unsafe or unreadable is ignored, since it could only have lowered protection.
 */
final class TrustState {
    private static final int FORMAT = 2;
    /** Format 1 also listed the root's key ids; it is read, and rewritten as format 2 on the next raise. */
    private static final int FORMAT_WITH_KEY_IDS = 1;
    private static final int MAX_BYTES = 64 * 1024;
    /** First word of the ownership reason codes: {@code release_state_not_owned}, {@code release_state_writable_by_others}. */
    private static final String CODE_PREFIX = "release_state";
    /** Longest wait for the state file lock; holders keep it only to read and replace one small file. */
    private static final long LOCK_WAIT_NANOS = 5_000_000_000L;
    /** File locks are per process; threads of one process take turns here first. */
    private static final Object PROCESS_LOCK = new Object();

    private final ReleaseFloor floor;
    private final boolean persist;
    private Snapshot overlay;

    private TrustState(ReleaseFloor floor, boolean persist) {
        this.floor = floor;
        this.persist = persist;
    }

    /**
     * What was last trusted.
     *
     * @param rootVersion     highest trusted root version, 0 before the first
     * @param rootSha256      hex SHA-256 of the RFC 8785 form of that root's {@code signed} object, or
     *                        {@code null} before the first (and in format 1 files and migrated floors)
     * @param manifestVersion highest trusted manifest version, 0 before the first
     */
    record Snapshot(long rootVersion, String rootSha256, long manifestVersion) {
        static final Snapshot EMPTY = new Snapshot(0, null, 0);
    }

    /** State persisted in {@code floor}. */
    static TrustState at(ReleaseFloor floor) {
        return new TrustState(floor, true);
    }

    /** State read from {@code floor} whose updates stay in this object: checks without recording. */
    static TrustState readOnly(ReleaseFloor floor) {
        return new TrustState(floor, false);
    }

    /** State that lives only as long as this object: no rollback protection across runs. */
    static TrustState inMemory() {
        return new TrustState(null, false);
    }

    /** The user's floor file, or {@code null} in memory. */
    Path file() {
        return floor == null ? null : floor.userFile();
    }

    Snapshot read() throws Untrusted {
        if (overlay != null) {
            return overlay;
        }
        if (floor == null) {
            return Snapshot.EMPTY;
        }
        Snapshot user = readUser();
        if (user != null) {
            return user;
        }
        if (!persist) {
            overlay = readProjectFloor();
            return overlay;
        }
        return update(UnaryOperator.identity());
    }

    /** Applies {@code change} to the current state and stores the result if it differs (or was migrated). */
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
        Path dir = file().getParent();
        try {
            UserState.ensurePrivateDirectory(dir, CODE_PREFIX);
            try (FileChannel lockChannel = FileChannel.open(lockFile(), Set.<OpenOption>of(StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(UserState.FILE_MODE));
                 FileLock lock = lock(lockChannel)) {
                Snapshot current = readUser();
                boolean migrated = current == null;
                if (migrated) {
                    current = readProjectFloor();
                }
                Snapshot next = change.apply(current);
                if (migrated || !next.equals(current)) {
                    write(next);
                }
                return next;
            }
        } catch (UnsafeFileException e) {
            throw TrustFailure.STATE_UNTRUSTED.because(e.getMessage());
        } catch (IOException e) {
            throw TrustFailure.STATE_UNREADABLE.because("cannot update " + file() + ": " + e.getMessage());
        }
    }

    /** The user's floor, or {@code null} when there is none yet; refuses one others could have written. */
    private Snapshot readUser() throws Untrusted {
        Path file = file();
        byte[] bytes;
        try {
            UserState.requirePrivate(file.getParent(), true, CODE_PREFIX);
            UserState.requirePrivate(file, false, CODE_PREFIX);
            bytes = StateFiles.readAll(file, MAX_BYTES, false);
        } catch (NoSuchFileException e) {
            return null;
        } catch (UnsafeFileException e) {
            if ("file_too_large".equals(e.code())) {
                throw TrustFailure.STATE_UNREADABLE.because(file + " is larger than " + MAX_BYTES + " bytes");
            }
            throw TrustFailure.STATE_UNTRUSTED.because(e.getMessage());
        } catch (IOException e) {
            throw TrustFailure.STATE_UNREADABLE.because("cannot read " + file + ": " + e.getMessage());
        }
        return decode(bytes, file.toString());
    }

    /** The version floors of the project's old file when it is safe and valid, else {@link Snapshot#EMPTY}. */
    private Snapshot readProjectFloor() {
        Path file = floor.projectFile();
        if (file == null) {
            return Snapshot.EMPTY;
        }
        try {
            UserState.requirePrivate(file, false, CODE_PREFIX);
            Snapshot s = decode(StateFiles.readAll(file, MAX_BYTES, false), file.toString());
            return new Snapshot(s.rootVersion(), null, s.manifestVersion());
        } catch (IOException | Untrusted unsafeOrInvalid) {
            return Snapshot.EMPTY;
        }
    }

    private Path lockFile() {
        return file().resolveSibling(file().getFileName() + ".lock");
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
                throw TrustFailure.STATE_UNREADABLE.because(lockFile() + " stayed locked by another"
                        + " process for " + LOCK_WAIT_NANOS / 1_000_000_000 + " s");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + lockFile(), e);
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
        AtomicWrite.write(file(), (Json.write(json) + "\n").getBytes(StandardCharsets.UTF_8), UserState.FILE_MODE);
    }

    private static Snapshot decode(byte[] bytes, String source) throws Untrusted {
        Object document;
        try {
            document = Json.parse(bytes, JsonLimits.I_JSON);
        } catch (JsonException e) {
            throw TrustFailure.STATE_UNREADABLE.because(source + ": " + e.getMessage()
                    + " (delete it to forget the trusted versions)");
        }
        Fields<Untrusted> f = Fields.of(document, source, TrustFailure.STATE_UNREADABLE);
        long format = f.positiveLong("format", 1);
        if (format != FORMAT && format != FORMAT_WITH_KEY_IDS) {
            throw TrustFailure.STATE_UNREADABLE.because(source + ": format " + format + " is not " + FORMAT);
        }
        String rootSha = format == FORMAT ? f.optionalString("root_sha256") : null;
        if (rootSha != null && !Sha256.isHex(rootSha)) {
            throw TrustFailure.STATE_UNREADABLE.because(source + ": root_sha256 must be 64 lowercase hex digits"
                    + " (delete it to forget the trusted versions)");
        }
        return new Snapshot(f.positiveLong("root_version", 0), rootSha, f.positiveLong("manifest_version", 0));
    }
}
