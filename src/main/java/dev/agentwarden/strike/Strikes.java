package dev.agentwarden.strike;

import dev.agentwarden.concern.Escalation;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The strike store: per session, the times (epoch ms) of the events some concern refused, kept in
 * {@code .warden/state/strikes/<first 16 hex of sha256(session id)>.strikes}, one decimal time and a
 * newline per strike, oldest first. A session without an id keeps none. What counts is at most the
 * newest {@link #MAX_STRIKES}, none older than {@link Escalation#MAX_WITHIN_MS}.
 *
 * <p>A strike is appended; once the file holds {@link #COMPACT_AT} lines it is replaced whole by the
 * strikes that still count (an atomic rename, which on ext4 costs about a flush: once per
 * {@link #COMPACT_AT} - {@link #MAX_STRIKES} strikes, not per strike). A last line without its
 * newline is an append still in progress and not read.
 *
 * <p>A file Warden did not create for this user, or one it cannot read, is a {@link Failed}, never
 * zero strikes. {@link #record} is a read-modify-write under two locks: one per lock file in this
 * JVM (the resident's threads) and an exclusive {@link FileLock} on the sibling {@code <hash>.lock} (other processes),
 * each waited for at most {@link #LOCK_WAIT_MS}, so concurrent dispatches of one session lose no
 * strike and none waits past that deadline. Readers take no lock.
 */
public final class Strikes {
    /** The window {@code strikes} are counted in where no escalation names one. */
    public static final long DEFAULT_WINDOW_MS = 10 * 60_000L;
    /** Most strikes kept per session. */
    public static final int MAX_STRIKES = 256;
    /** Lines at which the file is rewritten with only the strikes that still count. */
    static final int COMPACT_AT = 2 * MAX_STRIKES;
    /** Largest strikes file read: {@link #COMPACT_AT} lines of a 19-digit time. */
    static final int MAX_BYTES = COMPACT_AT * 20;
    /** Longest wait for the store's locks before a record fails. */
    static final long LOCK_WAIT_MS = 2_000;

    /**
     * This JVM's writers of one lock file, one at a time: POSIX record locks belong to the process,
     * so two threads holding channels on the lock file would not exclude each other, and closing
     * either channel would drop the other's lock. One monitor per lock file in use (removed when its
     * last user leaves), so a session whose file another process holds delays no other session.
     */
    private static final HashMap<Path, FileMonitor> IN_THIS_JVM = new HashMap<>();

    /** A lock file's monitor and how many threads use it now (guarded by {@link #IN_THIS_JVM}). */
    private static final class FileMonitor {
        final ReentrantLock lock = new ReentrantLock();
        int users;
    }

    private Strikes() {
    }

    /** Why the store could not be read or written; its message names the file. */
    public static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message, null, false, false);
        }
    }

    /** The strikes file of {@code sessionId} under {@code stateHome} (the project's {@code .warden}). */
    public static Path file(Path stateHome, String sessionId) {
        return dir(stateHome).resolve(key(sessionId) + ".strikes");
    }

    private static Path dir(Path stateHome) {
        return stateHome.resolve("state").resolve("strikes");
    }

    private static String key(String sessionId) {
        return Sha256.hex(sessionId.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    }

    /** How many of {@code times} lie in the {@code windowMs} before {@code now}. */
    public static int count(long[] times, long now, long windowMs) {
        int n = 0;
        for (long t : times) {
            if (t <= now && now - t < windowMs) {
                n++;
            }
        }
        return n;
    }

    /** How many strikes the session holds in the {@code windowMs} before {@code now}. */
    public static int count(Path stateHome, String sessionId, long now, long windowMs) throws Failed {
        return count(read(stateHome, sessionId, now), now, windowMs);
    }

    /**
     * Adds a strike at {@code now}, forgetting those older than {@link Escalation#MAX_WITHIN_MS};
     * returns the session's strikes after it, oldest first. Does nothing for a session without an id.
     */
    public static long[] record(Path stateHome, String sessionId, long now) throws Failed {
        if (sessionId == null || sessionId.isEmpty()) {
            return new long[0];
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOCK_WAIT_MS);
        Path file = file(stateHome, sessionId);
        Path lockFile = dir(stateHome).resolve(key(sessionId) + ".lock");
        Path monitorKey = lockFile.toAbsolutePath().normalize();
        FileMonitor monitor = enter(monitorKey);
        try {
            if (!monitor.lock.tryLock(LOCK_WAIT_MS, TimeUnit.MILLISECONDS)) {
                leave(monitorKey, monitor);
                throw new Failed("strikes: " + file + " is busy in this process past " + LOCK_WAIT_MS + " ms");
            }
        } catch (InterruptedException e) {
            leave(monitorKey, monitor);
            Thread.currentThread().interrupt();
            throw new Failed("strikes: interrupted waiting for " + file);
        }
        try (FileChannel channel = StateFiles.openWrite(stateHome.getParent(), lockFile)) {
            FileLock lock = waitForLock(channel, lockFile, deadline);
            try {
                Lines lines = lines(stateHome, sessionId, now);
                long[] kept = lines.times;
                long[] out = Arrays.copyOfRange(kept, Math.max(0, kept.length + 1 - MAX_STRIKES), kept.length + 1);
                out[out.length - 1] = now;
                Path root = stateHome.getParent();
                if (lines.count + 1 < COMPACT_AT && !lines.torn) {
                    try (FileChannel append = StateFiles.openAppend(root, file)) {
                        StateFiles.writeFully(append, java.nio.ByteBuffer.wrap((now + "\n").getBytes(StandardCharsets.US_ASCII)),
                                -1);
                    }
                } else {
                    StringBuilder text = new StringBuilder(20 * out.length);
                    for (long t : out) {
                        text.append(t).append('\n');
                    }
                    StateFiles.replace(root, file, text.toString().getBytes(StandardCharsets.US_ASCII));
                }
                return out;
            } finally {
                lock.release();
            }
        } catch (IOException | RuntimeException e) {
            throw new Failed("strikes: cannot write " + file + ": " + e.getMessage());
        } finally {
            monitor.lock.unlock();
            leave(monitorKey, monitor);
        }
    }

    private static FileMonitor enter(Path key) {
        synchronized (IN_THIS_JVM) {
            FileMonitor monitor = IN_THIS_JVM.get(key);
            if (monitor == null) {
                monitor = new FileMonitor();
                IN_THIS_JVM.put(key, monitor);
            }
            monitor.users++;
            return monitor;
        }
    }

    private static void leave(Path key, FileMonitor monitor) {
        synchronized (IN_THIS_JVM) {
            if (--monitor.users == 0) {
                IN_THIS_JVM.remove(key);
            }
        }
    }

    /** The exclusive lock on {@code channel}, polled until {@code deadline} ({@link System#nanoTime}). */
    private static FileLock waitForLock(FileChannel channel, Path lockFile, long deadline) throws IOException, Failed {
        while (true) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException heldHere) {
                lock = null;
            }
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new Failed("strikes: " + lockFile + " is locked by another process past " + LOCK_WAIT_MS + " ms");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Failed("strikes: interrupted waiting for " + lockFile);
            }
        }
    }

    /** The session's strikes that count at {@code now} (the newest {@link #MAX_STRIKES} within {@link Escalation#MAX_WITHIN_MS}), oldest first. */
    public static long[] read(Path stateHome, String sessionId, long now) throws Failed {
        return lines(stateHome, sessionId, now).times;
    }

    /** What a strikes file holds: the strikes that count, how many lines it has, and whether its last line is torn. */
    private static final class Lines {
        final long[] times;
        final int count;
        final boolean torn;

        Lines(long[] times, int count, boolean torn) {
            this.times = times;
            this.count = count;
            this.torn = torn;
        }
    }

    private static Lines lines(Path stateHome, String sessionId, long now) throws Failed {
        if (sessionId == null || sessionId.isEmpty()) {
            return new Lines(new long[0], 0, false);
        }
        Path file = file(stateHome, sessionId);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return new Lines(new long[0], 0, false);
        }
        byte[] bytes;
        try {
            String problem = OwnedPath.problem(file);
            if (problem != null) {
                throw new Failed("strikes: " + problem);
            }
            bytes = StateFiles.readAll(file, MAX_BYTES, false);
        } catch (IOException | RuntimeException e) {
            throw new Failed("strikes: cannot read " + file + ": " + e.getMessage());
        }
        long[] out = new long[MAX_STRIKES];
        int n = 0;
        int count = 0;
        int from = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            long t = time(bytes, from, i);
            if (t < 0) {
                throw new Failed("strikes: " + file + " line " + (count + 1) + " is not a time in epoch milliseconds");
            }
            count++;
            from = i + 1;
            if (t <= now && now - t < Escalation.MAX_WITHIN_MS) {
                if (n == out.length) {
                    System.arraycopy(out, 1, out, 0, n - 1);
                    n--;
                }
                out[n++] = t;
            }
        }
        return new Lines(Arrays.copyOf(out, n), count, from < bytes.length);
    }

    /** The decimal number in {@code b[from, to)}, or -1 when it is empty, too long or not digits. */
    private static long time(byte[] b, int from, int to) {
        if (to <= from || to - from > 18) {
            return -1;
        }
        long t = 0;
        for (int i = from; i < to; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            t = t * 10 + (b[i] - '0');
        }
        return t;
    }
}
