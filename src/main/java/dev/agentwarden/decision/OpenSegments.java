package dev.agentwarden.decision;

import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decision-log segments a long-lived server (the resident, {@code warden serve}) keeps open, so that
 * a dispatch appends its line with one {@code lstat} and one {@code write(2)} instead of walking the
 * state directories and opening the file each time.
 *
 * <p>A segment is kept only once {@link StateFiles#openAppendIdentified} has opened it as an existing
 * regular file under the project's state rules (no link followed, nothing outside the project), and
 * each append first checks, without following its last component, that the path still names that
 * same file (device and inode). A segment that was removed, renamed or replaced, by anything from
 * {@code warden log prune} to a checkout that put a link in its place, is closed unwritten and the
 * line goes the one-shot way ({@link DecisionLog#write}): created anew, or refused with the
 * one-shot note. So no line goes to a file the path no longer names, and none is written through a
 * link put in place of a state directory.
 *
 * <p>What is not covered, as in {@link StateFiles}: a process of this user that moves the state
 * directory elsewhere and links its old name to it; the path then still names the open file.
 *
 * <p>Nothing is buffered: each line is still one {@code write(2)} on an {@code O_APPEND} file, made
 * before the host is answered, so a crash loses no answered line and lines from other processes
 * never interleave with these (as {@link DecisionLog} explains). Appends to one segment from this
 * process's threads are serialized. At most {@link #MAX_OPEN} segments stay open (the resident
 * serves many projects); the least recently used is closed first.
 */
public final class OpenSegments implements AutoCloseable {
    /** Most segments kept open at once. */
    static final int MAX_OPEN = 32;

    private final Map<Path, Segment> open = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;
    /** The file the last line went to, named once for the lines that follow it. */
    private volatile Named lastNamed;
    /** Told of every line written through these segments, or {@code null}. */
    private volatile DecisionTap tap;

    /**
     * One open segment. Its own lock serializes the identity check, the write and the close; the
     * map's lock is never held while it is taken, nor the other way round.
     */
    private static final class Segment {
        final FileChannel channel;
        final Object fileKey;
        private boolean closed;

        Segment(FileChannel channel, Object fileKey) {
            this.channel = channel;
            this.fileKey = fileKey;
        }

        /**
         * Appends {@code line} when {@code file} still names this segment; {@code false}, nothing
         * written, when it does not or the write failed before its first byte.
         *
         * @throws IOException when the write failed part way (the line is torn, as a one-shot write's would be)
         */
        synchronized boolean append(Path file, byte[] line) throws IOException {
            if (closed || !Objects.equals(StateFiles.regularFileKey(file), fileKey)) {
                return false;
            }
            ByteBuffer b = ByteBuffer.wrap(line);
            try {
                StateFiles.writeFully(channel, b, -1);
                return true;
            } catch (IOException e) {
                if (b.position() > 0) {
                    throw e;
                }
                return false;
            }
        }

        synchronized void close() {
            closed = true;
            try {
                channel.close();
            } catch (IOException e) {
                // nothing more to write through it
            }
        }
    }

    /**
     * Appends one whole {@code line} to the segment of {@code month} of the project at {@code root};
     * returns whether the segment was created for it.
     */
    boolean write(String root, String month, byte[] line) throws IOException {
        Path file = file(root, month);
        Segment held = held(file);
        if (held != null) {
            boolean written = false;
            try {
                written = held.append(file, line);
            } finally {
                if (!written) {
                    drop(file, held);
                }
            }
            if (written) {
                return false;
            }
        }
        StateFiles.Opened opened = StateFiles.openAppendIdentified(Path.of(root), file);
        Segment kept = null;
        try {
            StateFiles.writeFully(opened.channel(), ByteBuffer.wrap(line), -1);
            if (opened.fileKey() != null) {
                kept = new Segment(opened.channel(), opened.fileKey());
            }
        } finally {
            if (kept == null) {
                opened.channel().close();
            }
        }
        if (kept != null) {
            keep(file, kept);
        }
        return opened.fileKey() == null;
    }

    /** The segment file of {@code month} under {@code root}: the last one again when both are the same. */
    private Path file(String root, String month) {
        Named last = lastNamed;
        if (last == null || !last.root.equals(root) || !last.month.equals(month)) {
            last = new Named(root, month, DecisionLog.dir(root).resolve(month + ".jsonl"));
            lastNamed = last;
        }
        return last.file;
    }

    /** A segment's file, by project root and month. */
    private record Named(String root, String month, Path file) {
    }

    private synchronized Segment held(Path file) {
        return open.get(file);
    }

    /** Keeps {@code s} open for the next line to {@code file}, or closes it when that cannot be. */
    private void keep(Path file, Segment s) {
        Segment evicted = null;
        boolean kept = false;
        synchronized (this) {
            if (!closed && !open.containsKey(file)) {
                if (open.size() >= MAX_OPEN) {
                    Iterator<Segment> eldest = open.values().iterator();
                    evicted = eldest.next();
                    eldest.remove();
                }
                open.put(file, s);
                kept = true;
            }
        }
        if (evicted != null) {
            evicted.close();
        }
        if (!kept) {
            s.close();
        }
    }

    private void drop(Path file, Segment s) {
        synchronized (this) {
            if (open.get(file) == s) {
                open.remove(file);
            }
        }
        s.close();
    }

    /** Tells {@code tap} of every decision line written from now on ({@code null}: nobody). */
    public void tap(DecisionTap tap) {
        this.tap = tap;
    }

    /** Hands a line just written to the {@link #tap}, if any. */
    void recorded(String root, String line) {
        DecisionTap t = tap;
        if (t != null) {
            t.recorded(root, line);
        }
    }

    /** Segments open now. */
    synchronized int size() {
        return open.size();
    }

    /** Closes every segment; later appends go the one-shot way and keep nothing open. */
    @Override
    public void close() {
        List<Segment> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(open.values());
            open.clear();
        }
        for (Segment s : all) {
            s.close();
        }
    }
}
