package dev.agentwarden.decision;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Streams the decision log of a project, oldest segment first, one parsed line at a time; nothing
 * is held but the line being read. Links and non-regular files are refused ({@link StateFiles}); a
 * line that is not a JSON object, or that is longer than {@link #MAX_LINE_CHARS}, is counted and
 * skipped, and so is a last line with no newline yet (a write in progress).
 */
public final class DecisionReader {
    /** Longest line read; the writer's lines are far shorter. */
    static final int MAX_LINE_CHARS = 1 << 20;

    /** Receives each decision. */
    public interface Sink {
        void accept(Map<String, Object> decision);
    }

    private final Path root;
    private long unreadable;

    public DecisionReader(String root) {
        this.root = Path.of(root);
    }

    /** Lines skipped as unreadable so far. */
    public long unreadable() {
        return unreadable;
    }

    /** The segment months present ({@code 2026-11}), oldest first. */
    public static List<String> months(String root) throws IOException {
        Path dir = DecisionLog.dir(root);
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        StateFiles.isDirectory(Path.of(root), dir);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.jsonl")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                String month = name.substring(0, name.length() - ".jsonl".length());
                if (isMonth(month)) {
                    out.add(month);
                }
            }
        }
        Collections.sort(out);
        return out;
    }

    /** Reads every segment from {@code fromMonth} on (all when {@code null}). */
    public void read(String fromMonth, Sink sink) throws IOException {
        String r = root.toString();
        for (String month : months(r)) {
            if (fromMonth != null && month.compareTo(fromMonth) < 0) {
                continue;
            }
            readSegment(DecisionLog.dir(r).resolve(month + ".jsonl"), sink);
        }
    }

    @SuppressWarnings("unchecked")
    private void readSegment(Path file, Sink sink) throws IOException {
        try (FileChannel ch = StateFiles.openRead(file, false);
             BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(ch),
                     StandardCharsets.UTF_8), 1 << 16)) {
            StringBuilder line = new StringBuilder();
            int c;
            boolean tooLong = false;
            while ((c = in.read()) >= 0) {
                if (c != '\n') {
                    if (line.length() < MAX_LINE_CHARS) {
                        line.append((char) c);
                    } else {
                        tooLong = true;
                    }
                    continue;
                }
                if (tooLong) {
                    unreadable++;
                } else if (line.length() > 0) {
                    try {
                        Object v = Json.parse(line.toString(), JsonLimits.LENIENT);
                        if (v instanceof Map) {
                            sink.accept((Map<String, Object>) v);
                        } else {
                            unreadable++;
                        }
                    } catch (JsonException e) {
                        unreadable++;
                    }
                }
                line.setLength(0);
                tooLong = false;
            }
        }
    }

    static boolean isMonth(String s) {
        if (s.length() != 7 || s.charAt(4) != '-') {
            return false;
        }
        for (int i = 0; i < 7; i++) {
            if (i != 4 && (s.charAt(i) < '0' || s.charAt(i) > '9')) {
                return false;
            }
        }
        return true;
    }
}
