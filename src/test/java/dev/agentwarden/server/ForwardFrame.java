package dev.agentwarden.server;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code POST /forward} bodies built in tests, record by record, the way {@code bin/warden} writes them. */
final class ForwardFrame {
    private ForwardFrame() {
    }

    /** The records of a well-formed frame: the magic, {@code d}, one {@code a} per argument, one {@code e} per variable. */
    static List<String> records(Path workingDir, Map<String, String> env, String... argv) {
        List<String> records = new ArrayList<>();
        records.add(ForwardRequest.MAGIC);
        records.add("d" + workingDir);
        for (String a : argv) {
            records.add("a" + a);
        }
        env.forEach((name, value) -> records.add("e" + name + "=" + value));
        return records;
    }

    /** Each record UTF-8 and NUL-terminated, then the empty record, then {@code payload}. */
    static byte[] body(List<String> records, byte[] payload) {
        List<byte[]> raw = new ArrayList<>();
        for (String r : records) {
            raw.add(r.getBytes(StandardCharsets.UTF_8));
        }
        return rawBody(raw, payload);
    }

    /** Like {@link #body(List, byte[])} for records given as bytes (malformed UTF-8 included). */
    static byte[] rawBody(List<byte[]> records, byte[] payload) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] r : records) {
            b.writeBytes(r);
            b.write(0);
        }
        b.write(0);
        b.writeBytes(payload);
        return b.toByteArray();
    }

    /** The records alone, each NUL-terminated, without the empty record that ends them. */
    static byte[] unterminated(List<String> records) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String r : records) {
            b.writeBytes(r.getBytes(StandardCharsets.UTF_8));
            b.write(0);
        }
        return b.toByteArray();
    }
}
