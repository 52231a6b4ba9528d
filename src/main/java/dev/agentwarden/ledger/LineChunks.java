package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads the lines of open files in chunks, several at once: each file is cut into chunks of about
 * {@link #CHUNK_BYTES} at line starts (so no line is split), each chunk is read by its own
 * {@link LineScanner} on one of up to {@link #MAX_THREADS} threads (no more than the machine's
 * processors), and the results come back in file and chunk order, with the line number each chunk
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
        List<R> results = new ArrayList<>();
        List<Long> lines = new ArrayList<>();
        if (threads <= 1) {
            for (Chunk c : chunks) {
                Object[] done = readChunk(files, c, maxLineBytes, progress, reader);
                add(done, results, lines);
            }
        } else {
            ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "warden-read");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<Object[]>> futures = new ArrayList<>();
                for (Chunk c : chunks) {
                    futures.add(pool.submit(() -> readChunk(files, c, maxLineBytes, progress, reader)));
                }
                for (Future<Object[]> f : futures) {
                    add(join(f), results, lines);
                }
            } finally {
                pool.shutdownNow();
            }
        }
        List<Piece<R>> pieces = new ArrayList<>(chunks.size());
        long offset = 0;
        for (int i = 0; i < chunks.size(); i++) {
            if (i > 0 && chunks.get(i).file() != chunks.get(i - 1).file()) {
                offset = 0;
            }
            pieces.add(new Piece<>(chunks.get(i).file(), offset, results.get(i)));
            offset += lines.get(i);
        }
        return pieces;
    }

    @SuppressWarnings("unchecked")
    private static <R> void add(Object[] done, List<R> results, List<Long> lines) {
        results.add((R) done[0]);
        lines.add((Long) done[1]);
    }

    /** The chunk's result and its number of physical lines. */
    private static <R> Object[] readChunk(List<FileChannel> files, Chunk c, int maxLineBytes, ReadProgress progress,
                                          ChunkReader<R> reader) throws IOException {
        try (LineScanner scanner = new LineScanner(files.get(c.file()), c.from(), c.to(), maxLineBytes, progress)) {
            R r = reader.read(c.file(), scanner);
            return new Object[] {r, (long) scanner.number()};
        }
    }

    private static Object[] join(Future<Object[]> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
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
