package dev.agentwarden.ledger;

import dev.agentwarden.io.StateFiles;
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
 * read can neither block nor run forever), and one larger than {@link #MAX_FILE_BYTES} is refused.
 */
final class LineScanner implements Closeable {

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

    /** Largest segment read: a month of events is a few megabytes; this is a hundred times that. */
    static final long MAX_FILE_BYTES = 256L * 1024 * 1024;

    private final FileChannel in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[64 * 1024];
    private int chunkPos;
    private int chunkLen;
    private byte[] buf = new byte[1024];
    private int number;
    private long remaining;

    LineScanner(Path file, int maxLineBytes) throws IOException {
        this.in = StateFiles.openRead(file, false);
        this.maxLineBytes = maxLineBytes;
        long size = in.size();
        if (size > MAX_FILE_BYTES) {
            in.close();
            throw new LedgerException("ledger_segment_too_large", file + " holds " + size + " bytes; the limit is "
                    + MAX_FILE_BYTES);
        }
        this.remaining = MAX_FILE_BYTES;
    }

    /** The next line, or {@code null} at the end of the file. */
    Line next() throws IOException {
        int len = 0;
        boolean overlong = false;
        int b;
        while ((b = read()) >= 0) {
            if (b == '\n') {
                return line(len, true, overlong);
            }
            if (overlong) {
                continue;
            }
            if (len == maxLineBytes) {
                overlong = true;
                continue;
            }
            if (len == buf.length) {
                buf = Arrays.copyOf(buf, Math.min(maxLineBytes, buf.length * 2));
            }
            buf[len++] = (byte) b;
        }
        return len == 0 && !overlong ? null : line(len, false, overlong);
    }

    private int read() throws IOException {
        if (chunkPos == chunkLen) {
            chunkLen = remaining <= 0 ? -1 : in.read(ByteBuffer.wrap(chunk, 0, (int) Math.min(chunk.length, remaining)));
            chunkPos = 0;
            if (chunkLen > 0) {
                remaining -= chunkLen;
            }
            if (chunkLen <= 0) {
                chunkLen = 0;
                return -1;
            }
        }
        return chunk[chunkPos++] & 0xff;
    }

    private Line line(int len, boolean terminated, boolean overlong) {
        number++;
        return new Line(number, overlong ? new byte[0] : Arrays.copyOf(buf, len), terminated, overlong);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
