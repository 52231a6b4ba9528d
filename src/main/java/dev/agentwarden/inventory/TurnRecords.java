package dev.agentwarden.inventory;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.ledger.LineScanner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The per-turn inventory record of each session, one JSON line per snapshot, in
 * {@code .warden/state/inventory/turns/<sha256(session id), 32 hex>.jsonl}, appended through
 * {@link StateFiles} (no link followed on the way, none as the file).
 *
 * <p>A line ({@code warden.inventory.turn/1}): {@code session_id}, {@code phase}
 * ({@code session_start}: before the session's first turn, or before the next turn of a resumed
 * session; {@code turn}: immediately before turn {@code turn_index}), {@code condition}
 * ({@code fresh}, {@code continued} or {@code unknown}, from the SessionStart {@code source}),
 * {@code transcript_path} as the host sent it, the snapshot's hash, file and per-server states, and
 * with a preregistration {@code inventory_drift}, {@code variant} and {@code reasons}.
 */
public final class TurnRecords {
    public static final String SCHEMA = "warden.inventory.turn/1";
    static final String SESSION_START = "session_start";
    public static final String TURN = "turn";
    /**
     * Longest record line read back; a longer one is skipped like a torn one. The file itself has no
     * size limit: it is read a line at a time, so a long session's records stay readable.
     */
    static final int MAX_LINE_BYTES = 4 * 1024 * 1024;

    private final Path projectRoot;
    private final Path stateHome;

    /** @param stateHome the project's {@code .warden} directory */
    public TurnRecords(Path projectRoot, Path stateHome) {
        this.projectRoot = projectRoot;
        this.stateHome = stateHome;
    }

    public Path dir() {
        return stateHome.resolve("state").resolve("inventory").resolve("turns");
    }

    Path file(String sessionId) {
        return dir().resolve(Sha256.hex(String.valueOf(sessionId).getBytes(StandardCharsets.UTF_8)).substring(0, 32)
                + ".jsonl");
    }

    /** The session's records, oldest first; an unreadable line is skipped. */
    public List<Map<String, Object>> read(String sessionId) throws IOException {
        return readFile(file(sessionId));
    }

    /** Every session's records, file by file. */
    public List<Map<String, Object>> readAll() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        Path dir = dir();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !StateFiles.isDirectory(projectRoot, dir)) {
            return out;
        }
        String[] names = dir.toFile().list();
        if (names == null) {
            return out;
        }
        List<String> sorted = new ArrayList<>(List.of(names));
        Collections.sort(sorted);
        for (String n : sorted) {
            if (n.endsWith(".jsonl") && !n.startsWith(".")) {
                out.addAll(readFile(dir.resolve(n)));
            }
        }
        return out;
    }

    private static List<Map<String, Object>> readFile(Path file) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        try (LineScanner lines = new LineScanner(file, MAX_LINE_BYTES, Long.MAX_VALUE, null)) {
            while (lines.advance()) {
                if (lines.overlong() || lines.lineEnd() == lines.lineStart()) {
                    continue;
                }
                String line = new String(lines.buffer(), lines.lineStart(), lines.lineEnd() - lines.lineStart(),
                        StandardCharsets.UTF_8);
                if (line.isBlank()) {
                    continue;
                }
                try {
                    Map<String, Object> m = Json.parseObject(line);
                    if (SCHEMA.equals(m.get("schema"))) {
                        out.add(m);
                    }
                } catch (JsonException e) {
                    // A torn last line (a crash mid-append) is not a record.
                }
            }
        }
        return out;
    }

    /** Appends one record. */
    public void append(String sessionId, Map<String, Object> record) throws IOException {
        StateFiles.ensureDirectory(projectRoot, dir());
        byte[] line = (Json.write(record) + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = StateFiles.openAppend(projectRoot, file(sessionId))) {
            ByteBuffer buf = ByteBuffer.wrap(line);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        }
    }

    /** How many turns the session has recorded. */
    static long turns(List<Map<String, Object>> records) {
        long n = 0;
        for (Map<String, Object> r : records) {
            if (TURN.equals(r.get("phase"))) {
                n++;
            }
        }
        return n;
    }

    /** The condition of the session's latest SessionStart, or {@code unknown}. */
    static String condition(List<Map<String, Object>> records) {
        for (int i = records.size() - 1; i >= 0; i--) {
            if (SESSION_START.equals(records.get(i).get("phase")) && records.get(i).get("condition") instanceof String c) {
                return c;
            }
        }
        return "unknown";
    }

    /**
     * Fresh or continued, from a SessionStart {@code source}: {@code startup}, {@code new} and
     * {@code clear} start a conversation; {@code resume} and {@code compact} continue one.
     */
    static String conditionOf(String source) {
        if (source == null) {
            return "unknown";
        }
        switch (source) {
            case "startup":
            case "new":
            case "clear":
                return "fresh";
            case "resume":
            case "compact":
                return "continued";
            default:
                return "unknown";
        }
    }
}
