package dev.agentwarden.ledger;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A held lock on {@code ledger/.lock}: first a JVM-wide mutex for that file, then the OS file lock.
 * The mutex keeps every use of the lock file in one JVM sequential, because a JVM cannot hold two
 * locks on one file and closing any channel on it may release all of the JVM's locks on it. Waits
 * are bounded: after 5 s the acquirer fails with {@code ledger_lock_timeout} rather than hang a host.
 */
final class LedgerLock implements AutoCloseable {
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private final ReentrantLock mutex;
    private final FileChannel channel;
    private final FileLock lock;

    private LedgerLock(ReentrantLock mutex, FileChannel channel, FileLock lock) {
        this.mutex = mutex;
        this.channel = channel;
        this.lock = lock;
    }

    /** Exclusive, for writers; creates the lock file. */
    static LedgerLock exclusive(Path lockFile) throws IOException {
        return acquire(lockFile, false);
    }

    /** Shared, for readers that must not see a write half done; the lock file must exist. */
    static LedgerLock shared(Path lockFile) throws IOException {
        return acquire(lockFile, true);
    }

    private static LedgerLock acquire(Path lockFile, boolean shared) throws IOException {
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
            if (!mutex.tryLock(WAIT_NANOS, TimeUnit.NANOSECONDS)) {
                throw timeout("another thread of this process", key);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerException("ledger_lock_interrupted", "interrupted while waiting for " + key);
        }
        FileChannel channel = null;
        try {
            channel = shared ? FileChannel.open(key, StandardOpenOption.READ)
                    : FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            return new LedgerLock(mutex, channel, fileLock(channel, key, shared));
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.close();
            }
            mutex.unlock();
            throw e;
        }
    }

    private static FileLock fileLock(FileChannel channel, Path lockFile, boolean shared) throws IOException {
        long deadline = System.nanoTime() + WAIT_NANOS;
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
                throw timeout("another process", lockFile);
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    private static LedgerException timeout(String holder, Path lockFile) {
        return new LedgerException("ledger_lock_timeout", holder + " held " + lockFile + " for more than "
                + TimeUnit.NANOSECONDS.toMillis(WAIT_NANOS) + " ms");
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
