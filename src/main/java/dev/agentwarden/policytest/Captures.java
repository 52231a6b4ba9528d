package dev.agentwarden.policytest;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads recorded events: a directory of {@code WARDEN_CAPTURE_DIR} files
 * ({@code <host>-<native event>-<timestamp>.json}, in time order), or a
 * session file of JSON lines {@code {"native_event": …, "payload": {…}}} with an optional
 * {@code "host"} (the demo's {@code examples/sessions/*.jsonl}, whose {@code {{PROJECT}}} stands
 * for the project root).
 */
public final class Captures {
    /** Most events read from one directory or file. */
    static final int MAX_EVENTS = 100_000;
    /** Largest line of a session file; the payload cap of dispatch. */
    static final int MAX_LINE_CHARS = CaseFile.MAX_PAYLOAD_BYTES;
    /** Largest session file read. */
    static final long MAX_SESSION_FILE_BYTES = 512L * 1024 * 1024;

    private Captures() {
    }

    /**
     * @param defaultHost the host of session-file lines that name none
     * @param project     what {@code {{PROJECT}}} in a session file stands for
     */
    public static List<CapturedEvent> read(Path source, String defaultHost, Path project) throws CaseFile.Invalid {
        if (Files.isDirectory(source)) {
            return readDirectory(source);
        }
        if (!Files.isRegularFile(source)) {
            throw new CaseFile.Invalid(source + ": not a capture directory or a session file (.jsonl)");
        }
        return readSessionFile(source, defaultHost, project);
    }

    private static List<CapturedEvent> readDirectory(Path dir) throws CaseFile.Invalid {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.json")) {
            for (Path p : entries) {
                if (files.size() >= MAX_EVENTS) {
                    throw new CaseFile.Invalid(dir + ": more than " + MAX_EVENTS + " captures; split them");
                }
                files.add(p);
            }
        } catch (IOException e) {
            throw new CaseFile.Invalid(dir + ": cannot be listed: " + e.getMessage());
        }
        files.sort(Captures::byTime);
        List<CapturedEvent> out = new ArrayList<>();
        for (Path p : files) {
            String name = p.getFileName().toString();
            int first = name.indexOf('-');
            int second = first < 0 ? -1 : name.indexOf('-', first + 1);
            if (first <= 0 || second <= first + 1) {
                throw new CaseFile.Invalid(p + ": not a capture name (<host>-<native event>-<timestamp>.json)");
            }
            byte[] bytes;
            try {
                bytes = StateFiles.readAll(p, CaseFile.MAX_PAYLOAD_BYTES, false);
            } catch (IOException e) {
                throw new CaseFile.Invalid(p + ": cannot be read: " + e.getMessage());
            }
            out.add(new CapturedEvent(name, p, name.substring(0, first), name.substring(first + 1, second), bytes));
        }
        return out;
    }

    /** Capture files in the order they were written: by the timestamp after host and event, then by name. */
    private static int byTime(Path a, Path b) {
        int c = stamp(a).compareTo(stamp(b));
        return c != 0 ? c : a.compareTo(b);
    }

    private static String stamp(Path p) {
        String name = p.getFileName().toString();
        int first = name.indexOf('-');
        int second = first < 0 ? -1 : name.indexOf('-', first + 1);
        return second < 0 ? name : name.substring(second + 1);
    }

    private static List<CapturedEvent> readSessionFile(Path file, String defaultHost, Path project)
            throws CaseFile.Invalid {
        List<CapturedEvent> out = new ArrayList<>();
        // a regular file (or a link to one) only: a FIFO would block the open, /dev/zero never end
        java.nio.channels.FileChannel ch;
        try {
            ch = StateFiles.openRead(file, true);
            if (ch.size() > MAX_SESSION_FILE_BYTES) {
                ch.close();
                throw new CaseFile.Invalid(file + ": over " + MAX_SESSION_FILE_BYTES + " bytes; split it");
            }
        } catch (IOException e) {
            throw new CaseFile.Invalid(file + ": cannot be read: " + e.getMessage());
        }
        try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(java.nio.channels.Channels.newInputStream(ch),
                StandardCharsets.UTF_8.newDecoder()))) {
            int lineNo = 0;
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String where = file.getFileName() + ":" + lineNo;
                if (line.length() > MAX_LINE_CHARS || out.size() >= MAX_EVENTS) {
                    throw new CaseFile.Invalid(where + ": line over " + MAX_LINE_CHARS + " characters, or more than "
                            + MAX_EVENTS + " events");
                }
                Map<String, Object> record;
                try {
                    record = Json.parseObject(line.replace("{{PROJECT}}", project.toString()));
                } catch (JsonException e) {
                    throw new CaseFile.Invalid(where + ": not a JSON object: " + e.getMessage());
                }
                Object payload = record.get("payload");
                Object nativeEvent = record.get("native_event");
                if (!(payload instanceof Map) || !(nativeEvent instanceof String event)) {
                    throw new CaseFile.Invalid(where + ": a session line is {\"native_event\": …, \"payload\": {…}}");
                }
                String host = record.get("host") instanceof String h ? h : defaultHost;
                out.add(new CapturedEvent(where, null, host, event, Json.write(payload).getBytes(StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            throw new CaseFile.Invalid(file + ": cannot be read: " + e.getMessage());
        }
        return out;
    }
}
