package dev.agentwarden.ledger;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The append-only, hash-chained ledger of one project, and the lock that serialises every write to
 * it and to the open-record set.
 *
 * <p>Writers from many processes (hosts run hooks in parallel) append through
 * {@link #inTransaction}: it holds an exclusive {@link FileLock} on {@code ledger/.lock} (and a
 * JVM-wide mutex, since a JVM cannot lock one file twice) while it reads the chain's tail, writes
 * whole lines, and updates {@code head.json}. A line is written with one append of its bytes and
 * newline while no other writer can run, so lines are never interleaved.
 *
 * <p>A crash can leave a final line without its newline. The next writer ends that torn line with
 * a newline (so it stays on disk as evidence and readers skip it) and chains onto the last line
 * that reads as a JSON object. When a writer finds the ledger shorter than {@code head.json}
 * records, it appends a {@code ledger_gap} line before its own, so the loss stays visible in the
 * chain itself.
 */
public final class LedgerStore {
    /** How long a writer waits for the lock before giving up with {@code ledger_lock_timeout}. */
    static final long LOCK_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Bytes read from a segment's end to find its last line without scanning it. */
    private static final int TAIL_WINDOW = 8 * 1024;
    private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private final LedgerPaths paths;
    private final Clock clock;

    public LedgerStore(LedgerPaths paths, Clock clock) {
        this.paths = paths;
        this.clock = clock;
    }

    public LedgerPaths paths() {
        return paths;
    }

    public Clock clock() {
        return clock;
    }

    /** Work done while holding the ledger lock. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Transaction tx) throws IOException;
    }

    /**
     * Runs {@code work} holding the ledger lock; everything it appends and every open record it
     * writes or removes is serialised against all other writers, in this and other processes.
     *
     * @throws LedgerException {@code ledger_lock_timeout} when the lock is not free within 5 s
     */
    public <T> T inTransaction(Work<T> work) throws IOException {
        Files.createDirectories(paths.ledgerDir());
        return locked(paths, false, () -> {
            Transaction tx = new Transaction(clock.instant().truncatedTo(ChronoUnit.MILLIS));
            try {
                return work.run(tx);
            } finally {
                tx.finish();
            }
        });
    }

    /**
     * The chain head as the last writer left it, read under a shared lock so that no write is seen
     * half done; {@code null} when there is none.
     */
    static ChainHead readHead(LedgerPaths paths) throws IOException {
        if (!Files.exists(paths.lockFile())) {
            return ChainHead.read(paths.headFile());
        }
        return locked(paths, true, () -> ChainHead.read(paths.headFile()));
    }

