package dev.agentwarden.ledger;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a file's physical lines as bytes, without the terminating {@code '\n'}. A line longer than
 * the cap is reported as overlong and its bytes are not kept, so a damaged file cannot exhaust
 * memory.
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

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] chunk = new byte[64 * 1024];
    private int chunkPos;
    private int chunkLen;
    private byte[] buf = new byte[1024];
    private int number;

    LineScanner(Path file, int maxLineBytes) throws IOException {
        this.in = Files.newInputStream(file);
        this.maxLineBytes = maxLineBytes;
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
            chunkLen = in.read(chunk);
            chunkPos = 0;
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
