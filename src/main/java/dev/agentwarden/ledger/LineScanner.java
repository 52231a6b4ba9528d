package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.ByteWords;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a file's physical lines as bytes, without the terminating {@code '\n'}. A line longer than
 * the cap is reported as overlong and its bytes are not kept, so a damaged file cannot exhaust
 * memory. Only a regular file is opened (a link, FIFO or device is refused before opening, so a
 * read can neither block nor run forever), and one larger than the size limit is refused.
 *
 * <p>{@link #advance} yields each line in place, as a span of an internal buffer valid until the
 * next call, so a bulk read copies nothing per line; {@link #next} returns a copy.
 */
public final class LineScanner implements Closeable {

    /**
     * One physical line.
     *
     * @param number     1-based line number in the file
     * @param bytes      the line without its newline; empty when overlong
     * @param terminated the line ends with {@code '\n'} (only a file's last line can lack it)
     * @param overlong   the line was longer than the cap
     */
    record Line(int number, byte[] bytes, boolean terminated, boolean overlong) {
    }

    /** System property that caps the segments a reader opens (tests only; a larger one is refused). */
    static final String MAX_FILE_PROPERTY = "warden.ledger.segment.max.bytes";
    /**
     * Largest segment read: none by default. A segment is read in place, a chunk at a time, so its
     * size costs time, not memory; the writer rolls segments at {@link LedgerStore#ROLL_BYTES}, and
     * one written before rolling existed, of any size, is still read whole.
     */
    static long maxFileBytes() {
        return Long.getLong(MAX_FILE_PROPERTY, Long.MAX_VALUE);
    }
    private static final int CHUNK = 1 << 20;

    private final FileChannel in;
    private final boolean owned;
    private long position;
    private final int maxLineBytes;
    private final ReadProgress progress;
    private final byte[] buf;
    private int head;
    private int tail;
    private int scanFrom;
    private boolean eof;
    private long remaining;
    private int number;
    private int lineStart;
    private int lineEnd;
    private boolean terminated;
    private boolean overlong;

    LineScanner(Path file, int maxLineBytes) throws IOException {
        this(file, maxLineBytes, maxFileBytes(), null);
    }

    /**
     * @param maxFileBytes a larger file is refused ({@code ledger_segment_too_large}); a file that grows
     *                     while it is read is read up to this many bytes
     * @param progress     told of every chunk read, or {@code null}
     */
    public LineScanner(Path file, int maxLineBytes, long maxFileBytes, ReadProgress progress) throws IOException {
        this.in = open(file, maxFileBytes);
        this.owned = true;
        this.maxLineBytes = maxLineBytes;
        this.progress = progress;
        this.remaining = maxFileBytes;
        this.buf = new byte[bufferBytes(maxLineBytes)];
    }

    /**
     * The lines of {@code in}'s bytes {@code [from, to)}, read by position, so that several scanners
     * can read one open file at once ({@link LineChunks}); {@link #close} leaves {@code in} open.
     * Line numbers count from {@code from}. The scanner reads into {@code buffer} (at least
     * {@link #bufferBytes} for {@code maxLineBytes}) until it is closed, so one reader's scanners,
     * one after another, share one buffer.
     */
    LineScanner(FileChannel in, long from, long to, int maxLineBytes, ReadProgress progress, byte[] buffer) {
        if (buffer.length < bufferBytes(maxLineBytes)) {
            throw new IllegalArgumentException("a buffer of " + buffer.length + " bytes for lines of up to "
                    + maxLineBytes);
        }
        this.in = in;
        this.owned = false;
        this.position = from;
        this.remaining = to - from;
        this.maxLineBytes = maxLineBytes;
        this.progress = progress;
        this.buf = buffer;
    }

    /** The size of a scanner's buffer for lines of up to {@code maxLineBytes}. */
    static int bufferBytes(int maxLineBytes) {
        return Math.max(CHUNK, maxLineBytes + 1) + CHUNK;
    }

    /**
     * Opens {@code file} for reading: only a regular file, refused ({@code ledger_segment_too_large})
     * when larger than {@code maxFileBytes}.
     */
    static FileChannel open(Path file, long maxFileBytes) throws IOException {
        FileChannel in = StateFiles.openRead(file, false);
        long size = in.size();
        if (size > maxFileBytes) {
            in.close();
            throw new LedgerException("ledger_segment_too_large", file + " holds " + size + " bytes; the limit is "
                    + maxFileBytes);
        }
        return in;
    }

    /**
     * Moves to the next line; {@code false} at the end of the file. The line is
     * {@link #buffer()}{@code [}{@link #lineStart()}{@code , }{@link #lineEnd()}{@code )}.
     */
    public boolean advance() throws IOException {
        boolean skipping = false;
        while (true) {
            int nl = indexOfNewline(scanFrom, tail);
            if (nl >= 0) {
                number++;
                terminated = true;
                overlong = skipping || nl - head > maxLineBytes;
                lineStart = head;
                lineEnd = overlong ? head : nl;
                head = nl + 1;
                scanFrom = head;
                return true;
            }
            if (tail - head > maxLineBytes) {
                skipping = true;
                head = tail;
            }
            scanFrom = tail;
            if (eof || !fill()) {
                eof = true;
                if (head == tail && !skipping) {
                    return false;
                }
                number++;
                terminated = false;
                overlong = skipping;
                lineStart = head;
                lineEnd = skipping ? head : tail;
                head = tail;
                scanFrom = tail;
                return true;
            }
        }
    }

    /**
     * Where the next line starts in {@link #buffer()}: a caller that finds the line's end as it reads
     * the line ({@link #takeLine}) reads from here, up to {@link #readEnd()}.
     */
    public int nextLineStart() {
        return head;
    }

    /** The end of the bytes read into {@link #buffer()} so far. */
    public int readEnd() {
        return tail;
    }

    /**
     * Moves to the next line as {@link #advance} would, its end found by the caller:
     * {@code buffer()[newline]} is the first {@code '\n'} at or after {@link #nextLineStart()} and
     * before {@link #readEnd()}. {@code false}, without moving, when the line is longer than the cap
     * ({@link #advance} then reads it as overlong).
     */
    public boolean takeLine(int newline) {
        if (newline - head > maxLineBytes) {
            return false;
        }
        number++;
        terminated = true;
        overlong = false;
        lineStart = head;
        lineEnd = newline;
        head = newline + 1;
        scanFrom = head;
        return true;
    }

    private int indexOfNewline(int from, int to) {
        return ByteWords.indexOf(buf, from, to, (byte) '\n');
    }

    /** Reads more bytes after the partial line; {@code false} at the end of the file. */
    private boolean fill() throws IOException {
        if (head > 0) {
            int keep = tail - head;
            System.arraycopy(buf, head, buf, 0, keep);
            scanFrom -= head;
            tail = keep;
            head = 0;
        }
        if (remaining <= 0) {
            return false;
        }
        int n = in.read(ByteBuffer.wrap(buf, tail, (int) Math.min(buf.length - tail, remaining)), position);
        if (n <= 0) {
            return false;
        }
        position += n;
        remaining -= n;
        tail += n;
        if (progress != null) {
            progress.read(n);
        }
        return true;
    }

    public byte[] buffer() {
        return buf;
    }

    public int lineStart() {
        return lineStart;
    }

    public int lineEnd() {
        return lineEnd;
    }

    /** 1-based number of the current line. */
    public int number() {
        return number;
    }

    /** The current line ends with {@code '\n'}. */
    public boolean terminated() {
        return terminated;
    }

    /** The current line was longer than the cap; its span is empty. */
    public boolean overlong() {
        return overlong;
    }

    /** The next line as a copy, or {@code null} at the end of the file. */
    Line next() throws IOException {
        if (!advance()) {
            return null;
        }
        return new Line(number, Arrays.copyOfRange(buf, lineStart, lineEnd), terminated, overlong);
    }

    @Override
    public void close() throws IOException {
        if (owned) {
            in.close();
        }
    }
}
