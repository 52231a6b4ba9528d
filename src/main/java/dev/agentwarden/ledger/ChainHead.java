package dev.agentwarden.ledger;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The chain's last line as the last writer left it: its segment, that segment's physical line
 * count, and the line's hash. It lets a writer find {@code prev} without scanning, and lets
 * {@code verify} notice lines cut from the end, which the chain alone cannot show.
 *
 * @param segment month ({@code 2026-05}) of the segment holding the last chain line
 * @param lines   physical lines in that segment, torn ones included
 * @param hash    SHA-256 of the last chain line
 */
record ChainHead(String segment, long lines, String hash) {
    private static final int MAX_BYTES = 1024;
    /** Length of the head file as written. */
    private static final int RECORD_BYTES = 160;

    /**
     * What the head file holds.
     *
     * @param head    the head, or {@code null} when the file is missing or invalid
     * @param problem why an existing file is not a valid head, or {@code null}
     */
    record Loaded(ChainHead head, String problem) {
        static final Loaded MISSING = new Loaded(null, null);

        boolean missing() {
            return head == null && problem == null;
        }
    }

    /** The head file's content, or {@code null} when it is missing or not a valid head. */
    static ChainHead read(Path file) throws IOException {
        return load(file).head();
    }

    /** The head file, told apart: missing, invalid (with why), or a valid head. */
    static Loaded load(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = StateFiles.readAll(file, MAX_BYTES, false);
        } catch (NoSuchFileException e) {
            return Loaded.MISSING;
        } catch (UnsafeFileException e) {
            return new Loaded(null, e.getMessage());
        }
        Map<String, Object> o = LedgerLine.parseState(bytes);
        if (o == null || !(o.get("v") instanceof Long v) || v != LedgerLine.VERSION
                || !(o.get("segment") instanceof String s) || !TokenShape.isSegment(s)
                || !(o.get("lines") instanceof Long n) || n < 0
                || !(o.get("hash") instanceof String h) || !TokenShape.isLowerHex(h, 64)) {
            return new Loaded(null, "head.json is not a valid head record");
        }
        return new Loaded(new ChainHead(s, n, h), null);
    }

    /**
     * Overwrites the head in place with a fixed-length record (JSON padded with spaces), which
     * costs a tenth of a rename. Only writers holding the ledger lock write it; readers without
     * the lock take it shared ({@link LedgerStore#readHead}). The file is opened without following
     * links and must be a regular file inside {@code root}.
     */
    void write(Path root, Path file) throws IOException {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("segment", segment);
        o.put("lines", lines);
        o.put("hash", hash);
        String text = Json.write(o);
        byte[] bytes = (text + " ".repeat(Math.max(0, RECORD_BYTES - 1 - text.length())) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = StateFiles.openWrite(root, file)) {
            StateFiles.writeFully(ch, ByteBuffer.wrap(bytes), 0);
            if (ch.size() > bytes.length) {
                ch.truncate(bytes.length);
            }
        }
    }
}
