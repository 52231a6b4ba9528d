package dev.agentwarden.decision;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The decisions appended to a project's log since the last look: {@code warden log --follow} and the
 * dashboard's live feed poll it, and an exporter can. It remembers the newest segment and how far
 * into it it has read; each {@link #poll} hands over the whole lines written since (a last line
 * without its newline waits for the next poll), at most {@link #MAX_POLL_BYTES} at a time.
 */
public final class DecisionTail {
    /** Most bytes one poll reads; the rest waits for the next poll. */
    static final int MAX_POLL_BYTES = 4 << 20;

    private final String root;
    private String month;
    private long offset;
    private long unreadable;

    private DecisionTail(String root, String month, long offset) {
        this.root = root;
        this.month = month;
        this.offset = offset;
    }

    /** A tail that starts at the end of what the log holds now. */
    public static DecisionTail atEnd(String root) throws IOException {
        List<String> months = DecisionReader.months(root);
        if (months.isEmpty()) {
            return new DecisionTail(root, null, 0);
        }
        String last = months.get(months.size() - 1);
        Path file = DecisionLog.dir(root).resolve(last + ".jsonl");
        return new DecisionTail(root, last, Files.size(file));
    }

    /** The project root followed. */
    public String root() {
        return root;
    }

    /** Lines skipped as unreadable so far. */
    public long unreadable() {
        return unreadable;
    }

    /** Hands each decision appended since the last poll to {@code sink}; returns how many. */
    @SuppressWarnings("unchecked")
    public int poll(DecisionReader.Sink sink) throws IOException {
        int handed = 0;
        for (String m : DecisionReader.months(root)) {
            if (month != null && m.compareTo(month) < 0) {
                continue;
            }
            if (!m.equals(month)) {
                month = m;
                offset = 0;
            }
            Path file = DecisionLog.dir(root).resolve(m + ".jsonl");
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            byte[] bytes;
            try (FileChannel ch = StateFiles.openRead(file, false)) {
                long size = ch.size();
                if (size < offset) {
                    offset = 0; // replaced (pruned and written anew)
                }
                int want = (int) Math.min(size - offset, MAX_POLL_BYTES);
                if (want <= 0) {
                    continue;
                }
                ByteBuffer buf = ByteBuffer.allocate(want);
                while (buf.hasRemaining() && ch.read(buf, offset + buf.position()) > 0) {
                    // read until full or end of file
                }
                bytes = buf.array();
            } catch (NoSuchFileException gone) {
                continue;
            }
            int from = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] != '\n') {
                    continue;
                }
                if (i > from) {
                    try {
                        Object v = Json.parse(new String(bytes, from, i - from, StandardCharsets.UTF_8), JsonLimits.LENIENT);
                        if (v instanceof Map) {
                            sink.accept((Map<String, Object>) v);
                            handed++;
                        } else {
                            unreadable++;
                        }
                    } catch (JsonException e) {
                        unreadable++;
                    }
                }
                from = i + 1;
            }
            if (from == 0 && bytes.length == MAX_POLL_BYTES) {
                unreadable++; // one line longer than a poll reads: skip it
                from = bytes.length;
            }
            offset += from;
        }
        return handed;
    }
}
