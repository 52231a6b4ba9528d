package dev.agentwarden.strike;

import dev.agentwarden.concern.Escalation;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The strike store: per session, the times (epoch ms) of the events some concern refused, kept in
 * {@code .warden/state/strikes/<first 16 hex of sha256(session id)>.json} as
 * {@code {"refusals":[t, ...]}}, oldest first, at most {@link #MAX_STRIKES}, none older than
 * {@link Escalation#MAX_WITHIN_MS}. A session without an id keeps none.
 *
 * <p>A file Warden did not create for this user, or one it cannot read, is a {@link Failed}, never
 * zero strikes. {@link #record} is a read-modify-write under two locks: one per JVM (the resident's
 * threads) and an exclusive {@link FileLock} on the sibling {@code <hash>.lock} (other processes),
 * each waited for at most {@link #LOCK_WAIT_MS}, so concurrent dispatches of one session lose no
 * strike and none waits past that deadline. Readers take no lock: the file is replaced whole.
 */
public final class Strikes {
    /** The window {@code strikes} are counted in where no escalation names one. */
    public static final long DEFAULT_WINDOW_MS = 10 * 60_000L;
    /** Most strikes kept per session. */
    public static final int MAX_STRIKES = 256;
    /** Largest strikes file read. */
    static final int MAX_BYTES = 16 * 1024;
    /** Longest wait for the store's locks before a record fails. */
    public static final long LOCK_WAIT_MS = 2_000;

    /**
     * One JVM's writers, one at a time: POSIX record locks belong to the process, so two threads
     * holding channels on the lock file would not exclude each other, and closing either channel
     * would drop the other's lock.
     */
    private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();

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
        return dir(stateHome).resolve(key(sessionId) + ".json");
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
        try {
            if (!IN_THIS_JVM.tryLock(LOCK_WAIT_MS, TimeUnit.MILLISECONDS)) {
                throw new Failed("strikes: " + file + " is busy in this process past " + LOCK_WAIT_MS + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("strikes: interrupted waiting for " + file);
        }
        try (FileChannel channel = StateFiles.openWrite(stateHome.getParent(), lockFile)) {
            FileLock lock = waitForLock(channel, lockFile, deadline);
            try {
                long[] kept = read(stateHome, sessionId, now);
                int from = Math.max(0, kept.length + 1 - MAX_STRIKES);
                long[] out = Arrays.copyOfRange(kept, from, kept.length + 1);
                out[out.length - 1] = now;
                StringBuilder json = new StringBuilder(16 + 14 * out.length).append("{\"refusals\":[");
                for (int i = 0; i < out.length; i++) {
                    json.append(i == 0 ? "" : ",").append(out[i]);
                }
                json.append("]}\n");
                StateFiles.replace(stateHome.getParent(), file, json.toString().getBytes(StandardCharsets.UTF_8));
                return out;
            } finally {
                lock.release();
            }
        } catch (IOException | RuntimeException e) {
            throw new Failed("strikes: cannot write " + file + ": " + e.getMessage());
        } finally {
            IN_THIS_JVM.unlock();
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

    /** The session's strikes within {@link Escalation#MAX_WITHIN_MS} of {@code now}, oldest first. */
    public static long[] read(Path stateHome, String sessionId, long now) throws Failed {
        if (sessionId == null || sessionId.isEmpty()) {
            return new long[0];
        }
        Path file = file(stateHome, sessionId);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return new long[0];
        }
        Object parsed;
        try {
            String problem = OwnedPath.problem(file);
            if (problem != null) {
                throw new Failed("strikes: " + problem);
            }
            parsed = Json.parse(StateFiles.readAll(file, MAX_BYTES, false), JsonLimits.LENIENT);
        } catch (IOException | RuntimeException e) {
            throw new Failed("strikes: cannot read " + file + ": " + e.getMessage());
        }
        Object refusals = parsed instanceof Map<?, ?> m ? m.get("refusals") : null;
        if (!(refusals instanceof List<?> list)) {
            throw new Failed("strikes: " + file + " holds no refusals list");
        }
        long[] out = new long[list.size()];
        int n = 0;
        for (Object t : list) {
            if (t instanceof Number num && num.longValue() <= now && now - num.longValue() < Escalation.MAX_WITHIN_MS) {
                out[n++] = num.longValue();
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }
}
