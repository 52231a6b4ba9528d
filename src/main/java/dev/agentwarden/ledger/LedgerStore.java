package dev.agentwarden.ledger;

import dev.agentwarden.io.AtomicWrite;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
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
 * chain itself.
 */
public final class LedgerStore {
    /** Bytes read from a segment's end to find its last line without scanning it. */
    private static final int TAIL_WINDOW = 8 * 1024;

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

    /**
     * Takes the ledger lock and starts a transaction; everything it appends and every open record it
     * writes or removes is serialised against all other writers, in this and other processes. Close
     * it (try-with-resources) to update the head and release the lock.
     *
     * @throws LedgerException {@code ledger_lock_timeout} when the lock is not free within 5 s
     */
    public Transaction begin() throws IOException {
        if (!Files.isDirectory(paths.ledgerDir())) {
            Files.createDirectories(paths.ledgerDir());
        }
        LedgerLock lock = LedgerLock.exclusive(paths.lockFile());
        return new Transaction(lock, clock.millis());
    }

    /** Appends one line in a transaction of its own; returns the line as written. */
    public Map<String, Object> append(Map<String, Object> fields) throws IOException {
        try (Transaction tx = begin()) {
            return tx.append(fields);
        }
    }

    /**
     * The chain head as the last writer left it, read under a shared lock so that no write is seen
     * half done; {@code null} when there is none.
     */
    static ChainHead readHead(LedgerPaths paths) throws IOException {
        if (!Files.exists(paths.lockFile())) {
            return ChainHead.read(paths.headFile());
        }
        try (LedgerLock ignored = LedgerLock.shared(paths.lockFile())) {
            return ChainHead.read(paths.headFile());
        }
    }

    /** Where the chain ends: the segment being appended to, its physical line count, the last chain line's hash. */
    private record Tail(String segment, long lines, String hash) {
    }

    /** The operations available while the lock is held. One instant, {@link #nowMs()}, stamps them all. */
    public final class Transaction implements AutoCloseable {
        private final LedgerLock lock;
        private final long now;
        private Tail tail;
        private FileChannel out;
        private boolean appended;

        private Transaction(LedgerLock lock, long now) {
            this.lock = lock;
            this.now = now;
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
            if (!Files.isDirectory(paths.openDir())) {
                Files.createDirectories(paths.openDir());
            }
            AtomicWrite.write(OpenSet.fileOf(paths, record.ref()), record.toBytes());
        }

        /** Removes an open record; {@code true} when this call removed it. */
        public boolean removeOpen(String ref) throws IOException {
            return Files.deleteIfExists(OpenSet.fileOf(paths, ref));
        }

        private void writeLine(String segment, byte[] line) throws IOException {
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

        /** Writes the head for what was appended and releases the lock. */
        @Override
        public void close() throws IOException {
            try {
                closeOut();
            } finally {
                try {
                    if (appended) {
                        new ChainHead(tail.segment(), tail.lines(), tail.hash()).write(paths.headFile());
                    }
                } finally {
                    lock.close();
                }
            }
        }

        /** Finds the chain's end: from {@code head.json} when it matches the last segment's last line, else by scanning. */
        private Tail resolveTail() throws IOException {
            List<String> segments = paths.segments();
            ChainHead head = ChainHead.read(paths.headFile());
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
            Map<String, Object> gap = new LinkedHashMap<>();
            gap.put("event", "ledger_gap");
            gap.put("expected_segment", head.segment());
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
