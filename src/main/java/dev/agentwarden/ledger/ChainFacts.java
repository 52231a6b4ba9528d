package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the chain walk ({@link LedgerVerifier.Walk}) needs of each physical line of one chunk of a
 * segment, worked out on a reading thread: whether it is overlong, torn (and unterminated) or a chain
 * line, its hex hash, and of a chain line its {@code prev}, its {@code v} when unknown and the
 * detail of a {@code ledger_gap}. {@link #walk} reads the segments in chunks ({@link LineChunks#chunkBytes})
 * on up to {@link LineChunks#MAX_THREADS} threads, a few chunks ahead of the walk, and feeds the walk
 * the lines in order, with the same calls and line numbers as a {@link LedgerReader#scan} would: the
 * hashing and the scanning of lines are shared out; the linking stays in order, on the caller's
 * thread. Memory is bounded by the chunks in flight (about 128 bytes a line), not by the ledger's size.
 */
final class ChainFacts {
    private static final byte OVERLONG = 1;
    private static final byte TORN = 2;
    private static final byte UNTERMINATED = 4;
    private static final byte PREV_HEX = 8;
    private static final byte GAP = 16;

    private int lines;
    private byte[] flags = new byte[1024];
    private byte[] hashes = new byte[64 * 1024];
    private byte[] prevs = new byte[64 * 1024];
    /** Of chain lines whose {@code prev} is not 64 plain bytes: its text ({@code null}: none). */
    private final Map<Integer, String> prevText = new HashMap<>();
    private final Map<Integer, String> version = new HashMap<>();
    private final Map<Integer, String> gapDetail = new HashMap<>();

    private int add() {
        if (lines == flags.length) {
            flags = Arrays.copyOf(flags, lines * 2);
            hashes = Arrays.copyOf(hashes, 64 * lines * 2);
            prevs = Arrays.copyOf(prevs, 64 * lines * 2);
        }
        return lines++;
    }

    /** The facts of the lines of {@code in}'s bytes {@code [from, to)}. */
    private static ChainFacts read(FileChannel in, long from, long to, ReadProgress progress) throws IOException {
        ChainFacts f = new ChainFacts();
        LedgerLine.View view = new LedgerLine.View();
        LedgerLine.Hasher hasher = new LedgerLine.Hasher();
        try (LineScanner scanner = new LineScanner(in, from, to, LedgerLine.MAX_LINE_BYTES, progress)) {
            while (scanner.advance()) {
                int i = f.add();
                byte[] buf = scanner.buffer();
                int start = scanner.lineStart();
                int end = scanner.lineEnd();
                System.arraycopy(hasher.hex(buf, start, end), 0, f.hashes, 64 * i, 64);
                if (scanner.overlong()) {
                    f.flags[i] = OVERLONG;
                    continue;
                }
                if (end == start || buf[start] != '{' || !view.read(buf, start, end)) {
                    f.flags[i] = (byte) (TORN | (scanner.terminated() ? 0 : UNTERMINATED));
                    continue;
                }
                String v = LedgerVerifier.Walk.versionProblem(view);
                if (v != null) {
                    f.version.put(i, v);
                }
                if (view.copyPrev(f.prevs, 64 * i)) {
                    f.flags[i] |= PREV_HEX;
                } else {
                    f.prevText.put(i, view.string(LedgerLine.Key.PREV));
                }
                if (view.is(LedgerLine.Event.LEDGER_GAP)) {
                    f.flags[i] |= GAP;
                    f.gapDetail.put(i, view.string(LedgerLine.Key.DETAIL));
                }
            }
        }
        return f;
    }

    /** Feeds this chunk's lines, the first being line {@code offset + 1} of {@code segment}, to {@code walk}. */
    private void feed(String segment, long offset, LedgerVerifier.Walk walk) {
        for (int i = 0; i < lines; i++) {
            long number = offset + i + 1;
            walk.physicalLine(segment, number, hashes, 64 * i);
            byte fl = flags[i];
            if ((fl & OVERLONG) != 0) {
                walk.problem(LedgerProblem.warning("ledger_line_too_long", segment + ".jsonl:" + number,
                        "line longer than " + LedgerLine.MAX_LINE_BYTES + " bytes; skipped"));
                continue;
            }
            if ((fl & TORN) != 0) {
                walk.problem(LedgerProblem.warning("ledger_torn_line", segment + ".jsonl:" + number, (fl & UNTERMINATED) == 0
                        ? "line is not a JSON object (a write cut short by a crash, or an edit); skipped"
                        : "unterminated final line (a write cut short by a crash); skipped"));
                continue;
            }
            String prev;
            boolean broken;
            if ((fl & PREV_HEX) != 0) {
                broken = !walk.expects(prevs, 64 * i);
                prev = broken ? new String(prevs, 64 * i, 64, StandardCharsets.ISO_8859_1) : null;
            } else {
                prev = prevText.get(i);
                broken = !walk.expects(prev);
            }
            walk.link(segment, number, version.get(i), prev, broken, gapDetail.get(i), (fl & GAP) != 0, hashes, 64 * i);
        }
    }

    /** Walks every segment, oldest first, as {@link LedgerReader#scan} would, the lines read on several threads. */
    static void walk(LedgerPaths paths, ReadProgress progress, LedgerVerifier.Walk walk) throws IOException {
        List<String> months = paths.segments();
        for (String month : months) {
            Path file = paths.segment(month);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                progress.expect(Files.size(file));
            }
        }
        int threads = Math.min(LineChunks.MAX_THREADS, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = threads <= 1 ? null : Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "warden-verify");
            t.setDaemon(true);
            return t;
        });
        long chunkBytes = LineChunks.chunkBytes();
        try {
            for (String month : months) {
                FileChannel in;
                try {
                    in = LineScanner.open(paths.segment(month), LineScanner.maxFileBytes());
                } catch (UnsafeFileException | LedgerException e) {
                    walk.problem(LedgerProblem.error("ledger_segment_unreadable", month + ".jsonl", e.getMessage()));
                    continue;
                }
                try (FileChannel open = in) {
                    long size = Math.min(open.size(), LineScanner.maxFileBytes());
                    Deque<Future<ChainFacts>> ahead = new ArrayDeque<>();
                    long offset = 0;
                    long from = 0;
                    boolean last = false;
                    while (!last) {
                        long to = LineScanner.maxFileBytes();
                        long cut = from + chunkBytes;
                        if (cut < size) {
                            long at = LineChunks.lineStartAtOrAfter(open, cut, size);
                            if (at < size) {
                                to = at;
                            }
                        }
                        last = to == LineScanner.maxFileBytes();
                        long chunkFrom = from;
                        long chunkTo = to;
                        Callable<ChainFacts> task = () -> read(open, chunkFrom, chunkTo, progress);
                        ahead.add(pool == null ? done(task) : pool.submit(task));
                        from = to;
                        while (ahead.size() > (last ? 0 : threads)) {
                            ChainFacts facts = join(ahead.poll());
                            facts.feed(month, offset, walk);
                            offset += facts.lines;
                        }
                    }
                    if (offset > 0) {
                        walk.segmentLines(month, offset);
                    }
                }
            }
        } finally {
            progress.finish();
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    private static Future<ChainFacts> done(Callable<ChainFacts> task) throws IOException {
        try {
            return java.util.concurrent.CompletableFuture.completedFuture(task.call());
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private static ChainFacts join(Future<ChainFacts> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the ledger", e);
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
}
