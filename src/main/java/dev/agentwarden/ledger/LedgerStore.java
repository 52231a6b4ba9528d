package dev.agentwarden.ledger;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The append-only, hash-chained ledger of one project, and the lock that serialises every write to
 * it and to the open-record set.
 *
 * <p>Writers from many processes (hosts run hooks in parallel) append inside a {@link #begin()
 * transaction}, which holds the exclusive {@link LedgerLock} while it reads the chain's tail, writes
 * whole lines, and updates {@code head.json}. A line is written with one append of its bytes and
 * newline while no other writer can run, so lines are never interleaved.
 *
 * <p>A crash can leave a final line without its newline. The next writer ends that torn line with
 * a newline (so it stays on disk as evidence and readers skip it) and chains onto the last line
 * that reads as a JSON object. When a writer finds the ledger shorter than {@code head.json}
 * records, it appends a {@code ledger_gap} line before its own, so the loss stays visible in the
 * chain itself; likewise when lines exist but {@code head.json} is missing or invalid.
 *
 * <p>Segments roll by month and by size: a line that would take the segment being appended to past
 * {@link #ROLL_BYTES} starts the month's next part ({@link LedgerPaths#nextPart}), and the chain
 * continues across parts as across months, so no segment grows without bound.
 *
 * <p>Every file is opened through {@link StateFiles}: no link is followed, nothing but a regular
 * file is opened, and no write leaves the project. A writer that cannot take the lock within its
 * budget leaves its event in the spool ({@link Spool}); the next writer that holds the lock folds
 * spooled events into the chain first.
 */
public final class LedgerStore {
    /** Bytes read from a segment's end to find its last line without scanning it. */
    private static final int TAIL_WINDOW = 8 * 1024;

    /** How long a writer waits for the lock when given no budget; hosts allow a hook 60 s. */
    public static final long DEFAULT_LOCK_WAIT_MS = 30_000;

    /** Size at which a segment ends and the month continues in its next part. */
    public static final long ROLL_BYTES = 64L << 20;

    private final LedgerPaths paths;
    private final Clock clock;
    private final long lockWaitMs;
    private final long rollBytes;

    public LedgerStore(LedgerPaths paths, Clock clock) {
        this(paths, clock, DEFAULT_LOCK_WAIT_MS);
    }

    /** @param lockWaitMs how long {@link #begin()} waits for the lock before it fails */
    public LedgerStore(LedgerPaths paths, Clock clock, long lockWaitMs) {
        this(paths, clock, lockWaitMs, ROLL_BYTES);
    }

    /** @param rollBytes the size at which a segment continues in a new part (tests roll small ones) */
    LedgerStore(LedgerPaths paths, Clock clock, long lockWaitMs, long rollBytes) {
        this.paths = paths;
        this.clock = clock;
        this.lockWaitMs = lockWaitMs;
        this.rollBytes = rollBytes;
    }

    public LedgerPaths paths() {
        return paths;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Takes the ledger lock and starts a transaction; everything it appends and every open record it
     * writes or removes is serialised against all other writers, in this and other processes. Close
     * it (try-with-resources) to update the head and release the lock.
     *
     * The chain's end is found and spooled events are folded in before it is returned.
     *
     * @throws LedgerException {@code ledger_lock_timeout} when the lock is not free within the budget
     */
    public Transaction begin() throws IOException {
        StateFiles.ensureDirectory(paths.root(), paths.ledgerDir());
        LedgerLock lock = LedgerLock.exclusive(paths.root(), paths.lockFile(),
                TimeUnit.MILLISECONDS.toNanos(lockWaitMs));
        Transaction tx = new Transaction(lock, clock.millis());
        try {
            tx.ensureTail();
            Spool.foldInto(tx);
        } catch (IOException | RuntimeException e) {
            tx.close();
            throw e;
        }
        return tx;
    }

    /**
     * Appends one line in a transaction of its own; returns the line as written. When the lock is
     * out of reach the line is spooled and {@code ledger_event_spooled} is thrown.
     */
    public Map<String, Object> append(Map<String, Object> fields) throws IOException {
        Transaction tx;
        try {
            tx = begin();
        } catch (LedgerException e) {
            if (!Spool.lockUnavailable(e)) {
                throw e;
            }
            throw Spool.spoolOrLose(paths, e, Spool.line(fields, clock.millis()));
        }
        try (tx) {
            return tx.append(fields);
        }
    }

    /**
     * The chain head as the last writer left it, read under a shared lock so that no write is seen
     * half done; {@code null} when there is none.
     */
    static ChainHead.Loaded readHead(LedgerPaths paths) throws IOException {
        if (!Files.exists(paths.lockFile(), LinkOption.NOFOLLOW_LINKS)) {
            return ChainHead.load(paths.headFile());
        }
        try (LedgerLock ignored = LedgerLock.shared(paths.lockFile())) {
            return ChainHead.load(paths.headFile());
        }
    }

    /** Where the chain ends: the segment being appended to, its physical line count, the last chain line's hash. */
    private record Tail(String segment, long lines, String hash) {
    }

    /**
     * The operations available while the lock is held. One instant, {@link #nowMs()}, stamps them
     * all, except spooled events being folded in, which keep the instant they were spooled at.
     */
    public final class Transaction implements AutoCloseable {
        private final LedgerLock lock;
        private final long start;
        private long now;
        private Tail tail;
        private FileChannel out;
        private boolean appended;

        private Transaction(LedgerLock lock, long now) {
            this.lock = lock;
            this.start = now;
            this.now = now;
        }

        LedgerPaths paths() {
            return paths;
        }

        /** Stamps what follows with {@code ms} (a spooled event's instant); {@link #resetInstant()} undoes it. */
        void stampAt(long ms) {
            now = ms;
        }

        void resetInstant() {
            now = start;
        }

        /** Finds the chain's end before anything else is written, so that an unusable ledger fails first. */
        void ensureTail() throws IOException {
            if (tail == null) {
                tail = resolveTail();
            }
        }

        /** The instant of this transaction in epoch milliseconds, read once from the clock. */
        public long nowMs() {
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
            ordered.put("ts", UtcTime.iso(now));
            for (Map.Entry<String, Object> e : fields.entrySet()) {
                if (!e.getKey().equals("event") && !e.getKey().equals("ts")) {
                    ordered.put(e.getKey(), e.getValue());
                }
            }
            String month = UtcTime.month(now);
            String target = tail.segment() == null || month.compareTo(tail.segment()) > 0 ? month : tail.segment();
            if (!target.equals(tail.segment())) {
                closeOut();
                tail = new Tail(target, 0, tail.hash());
            }
            String prev = tail.hash();
            byte[] line = LedgerLine.render(ordered, prev);
            if (tail.lines() > 0 && open(target).size() + line.length + 1 > rollBytes) {
                closeOut();
                target = LedgerPaths.nextPart(target);
                tail = new Tail(target, 0, tail.hash());
            }
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
            return OpenSet.read(paths, now, ttlMs);
        }

        /** Writes (or replaces) an open record atomically. */
        public void putOpen(OpenRecord record) throws IOException {
            StateFiles.replace(paths.root(), OpenSet.fileOf(paths, record.ref()), record.toBytes());
        }

        /** Removes an open record; {@code true} when this call removed it. */
        public boolean removeOpen(String ref) throws IOException {
            return StateFiles.delete(paths.root(), OpenSet.fileOf(paths, ref));
        }

        /** The segment being appended to, opened when it is not yet. */
        private FileChannel open(String segment) throws IOException {
            if (out == null) {
                out = StateFiles.openAppend(paths.root(), paths.segment(segment));
            }
            return out;
        }

        private void writeLine(String segment, byte[] line) throws IOException {
            open(segment);
            ByteBuffer buf = ByteBuffer.allocate(line.length + 1).put(line).put((byte) '\n').flip();
            StateFiles.writeFully(out, buf, -1);
            appended = true;
        }

        private void closeOut() throws IOException {
            if (out != null) {
                out.close();
                out = null;
            }
        }

        /** Writes the head for what was appended and releases the lock. */
        @Override
        public void close() throws IOException {
            try {
                closeOut();
            } finally {
                try {
                    if (appended) {
                        new ChainHead(tail.segment(), tail.lines(), tail.hash()).write(paths.root(), paths.headFile());
                    }
                } finally {
                    lock.close();
                }
            }
        }

        /** Finds the chain's end: from {@code head.json} when it matches the last segment's last line, else by scanning. */
        private Tail resolveTail() throws IOException {
            List<String> segments = paths.segments();
            ChainHead.Loaded loaded = ChainHead.load(paths.headFile());
            ChainHead head = loaded.head();
            if (head == null && !segments.isEmpty()) {
                Tail found = rescan(segments, null);
                if (found.lines() > 0 || !found.hash().equals(LedgerLine.GENESIS)) {
                    appendGap(found, null, loaded.missing()
                            ? "head.json is missing while the ledger holds lines"
                            : "head.json is unusable (" + loaded.problem() + ") while the ledger holds lines");
                    return tail;
                }
                return found;
            }
            if (segments.isEmpty()) {
                Tail fresh = new Tail(null, 0, LedgerLine.GENESIS);
                if (head != null) {
                    appendGap(fresh, head, "no segment files");
                    return tail;
                }
                return fresh;
            }
            String latest = segments.get(segments.size() - 1);
            if (head != null && head.segment().equals(latest)) {
                byte[] last = lastCompleteLine(paths.segment(latest));
                if (last != null && LedgerLine.hash(last).equals(head.hash())) {
                    return new Tail(latest, head.lines(), head.hash());
                }
            }
            return rescan(segments, head);
        }

        /** Scans the last segment: repairs a torn final line, counts lines, finds the last chain line, checks the head. */
        private Tail rescan(List<String> segments, ChainHead head) throws IOException {
            String latest = segments.get(segments.size() - 1);
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
                try (FileChannel ch = StateFiles.openAppend(paths.root(), file)) {
                    StateFiles.writeFully(ch, ByteBuffer.wrap(new byte[] {'\n'}), -1);
                }
            }
            for (int i = segments.size() - 2; lastGood == null && i >= 0; i--) {
                lastGood = lastChainLineHash(paths.segment(segments.get(i)));
            }
            Tail found = new Tail(latest, lines, lastGood == null ? LedgerLine.GENESIS : lastGood);
            if (head != null) {
                boolean headInLedger = segments.contains(head.segment());
                boolean headBehind = head.segment().compareTo(latest) < 0 && headInLedger
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
            append(LedgerLine.of(LedgerLine.Event.LEDGER_GAP)
                    .put(LedgerLine.Key.EXPECTED_SEGMENT, head == null ? null : head.segment())
                    .put(LedgerLine.Key.EXPECTED_LINES, head == null ? null : head.lines())
                    .put(LedgerLine.Key.EXPECTED_HASH, head == null ? null : head.hash())
                    .put(LedgerLine.Key.DETAIL, detail)
                    .fields());
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
        try (FileChannel ch = StateFiles.openRead(file, false)) {
            long size = ch.size();
            if (size == 0) {
                return null;
            }
            int window = (int) Math.min(size, TAIL_WINDOW);
            byte[] buf = new byte[window];
            ByteBuffer into = ByteBuffer.wrap(buf);
            long pos = size - window;
            while (into.hasRemaining()) {
                int n = ch.read(into, pos);
                if (n < 0) {
                    return null;
                }
                pos += n;
            }
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
