package dev.agentwarden.ledger;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    /** The head file's content, or {@code null} when it is missing or not a valid head. */
    static ChainHead read(Path file) throws IOException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                return null;
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
        Map<String, Object> o = LedgerLine.parseState(bytes);
        if (o == null || !(o.get("v") instanceof Long v) || v != LedgerLine.VERSION
                || !(o.get("segment") instanceof String s) || !TokenShape.isMonth(s)
                || !(o.get("lines") instanceof Long n) || n < 0
                || !(o.get("hash") instanceof String h) || !TokenShape.isLowerHex(h, 64)) {
            return null;
        }
        return new ChainHead(s, n, h);
    }

    /**
     * Overwrites the head in place with a fixed-length record (JSON padded with spaces), which
     * costs a tenth of a rename. Only writers holding the ledger lock write it; readers without
     * the lock take it shared ({@link LedgerStore#readHead}). A write torn by a crash reads as no
     * head, which only sends the next writer down the scanning path.
     */
    void write(Path file) throws IOException {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("segment", segment);
        o.put("lines", lines);
        o.put("hash", hash);
        String text = Json.write(o);
        byte[] bytes = (text + " ".repeat(Math.max(0, RECORD_BYTES - 1 - text.length())) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            long pos = 0;
            while (buf.hasRemaining()) {
                pos += ch.write(buf, pos);
            }
            if (ch.size() > bytes.length) {
                ch.truncate(bytes.length);
            }
        }
    }
}
