package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads the ledger's segments in chain order. Lines that are not JSON objects (a write torn by a
 * crash) are skipped and reported as {@code ledger_torn_line}; a reader never fails on them.
 *
 * <p>{@link #scan} streams: each line is read in place as a {@link LedgerLine.View}, nothing is
 * kept. {@link #read} hands out each line parsed into a map, for small ledgers and tests.
 */
public final class LedgerReader {

    /**
     * One chain line.
     *
     * @param segment the segment's month ({@code 2026-05})
     * @param line    1-based physical line number in the segment
     * @param fields  the line's JSON object
     * @param bytes   the line's exact bytes, without the newline
     */
    public record Entry(String segment, long line, Map<String, Object> fields, byte[] bytes) {

        public String location() {
            return segment + ".jsonl:" + line;
        }

        /** A string field, or {@code null}. */
        public String string(String key) {
            return fields.get(key) instanceof String s ? s : null;
        }

        /** An integer field, or {@code null}. */
        public Long integer(String key) {
            return fields.get(key) instanceof Long n ? n : null;
        }
    }

    /** Receives lines and problems in file order. */
    public interface Visitor {
        void entry(Entry entry) throws IOException;

        /** A skipped line. */
        default void problem(LedgerProblem problem) {
        }

        /** Every physical line, torn ones included, before {@link #entry} or {@link #problem}. */
        default void physicalLine(String segment, long line, byte[] bytes) {
        }
    }

    /** Receives lines read in place, and problems, in file order. */
    public interface LineVisitor {
        /**
         * One chain line; {@code line} and the bytes {@code bytes[from, to)} are valid only during the call.
         *
         * @param number 1-based physical line number in {@code segment}
         */
        void entry(String segment, long number, LedgerLine.View line, byte[] bytes, int from, int to) throws IOException;

        /** A skipped line. */
        default void problem(LedgerProblem problem) {
        }

        /** Every physical line, torn ones included, before {@link #entry} or {@link #problem}. */
        default void physicalLine(String segment, long number, byte[] bytes, int from, int to) {
        }

        /**
         * The chunk's last line was read ({@link #scanInParts} only): called on the thread that read
         * it, before the parts are combined, so work such as sorting a part's observations runs on
         * the reading threads rather than on the one that combines.
         */
        default void partRead() {
        }
    }

    private LedgerReader() {
    }

    /** {@link #scan} with each chain line parsed into an {@link Entry}. */
    public static void read(LedgerPaths paths, Visitor visitor) throws IOException {
        scan(paths, ReadProgress.NONE, new LineVisitor() {
            @Override
            public void entry(String segment, long number, LedgerLine.View line, byte[] bytes, int from, int to)
                    throws IOException {
                byte[] copy = Arrays.copyOfRange(bytes, from, to);
                visitor.entry(new Entry(segment, number, LedgerLine.parse(copy), copy));
            }

            @Override
            public void problem(LedgerProblem problem) {
                visitor.problem(problem);
            }

            @Override
            public void physicalLine(String segment, long number, byte[] bytes, int from, int to) {
                visitor.physicalLine(segment, number, Arrays.copyOfRange(bytes, from, to));
            }
        });
    }

    /**
     * Reads every segment, oldest first; does nothing when there is no ledger. A segment that is not
     * a regular file (a link, a FIFO, a device) or is over {@link LineScanner#maxFileBytes()} is not
     * opened; it is reported as the error {@code ledger_segment_unreadable} and the rest are read.
     */
    public static void scan(LedgerPaths paths, ReadProgress progress, LineVisitor visitor) throws IOException {
        java.util.List<String> months = paths.segments();
        for (String month : months) {
            Path file = paths.segment(month);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                progress.expect(Files.size(file));
            }
        }
        LedgerLine.View view = new LedgerLine.View();
        try {
            for (String month : months) {
                LineScanner opened;
                try {
                    opened = new LineScanner(paths.segment(month), LedgerLine.MAX_LINE_BYTES, LineScanner.maxFileBytes(),
                            progress);
                } catch (UnsafeFileException | LedgerException e) {
                    visitor.problem(LedgerProblem.error("ledger_segment_unreadable", month + ".jsonl", e.getMessage()));
                    continue;
                }
                try (LineScanner scanner = opened) {
                    while (scanner.advance()) {
                        byte[] buf = scanner.buffer();
                        int from = scanner.lineStart();
                        int to = scanner.lineEnd();
                        int number = scanner.number();
                        visitor.physicalLine(month, number, buf, from, to);
                        if (scanner.overlong()) {
                            visitor.problem(LedgerProblem.warning("ledger_line_too_long", month + ".jsonl:" + number,
                                    "line longer than " + LedgerLine.MAX_LINE_BYTES + " bytes; skipped"));
                            continue;
                        }
                        if (to == from || buf[from] != '{' || !view.read(buf, from, to)) {
                            visitor.problem(LedgerProblem.warning("ledger_torn_line", month + ".jsonl:" + number,
                                    scanner.terminated()
                                            ? "line is not a JSON object (a write cut short by a crash, or an edit); skipped"
                                            : "unterminated final line (a write cut short by a crash); skipped"));
                            continue;
                        }
                        visitor.entry(month, number, view, buf, from, to);
                    }
                }
            }
        } finally {
            progress.finish();
        }
    }

    /**
     * {@link #scan} on several threads: each chunk of each segment ({@link LineChunks#chunkBytes}) is read into a
     * visitor of its own from {@code parts}, and the visitors are returned in chain order, for the
     * caller to combine. A visitor gets its chunk's entries as they are read, with line number 0 (a
     * chunk's place in its segment is known only once the chunks before it are read), then its
     * problems, numbered as {@link #scan} numbers them; an unreadable segment is a visitor of its own
     * with that one problem. {@link LineVisitor#physicalLine} is not called.
     */
    public static <V extends LineVisitor> List<V> scanInParts(LedgerPaths paths, ReadProgress progress, Supplier<V> parts)
            throws IOException {
        return scanInParts(paths, progress, LineChunks.chunkBytes(), parts);
    }

    /** {@link #scanInParts(LedgerPaths, ReadProgress, Supplier)} with chunks of about {@code chunkBytes}. */
    static <V extends LineVisitor> List<V> scanInParts(LedgerPaths paths, ReadProgress progress, long chunkBytes,
                                                      Supplier<V> parts) throws IOException {
        List<String> months = paths.segments();
        List<FileChannel> open = new ArrayList<>();
        List<String> openMonths = new ArrayList<>();
        /* In chain order: a segment's index in open, or the problem of a segment that could not be opened. */
        List<Object> order = new ArrayList<>();
        try {
            for (String month : months) {
                Path file = paths.segment(month);
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    progress.expect(Files.size(file));
                }
                try {
                    open.add(LineScanner.open(file, LineScanner.maxFileBytes()));
                    openMonths.add(month);
                    order.add(open.size() - 1);
                } catch (UnsafeFileException | LedgerException e) {
                    order.add(LedgerProblem.error("ledger_segment_unreadable", month + ".jsonl", e.getMessage()));
                }
            }
            long[] limits = new long[open.size()];
            Arrays.fill(limits, LineScanner.maxFileBytes());
            List<LineChunks.Piece<Part<V>>> pieces = LineChunks.read(open, limits, LedgerLine.MAX_LINE_BYTES, chunkBytes,
                    progress, (f, lines) -> readPart(openMonths.get(f), lines, parts.get()));
            List<V> out = new ArrayList<>();
            int next = 0;
            for (Object o : order) {
                if (o instanceof LedgerProblem p) {
                    V v = parts.get();
                    v.problem(p);
                    out.add(v);
                    continue;
                }
                int f = (Integer) o;
                while (next < pieces.size() && pieces.get(next).file() == f) {
                    LineChunks.Piece<Part<V>> piece = pieces.get(next++);
                    Part<V> part = piece.result();
                    for (Pending p : part.problems) {
                        String location = openMonths.get(f) + ".jsonl:" + (piece.lineOffset() + p.number());
                        part.visitor.problem(LedgerProblem.warning(p.code(), location, p.message()));
                    }
                    out.add(part.visitor);
                }
            }
            return out;
        } finally {
            progress.finish();
            for (FileChannel c : open) {
                c.close();
            }
        }
    }

    /** A problem of a chunk, numbered within the chunk. */
    private record Pending(String code, long number, String message) {
    }

    private static final class Part<V> {
        final V visitor;
        final List<Pending> problems = new ArrayList<>();

        Part(V visitor) {
            this.visitor = visitor;
        }
    }

    private static <V extends LineVisitor> Part<V> readPart(String month, LineScanner scanner, V visitor) throws IOException {
        Part<V> part = new Part<>(visitor);
        LedgerLine.View view = new LedgerLine.View();
        byte[] buf = scanner.buffer();
        while (true) {
            // Most lines: read in one pass that finds the line's end too; any other line, the usual way.
            int start = scanner.nextLineStart();
            int newline = view.readLine(buf, start, scanner.readEnd());
            if (newline >= 0 && scanner.takeLine(newline)) {
                visitor.entry(month, 0, view, buf, start, newline);
                continue;
            }
            if (!scanner.advance()) {
                break;
            }
            int from = scanner.lineStart();
            int to = scanner.lineEnd();
            if (scanner.overlong()) {
                part.problems.add(new Pending("ledger_line_too_long", scanner.number(),
                        "line longer than " + LedgerLine.MAX_LINE_BYTES + " bytes; skipped"));
                continue;
            }
            if (to == from || buf[from] != '{' || !view.read(buf, from, to)) {
                part.problems.add(new Pending("ledger_torn_line", scanner.number(), scanner.terminated()
                        ? "line is not a JSON object (a write cut short by a crash, or an edit); skipped"
                        : "unterminated final line (a write cut short by a crash); skipped"));
                continue;
            }
            visitor.entry(month, 0, view, buf, from, to);
        }
        visitor.partRead();
        return part;
    }
}
