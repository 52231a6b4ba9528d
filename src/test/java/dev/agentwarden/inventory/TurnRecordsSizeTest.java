package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 item 11's class: a session's turn records are appended without a size roll, and the
 * reader refused a file over 16 MiB, so a long session's turn inventory failed on every turn.
 * The file is now read a line at a time, whatever its size.
 */
class TurnRecordsSizeTest {
    @TempDir
    Path project;

    @Test
    void issue28_recordFileOver16MiB_isReadWhole_tornAndOverlongLinesSkipped() throws Exception {
        TurnRecords records = new TurnRecords(project, project.resolve(".warden"));
        records.append("s-1", record(0));
        Path file = records.file("s-1");
        byte[] pad = "x".repeat(2000).getBytes(StandardCharsets.US_ASCII);
        int lines = 9000;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file,
                java.nio.file.StandardOpenOption.APPEND))) {
            for (int i = 1; i < lines; i++) {
                Map<String, Object> r = record(i);
                r.put("pad", new String(pad, StandardCharsets.US_ASCII));
                out.write((Json.write(r) + "\n").getBytes(StandardCharsets.UTF_8));
            }
            out.write("{\"schema\":\"warden.inventory.turn/1\",\"torn".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.size(file)).isGreaterThan(16L << 20);

        List<Map<String, Object>> read = records.read("s-1");

        assertThat(read).hasSize(lines);
        assertThat(TurnRecords.turns(read)).isEqualTo(lines - 1);
        assertThat(read.get(lines - 1).get("turn_index")).isEqualTo((long) lines - 1);
    }

    private static Map<String, Object> record(int turn) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("schema", TurnRecords.SCHEMA);
        r.put("session_id", "s-1");
        r.put("phase", turn == 0 ? TurnRecords.SESSION_START : TurnRecords.TURN);
        r.put("turn_index", (long) turn);
        return r;
    }
}
