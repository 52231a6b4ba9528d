package dev.agentwarden.ledger;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The chain's last line as the last writer left it: its segment, that segment's physical line
 * count, and the line's hash. It lets a writer find {@code prev} without scanning, and lets
 * {@code verify} notice lines cut from the end, which the chain alone cannot show.
 *
 * @param segment month of the segment holding the last chain line
 * @param lines   physical lines in that segment, torn ones included
 * @param hash    SHA-256 of the last chain line
 */
record ChainHead(YearMonth segment, long lines, String hash) {
    private static final int MAX_BYTES = 1024;

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
        Map<String, Object> o = LedgerLine.parse(bytes);
        if (o == null || !(o.get("v") instanceof Long v) || v != LedgerLine.VERSION
                || !(o.get("segment") instanceof String s) || !(o.get("lines") instanceof Long n) || n < 0
                || !(o.get("hash") instanceof String h) || !h.matches("[0-9a-f]{64}")) {
            return null;
        }
        try {
            return new ChainHead(YearMonth.parse(s), n, h);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    void write(Path file) throws IOException {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("segment", segment.toString());
        o.put("lines", lines);
        o.put("hash", hash);
        AtomicWrite.write(file, (Json.write(o) + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