    private interface LockedAction<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code action} holding the JVM-wide mutex for the lock file, then the file lock itself.
     * The mutex also keeps every use of the lock file in this JVM sequential, since closing any
     * channel on a file may release all of the JVM's locks on it.
     */
    private static <T> T locked(LedgerPaths paths, boolean shared, LockedAction<T> action) throws IOException {
        Path lockFile = paths.lockFile().toAbsolutePath().normalize();
        ReentrantLock local = IN_PROCESS.computeIfAbsent(lockFile, k -> new ReentrantLock());
        try {
            if (!local.tryLock(LOCK_WAIT_NANOS, TimeUnit.NANOSECONDS)) {
                throw new LedgerException("ledger_lock_timeout", "another thread of this process held " + lockFile
                        + " for more than " + TimeUnit.NANOSECONDS.toMillis(LOCK_WAIT_NANOS) + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LedgerException("ledger_lock_interrupted", "interrupted while waiting for " + lockFile);
        }
        try (FileChannel channel = shared ? FileChannel.open(lockFile, StandardOpenOption.READ)
                : FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = acquire(channel, lockFile, shared)) {
            return action.run();
        } finally {
            local.unlock();
        }
    }

    private static FileLock acquire(FileChannel channel, Path lockFile, boolean shared) throws IOException {
        long deadline = System.nanoTime() + LOCK_WAIT_NANOS;
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
                throw new LedgerException("ledger_lock_timeout", "another process held " + lockFile
                        + " for more than " + TimeUnit.NANOSECONDS.toMillis(LOCK_WAIT_NANOS) + " ms");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    /** Where the chain ends: the segment being appended to, its physical line count, the last chain line's hash. */
    private record Tail(YearMonth segment, long lines, String hash) {
    }

    /** The operations available while the lock is held. One instant, {@link #now()}, stamps them all. */
    public final class Transaction {
        private final Instant now;
        private Tail tail;
        private FileChannel out;
        private boolean appended;

        private Transaction(Instant now) {
            this.now = now;
        }

        /** The instant of this transaction, read once from the clock, in milliseconds. */
        public Instant now() {
            return now;
        }

        /**
         * Appends one line: {@code v}, then {@code event}, then {@code ts} (this transaction's instant),
         * then the other fields in order, then {@code prev}.
         *
         * @param fields the line's fields; must contain {@code event}
         * @return the line as written
         */
        public Map<String, Object> append(Map<String, Object> fields) throws IOException {
            if (tail == null) {
                tail = resolveTail();
            }
            Map<String, Object> ordered = new LinkedHashMap<>();
            ordered.put("event", fields.get("event"));
            ordered.put("ts", now.toString());
            fields.forEach((k, v) -> {
                if (!k.equals("event") && !k.equals("ts")) {
                    ordered.put(k, v);
                }
            });
            YearMonth month = YearMonth.from(now.atOffset(ZoneOffset.UTC));
            YearMonth target = tail.segment() == null || month.isAfter(tail.segment()) ? month : tail.segment();
            if (!target.equals(tail.segment())) {
                closeOut();
                tail = new Tail(target, 0, tail.hash());
            }
            String prev = tail.hash();
            byte[] line = LedgerLine.render(ordered, prev);
            writeLine(target, line);
            tail = new Tail(target, tail.lines() + 1, LedgerLine.hash(line));
            Map<String, Object> written = new LinkedHashMap<>();
            written.put("v", LedgerLine.VERSION);
            written.putAll(ordered);
            written.put("prev", prev);
            return written;
        }

        /** The open-record set as it is now. */
        public OpenSet openSet(long ttlMs) throws IOException {
            return OpenSet.read(paths, now.toEpochMilli(), ttlMs);
        }

        /** Writes (or replaces) an open record atomically. */
        public void putOpen(OpenRecord record) throws IOException {
            Files.createDirectories(paths.openDir());
            AtomicWrite.write(OpenSet.fileOf(paths, record.ref()), record.toBytes());
        }

        /** Removes an open record; {@code true} when this call removed it. */
        public boolean removeOpen(String ref) throws IOException {
            return Files.deleteIfExists(OpenSet.fileOf(paths, ref));
        }

        private void writeLine(YearMonth segment, byte[] line) throws IOException {
            if (out == null) {
                out = FileChannel.open(paths.segment(segment), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            }
            ByteBuffer buf = ByteBuffer.allocate(line.length + 1).put(line).put((byte) '\n').flip();
            while (buf.hasRemaining()) {
                out.write(buf);
            }
            appended = true;
        }

        private void closeOut() throws IOException {
            if (out != null) {
                out.close();
                out = null;
            }
        }

        private void finish() throws IOException {
            try {
                closeOut();
            } finally {
                if (appended) {
                    new ChainHead(tail.segment(), tail.lines(), tail.hash()).write(paths.headFile());
                }
            }
        }

        /** Finds the chain's end: from {@code head.json} when it matches the last segment's last line, else by scanning. */
        private Tail resolveTail() throws IOException {
            List<YearMonth> segments = paths.segments();
            ChainHead head = ChainHead.read(paths.headFile());
            if (segments.isEmpty()) {
                Tail fresh = new Tail(null, 0, LedgerLine.GENESIS);
                if (head != null) {
                    appendGap(fresh, head, "no segment files");
                    return tail;
                }
                return fresh;
            }
            YearMonth latest = segments.get(segments.size() - 1);
            if (head != null && head.segment().equals(latest)) {
                byte[] last = lastCompleteLine(paths.segment(latest));
                if (last != null && LedgerLine.hash(last).equals(head.hash())) {
                    return new Tail(latest, head.lines(), head.hash());
                }
            }
            return rescan(segments, head);
        }

        /** Scans the last segment: repairs a torn final line, counts lines, finds the last chain line, checks the head. */
        private Tail rescan(List<YearMonth> segments, ChainHead head) throws IOException {
            YearMonth latest = segments.get(segments.size() - 1);
            Path file = paths.segment(latest);
            long lines = 0;
            String lastGood = null;
            boolean torn = false;
            boolean headLineMatches = false;
            try (LineScanner scanner = new LineScanner(file, LedgerLine.MAX_LINE_BYTES)) {
                for (LineScanner.Line l = scanner.next(); l != null; l = scanner.next()) {
                    lines = l.number();
                    torn = !l.terminated();
                    String hash = l.overlong() ? null : LedgerLine.hash(l.bytes());
                    if (hash != null && LedgerLine.parse(l.bytes()) != null) {
                        lastGood = hash;
                    }
                    if (head != null && head.segment().equals(latest) && l.number() == head.lines()) {
                        headLineMatches = head.hash().equals(hash);
                    }
                }
            }
            if (torn) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
                }
            }
            for (int i = segments.size() - 2; lastGood == null && i >= 0; i--) {
                lastGood = lastChainLineHash(paths.segment(segments.get(i)));
            }
            Tail found = new Tail(latest, lines, lastGood == null ? LedgerLine.GENESIS : lastGood);
            if (head != null) {
                boolean headInLedger = segments.contains(head.segment());
                boolean headBehind = head.segment().isBefore(latest) && headInLedger
                        || head.segment().equals(latest) && headLineMatches;
                if (!headBehind) {
                    appendGap(found, head, !headInLedger ? "segment " + head.segment() + " is missing"
                            : "segment " + head.segment() + " has " + lines + " lines where the head records "
                            + head.lines() + " ending in " + head.hash().substring(0, 12));
                    return tail;
                }
            }
            return found;
        }

        /** Records in the chain that the ledger no longer holds what its head says it held. */
        private void appendGap(Tail found, ChainHead head, String detail) throws IOException {
            tail = found;
            Map<String, Object> gap = new LinkedHashMap<>();
            gap.put("event", "ledger_gap");
            gap.put("expected_segment", head.segment().toString());
            gap.put("expected_lines", head.lines());
            gap.put("expected_hash", head.hash());
            gap.put("detail", detail);
            append(gap);
        }
    }

    /** The hash of a segment's last chain line, or {@code null} when it has none. */
    private static String lastChainLineHash(Path file) throws IOException {
        String last = null;
        try (LineScanner scanner = new LineScanner(file, LedgerLine.MAX_LINE_BYTES)) {
            for (LineScanner.Line l = scanner.next(); l != null; l = scanner.next()) {
                if (!l.overlong() && LedgerLine.parse(l.bytes()) != null) {
                    last = LedgerLine.hash(l.bytes());
                }
            }
        }
        return last;
    }

    /**
     * The last newline-terminated line of a file, read from its end; {@code null} when the file is
     * empty, does not end with a newline, or its last line is longer than the tail window.
     */
    static byte[] lastCompleteLine(Path file) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long size = raf.length();
            if (size == 0) {
                return null;
            }
            int window = (int) Math.min(size, TAIL_WINDOW);
            byte[] buf = new byte[window];
            raf.seek(size - window);
            raf.readFully(buf);
            if (buf[window - 1] != '\n') {
                return null;
            }
            int end = window - 1;
            int start = end - 1;
            while (start >= 0 && buf[start] != '\n') {
                start--;
            }
            if (start < 0 && window < size) {
                return null;
            }
            byte[] line = new byte[end - start - 1];
            System.arraycopy(buf, start + 1, line, 0, line.length);
            return line;
        }
    }
}
