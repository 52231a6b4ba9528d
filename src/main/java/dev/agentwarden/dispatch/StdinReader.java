package dev.agentwarden.dispatch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a hook's stdin on a daemon thread, so that dispatch stops waiting when the host never
 * closes it: {@link #read} returns within the deadline whatever the stream does, and the thread,
 * still blocked, dies with the process. A {@link ByteArrayInputStream} (a payload the resident
 * holds whole) cannot block and is read on the caller's thread.
 *
 * <p>A named class rather than a lambda: dispatch's hot path loads no lambda machinery.
 */
public final class StdinReader extends Thread {
    private final InputStream in;
    private final int max;
    private byte[] bytes;
    private IOException failure;
    private Throwable crash;

    private StdinReader(InputStream in, int max) {
        super("warden-stdin");
        setDaemon(true);
        this.in = in;
        this.max = max;
    }

    /** Stdin was still open when the deadline passed (here, or in the launcher that forwarded it). */
    public static final class TimedOut extends IOException {
        public TimedOut(long timeoutMs) {
            super("stdin still open after " + timeoutMs + " ms (WARDEN_STDIN_TIMEOUT_MS)");
        }
    }

    /**
     * All of {@code in} up to end of stream, or {@code null} once more than {@code max} bytes
     * arrive ({@link DispatchMain#readCapped}).
     *
     * @throws TimedOut    when the stream has not ended within {@code timeoutMs}
     * @throws IOException when reading fails; an unchecked exception or error of the stream is
     *                     rethrown as it is, for dispatch's internal-error path
     */
    static byte[] read(InputStream in, int max, long timeoutMs) throws IOException {
        // Bytes already in memory (an event the resident was handed) end without waiting: no thread,
        // and their exact length is known (available()), so no read buffer either.
        if (in.getClass() == ByteArrayInputStream.class) {
            return in.available() > max ? null : in.readAllBytes();
        }
        StdinReader reader = new StdinReader(in, max);
        reader.start();
        try {
            reader.join(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading stdin");
        }
        // A dead thread's writes are visible once isAlive() returns false (JLS 17.4.5).
        if (reader.isAlive()) {
            throw new TimedOut(timeoutMs);
        }
        if (reader.crash instanceof RuntimeException e) {
            throw e;
        }
        if (reader.crash instanceof Error e) {
            throw e;
        }
        if (reader.failure != null) {
            throw reader.failure;
        }
        return reader.bytes;
    }

    @Override
    public void run() {
        try {
            bytes = DispatchMain.readCapped(in, max);
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException | Error e) {
            crash = e;
        }
    }
}
