package dev.agentwarden.ledger;

import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.util.Map;

/**
 * Reads the ledger's segments in chain order. Lines that are not JSON objects (a write torn by a
 * crash) are skipped and reported as {@code ledger_torn_line}; a reader never fails on them.
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

    private LedgerReader() {
    }

    /**
     * Reads every segment, oldest first; does nothing when there is no ledger. A segment that is not
     * a regular file (a link, a FIFO, a device) or is over {@link LineScanner#MAX_FILE_BYTES} is not
     * opened; it is reported as the error {@code ledger_segment_unreadable} and the rest are read.
     */
    public static void read(LedgerPaths paths, Visitor visitor) throws IOException {
        for (String month : paths.segments()) {
            LineScanner opened;
            try {
                opened = new LineScanner(paths.segment(month), LedgerLine.MAX_LINE_BYTES);
            } catch (UnsafeFileException | LedgerException e) {
                visitor.problem(LedgerProblem.error("ledger_segment_unreadable", month + ".jsonl", e.getMessage()));
                continue;
            }
            try (LineScanner scanner = opened) {
                for (LineScanner.Line l = scanner.next(); l != null; l = scanner.next()) {
                    String where = month + ".jsonl:" + l.number();
                    visitor.physicalLine(month, l.number(), l.bytes());
                    if (l.overlong()) {
                        visitor.problem(LedgerProblem.warning("ledger_line_too_long", where,
                                "line longer than " + LedgerLine.MAX_LINE_BYTES + " bytes; skipped"));
                        continue;
                    }
                    Map<String, Object> fields = LedgerLine.parse(l.bytes());
                    if (fields == null) {
                        visitor.problem(LedgerProblem.warning("ledger_torn_line", where, l.terminated()
                                ? "line is not a JSON object (a write cut short by a crash, or an edit); skipped"
                                : "unterminated final line (a write cut short by a crash); skipped"));
                        continue;
                    }
                    visitor.entry(new Entry(month, l.number(), fields, l.bytes()));
                }
            }
        }
    }
}
