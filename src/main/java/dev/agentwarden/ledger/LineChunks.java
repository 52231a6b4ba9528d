package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the lines of open files in chunks, several at once: each file is cut into chunks of about
 * {@link #CHUNK_BYTES} at line starts (so no line is split), each chunk is read by its own
 * {@link LineScanner} on one of up to {@link #MAX_THREADS} threads (no more than the machine's
 * processors; the calling thread is one of them), each thread reusing one buffer for all the chunks
 * it reads, and the results come back in file and chunk order, with the line number each chunk
 * starts at, for the caller to combine. A file's last chunk reads to the file's end as it is then
 * (up to the file's limit), as a single scanner would.
 */
public final class LineChunks {
    /** Size of a chunk: large enough that its set-up cost vanishes, small enough to share work out. */
    public static final long CHUNK_BYTES = 32L << 20;
    /** System property that sets another chunk size in bytes (tests read small files in many chunks). */
    static final String CHUNK_PROPERTY = "warden.read.chunk.bytes";
    /** Most threads a read uses. */
    static final int MAX_THREADS = 4;
    private static final int PROBE_BYTES = 64 * 1024;

    /** Reads the lines of one chunk of file number {@code file} into a result. */
    public interface ChunkReader<R> {
        R read(int file, LineScanner lines) throws IOException;
    }

    /**
     * One chunk's result.
     *
     * @param file       index of its file
     * @param lineOffset physical lines of the file before the chunk: the chunk's line {@code n} is the file's
     *                   line {@code lineOffset + n}
     * @param result     what its reader returned
     */
    public record Piece<R>(int file, long lineOffset, R result) {
    }

    private record Chunk(int file, long from, long to) {
    }

    private LineChunks() {
    }

    /** The chunk size in force: {@link #CHUNK_BYTES}, or the {@link #CHUNK_PROPERTY} system property. */
    public static long chunkBytes() {
        return Math.max(1, Long.getLong(CHUNK_PROPERTY, CHUNK_BYTES));
    }

    /**
     * Reads {@code files} (file {@code i} up to {@code limits[i]} bytes) in chunks of about {@code chunkBytes}.
     * {@code progress} is told of every read from all threads.
     */
    public static <R> List<Piece<R>> read(List<FileChannel> files, long[] limits, int maxLineBytes, long chunkBytes,
                                          ReadProgress progress, ChunkReader<R> reader) throws IOException {
        List<Chunk> chunks = new ArrayList<>();
        for (int f = 0; f < files.size(); f++) {
            FileChannel in = files.get(f);
            long size = Math.min(in.size(), limits[f]);
            long from = 0;
            for (long cut = chunkBytes; cut < size; cut += chunkBytes) {
                long at = lineStartAtOrAfter(in, Math.max(cut, from + 1), size);
                if (at >= size) {
                    break;
                }
                chunks.add(new Chunk(f, from, at));
                from = at;
            }
            chunks.add(new Chunk(f, from, limits[f]));
        }
        int threads = Math.min(Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()), chunks.size());
        Reading<R> reading = new Reading<>(files, chunks, maxLineBytes, progress, reader);
        List<Thread> helpers = new ArrayList<>();
        try {
            for (int i = 1; i < threads; i++) {
                Thread t = new Thread(reading.reader(), "warden-read");
                t.setDaemon(true);
                t.start();
                helpers.add(t);
            }
            reading.reader().run();
            for (Thread t : helpers) {
                t.join();
            }
        } catch (InterruptedException e) {
            reading.stop();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading", e);
        }
        reading.rethrowFirstFailure();
        List<Piece<R>> pieces = new ArrayList<>(chunks.size());
        long offset = 0;
        for (int i = 0; i < chunks.size(); i++) {
            if (i > 0 && chunks.get(i).file() != chunks.get(i - 1).file()) {
                offset = 0;
            }
            @SuppressWarnings("unchecked")
            R result = (R) reading.results[i];
            pieces.add(new Piece<>(chunks.get(i).file(), offset, result));
            offset += reading.lines[i];
        }
        return pieces;
    }

    /**
     * One read of a list of chunks: each reader (the calling thread and up to {@link #MAX_THREADS}
     * - 1 helpers) takes the next chunk not yet taken, in order, and reads it with a buffer of its
     * own, used for all the chunks it reads. A failure stops the taking of further chunks.
     */
    private static final class Reading<R> {
        final List<FileChannel> files;
        final List<Chunk> chunks;
        final int maxLineBytes;
        final ReadProgress progress;
        final ChunkReader<R> reader;
        /** Written by the readers, read after they are joined. */
        final Object[] results;
        final long[] lines;
        final Throwable[] failures;
        final AtomicInteger next = new AtomicInteger();
        volatile boolean stopped;

        Reading(List<FileChannel> files, List<Chunk> chunks, int maxLineBytes, ReadProgress progress,
                ChunkReader<R> reader) {
            this.files = files;
            this.chunks = chunks;
            this.maxLineBytes = maxLineBytes;
            this.progress = progress;
            this.reader = reader;
            this.results = new Object[chunks.size()];
            this.lines = new long[chunks.size()];
            this.failures = new Throwable[chunks.size()];
        }

        Runnable reader() {
            return new Reader();
        }

        void stop() {
            stopped = true;
        }

        /** Throws the failure of the first chunk in order that failed, if any (after every reader is done). */
        void rethrowFirstFailure() throws IOException {
            for (Throwable cause : failures) {
                if (cause == null) {
                    continue;
                }
                if (cause instanceof IOException io) {
                    throw io;
                }
                if (cause instanceof RuntimeException re) {
                    throw re;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new IOException(cause);
            }
        }

        private final class Reader implements Runnable {
            private final byte[] buffer = new byte[LineScanner.bufferBytes(maxLineBytes)];

            @Override
            public void run() {
                int i;
                while (!stopped && (i = next.getAndIncrement()) < chunks.size()) {
                    Chunk c = chunks.get(i);
                    try (LineScanner scanner = new LineScanner(files.get(c.file()), c.from(), c.to(), maxLineBytes,
                            progress, buffer)) {
                        results[i] = reader.read(c.file(), scanner);
                        lines[i] = scanner.number();
                    } catch (IOException | RuntimeException | Error e) {
                        failures[i] = e;
                        stopped = true;
                    }
                }
            }
        }
    }

    /** The first position at or after {@code at} where a line starts (just after a newline), or {@code size}. */
    static long lineStartAtOrAfter(FileChannel in, long at, long size) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(PROBE_BYTES);
        long p = at - 1;
        while (p < size) {
            b.clear();
            int n = in.read(b, p);
            if (n <= 0) {
                return size;
            }
            for (int i = 0; i < n; i++) {
                if (b.get(i) == '\n') {
                    return p + i + 1;
                }
            }
            p += n;
        }
        return size;
    }
}
