package dev.agentwarden.ledger;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A held lock on {@code ledger/.lock}: first a JVM-wide mutex for that file, then the OS file lock.
 * The mutex keeps every use of the lock file in one JVM sequential, because a JVM cannot hold two
 * locks on one file and closing any channel on it may release all of the JVM's locks on it. Waits
 * are bounded by the caller's budget, after which the acquirer fails with {@code ledger_lock_timeout}
 * rather than hang a host, and end early with {@code ledger_lock_interrupted} when the waiting thread
 * is interrupted (a built-in concern past its deadline). The lock file is opened without following
 * links and must be a regular file.
 */
final class LedgerLock implements AutoCloseable {
    /** The wait of readers and of writers that were given no budget. */
    static final long DEFAULT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** Longest pause between tries: short against a hold of a few milliseconds, long enough not to spin. */
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(4);
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private final ReentrantLock mutex;
    private final FileChannel channel;
    private final FileLock lock;

    private LedgerLock(ReentrantLock mutex, FileChannel channel, FileLock lock) {
        this.mutex = mutex;
        this.channel = channel;
        this.lock = lock;
    }

    /** Exclusive, for writers; creates the lock file inside {@code root}. */
    static LedgerLock exclusive(Path root, Path lockFile, long waitNanos) throws IOException {
        return acquire(root, lockFile, false, waitNanos);
    }

    /** Shared, for readers that must not see a write half done; the lock file must exist. */
    static LedgerLock shared(Path lockFile) throws IOException {
        return acquire(null, lockFile, true, DEFAULT_WAIT_NANOS);
    }

    private static LedgerLock acquire(Path root, Path lockFile, boolean shared, long waitNanos) throws IOException {
        long deadline = System.nanoTime() + waitNanos;
        Path key = lockFile.toAbsolutePath().normalize();
        ReentrantLock mutex = IN_PROCESS.get(key);
        if (mutex == null) {
            ReentrantLock fresh = new ReentrantLock();
            mutex = IN_PROCESS.putIfAbsent(key, fresh);
            if (mutex == null) {
                mutex = fresh;
            }
        }
        try {
            if (!mutex.tryLock(waitNanos, TimeUnit.NANOSECONDS)) {
                throw timeout("another thread of this process", key, waitNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerException("ledger_lock_interrupted", "interrupted while waiting for " + key);
        }
        FileChannel channel = null;
        try {
            channel = shared ? StateFiles.openRead(key, false) : StateFiles.openWrite(root, key);
            return new LedgerLock(mutex, channel, fileLock(channel, key, shared, deadline, waitNanos));
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.close();
            }
            mutex.unlock();
            throw e;
        }
    }

    private static FileLock fileLock(FileChannel channel, Path lockFile, boolean shared, long deadline,
                                     long waitNanos) throws IOException {
        long pause = TimeUnit.MICROSECONDS.toNanos(20);
        while (true) {
            FileLock lock;
            try {
                lock = channel.tryLock(0, Long.MAX_VALUE, shared);
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() - deadline > 0) {
                throw timeout("another process", lockFile, waitNanos);
            }
            LockSupport.parkNanos(pause);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new LedgerException("ledger_lock_interrupted", "interrupted while waiting for " + lockFile);
            }
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
    }

    private static LedgerException timeout(String holder, Path lockFile, long waitNanos) {
        return new LedgerException("ledger_lock_timeout", holder + " held " + lockFile + " for more than "
                + TimeUnit.NANOSECONDS.toMillis(waitNanos) + " ms");
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
            channel.close();
        } finally {
            mutex.unlock();
        }
    }
}
