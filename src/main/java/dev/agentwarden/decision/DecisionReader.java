package dev.agentwarden.decision;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.FieldScanner;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.ledger.LineChunks;
import dev.agentwarden.ledger.LineScanner;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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

    /**
     * A {@link Sink} that can take a decision as its scanned fields: {@code top} holds
     * {@link #SUMMARY_KEYS} of a line within the scanner's subset, and {@code concern} is for the
     * sink to scan each element of {@code concerns} with ({@link #CONCERN_KEYS}).
     */
    public interface ScannedSink extends Sink {
        /**
         * Takes the decision; {@code false} when it cannot (and has changed nothing), and the line is
         * then handed to {@link #accept} as a map.
         */
        boolean acceptScanned(FieldScanner top, FieldScanner concern);
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
        read(fromMonth, false, ReadProgress.NONE, sink);
    }

    /**
     * Reads every segment from {@code fromMonth} on, each decision reduced to the keys
     * {@link DecisionFilter} and {@link DecisionSummary} read ({@link #SUMMARY_KEYS}, and of each
     * concern {@link #CONCERN_KEYS}), with the values a full parse gives them; read in place, with
     * no map built for the rest of the line.
     */
    public void readSummaryFields(String fromMonth, ReadProgress progress, Sink sink) throws IOException {
        read(fromMonth, true, progress, sink);
    }

    /**
     * {@link #readSummaryFields(String, ReadProgress, Sink)} on several threads: each chunk of each
     * segment ({@link LineChunks#chunkBytes}) goes to a sink of its own from {@code parts}; the sinks come back
     * in log order, for the caller to combine.
     */
    public <S extends Sink> List<S> readSummaryFields(String fromMonth, ReadProgress progress, Supplier<S> parts)
            throws IOException {
        return readSummaryFields(fromMonth, progress, LineChunks.chunkBytes(), parts);
    }

    /** {@link #readSummaryFields(String, ReadProgress, Supplier)} with chunks of about {@code chunkBytes}. */
    <S extends Sink> List<S> readSummaryFields(String fromMonth, ReadProgress progress, long chunkBytes, Supplier<S> parts)
            throws IOException {
        return readFields(fromMonth, progress, chunkBytes, SUMMARY_KEYS, CONCERN_KEYS, parts);
    }

    /**
     * Like {@link #readSummaryFields(String, ReadProgress, Supplier)}, with the caller's keys: each
     * line the scanners read in place goes to {@link ScannedSink#acceptScanned} with {@code topKeys}
     * recorded (by index), and {@code concern} is for scanning each element of {@code concerns} for
     * {@code concernKeys}; a sink that declines it, or a line in another form, is handed whole to
     * {@link Sink#accept} as its parse. For readers of the whole log that build no map per line
     * ({@code warden report}; an exporter).
     */
    public <S extends ScannedSink> List<S> readFields(String fromMonth, ReadProgress progress, String[] topKeys,
                                                      String[] concernKeys, Supplier<S> parts) throws IOException {
        return readFields(fromMonth, progress, LineChunks.chunkBytes(), topKeys, concernKeys, parts);
    }

    private <S extends Sink> List<S> readFields(String fromMonth, ReadProgress progress, long chunkBytes, String[] topKeys,
                                                String[] concernKeys, Supplier<S> parts) throws IOException {
        boolean summary = topKeys == SUMMARY_KEYS;
        List<FileChannel> open = new ArrayList<>();
        try {
            for (Path file : segments(fromMonth, progress)) {
                open.add(StateFiles.openRead(file, false));
            }
            long[] limits = new long[open.size()];
            Arrays.fill(limits, Long.MAX_VALUE);
            List<LineChunks.Piece<Object[]>> pieces = LineChunks.read(open, limits, 3 * MAX_LINE_CHARS, chunkBytes, progress,
                    (f, lines) -> {
                        S sink = parts.get();
                        long skipped = summary ? readLines(lines, summaryScanner(), concernScanner(), sink)
                                : readLines(lines, scanner(topKeys), scanner(concernKeys), sink, false);
                        return new Object[] {sink, skipped};
                    });
            List<S> out = new ArrayList<>();
            for (LineChunks.Piece<Object[]> piece : pieces) {
                @SuppressWarnings("unchecked")
                S sink = (S) piece.result()[0];
                out.add(sink);
                unreadable += (Long) piece.result()[1];
            }
            return out;
        } finally {
            progress.finish();
            for (FileChannel c : open) {
                c.close();
            }
        }
    }

    /** The top-level keys {@link #readSummaryFields} keeps. */
    static final String[] SUMMARY_KEYS = {"ts", "host", "event", "native_event", "session_id", "verdict", "concerns"};
    /** Indexes of {@link #SUMMARY_KEYS}. */
    static final int HOST = 1;
    static final int EVENT = 2;
    static final int NATIVE_EVENT = 3;
    static final int VERDICT = 5;
    static final int CONCERNS = 6;
    /** The keys of each concern {@link #readSummaryFields} keeps. */
    static final String[] CONCERN_KEYS = {"name", "outcome", "posture", "would_block"};
    /** Indexes of {@link #CONCERN_KEYS}. */
    static final int NAME = 0;
    static final int OUTCOME = 1;
    static final int POSTURE = 2;
    static final int WOULD_BLOCK = 3;
    /** The other keys of a decision line and of its objects, which the scanners check for repeats faster. */
    private static final String[] LINE_KEYS = {"v", "ref", "tool", "tool_input_sha256", "asked", "transport", "manifest",
        "source", "sha256", "role", "emitted", "downgrades", "fail_mode", "problem", "elapsed_us", "skipped", "effective",
        "reason", "reason_sha256", "note", "exit_code"};

    private void read(String fromMonth, boolean reduced, ReadProgress progress, Sink sink) throws IOException {
        List<Path> files = segments(fromMonth, progress);
        FieldScanner top = reduced ? summaryScanner() : null;
        FieldScanner concern = reduced ? concernScanner() : null;
        try {
            for (Path file : files) {
                try (LineScanner in = new LineScanner(file, 3 * MAX_LINE_CHARS, Long.MAX_VALUE, progress)) {
                    unreadable += readLines(in, top, concern, sink);
                }
            }
        } finally {
            progress.finish();
        }
    }

    /** The segments from {@code fromMonth} on (all when {@code null}), their sizes told to {@code progress}. */
    private List<Path> segments(String fromMonth, ReadProgress progress) throws IOException {
        String r = root.toString();
        List<Path> files = new ArrayList<>();
        for (String month : months(r)) {
            if (fromMonth != null && month.compareTo(fromMonth) < 0) {
                continue;
            }
            Path file = DecisionLog.dir(r).resolve(month + ".jsonl");
            files.add(file);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                progress.expect(Files.size(file));
            }
        }
        return files;
    }

    /** A scanner recording {@code keys}, expecting the other keys of a decision line. */
    private static FieldScanner scanner(String[] keys) {
        java.util.LinkedHashSet<String> expected = new java.util.LinkedHashSet<>();
        expected.addAll(Arrays.asList(SUMMARY_KEYS));
        expected.addAll(Arrays.asList(CONCERN_KEYS));
        expected.addAll(Arrays.asList(LINE_KEYS));
        expected.removeAll(Arrays.asList(keys));
        return new FieldScanner(keys, expected.toArray(new String[0]), JsonLimits.LENIENT.maxDepth(), false);
    }

    private static FieldScanner summaryScanner() {
        return new FieldScanner(SUMMARY_KEYS, concat(CONCERN_KEYS, LINE_KEYS), JsonLimits.LENIENT.maxDepth(), false);
    }

    private static FieldScanner concernScanner() {
        return new FieldScanner(CONCERN_KEYS, LINE_KEYS, JsonLimits.LENIENT.maxDepth(), false);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * Hands each decision of {@code in} to {@code sink}, reduced when {@code top} is given; returns
     * the number of lines skipped as unreadable.
     */
    private static long readLines(LineScanner in, FieldScanner top, FieldScanner concern, Sink sink) throws IOException {
        return readLines(in, top, concern, sink, true);
    }

    /** ... with {@code reducible}: whether a declined scanned line may be handed over as its {@link #reduced} map. */
    @SuppressWarnings("unchecked")
    private static long readLines(LineScanner in, FieldScanner top, FieldScanner concern, Sink sink, boolean reducible)
            throws IOException {
        long skipped = 0;
        while (in.advance()) {
            if (!in.terminated()) {
                continue;
            }
            if (in.overlong()) {
                skipped++;
                continue;
            }
            byte[] b = in.buffer();
            int from = in.lineStart();
            int to = in.lineEnd();
            if (to == from) {
                continue;
            }
            if (to - from > MAX_LINE_CHARS
                    && new String(b, from, to - from, StandardCharsets.UTF_8).length() > MAX_LINE_CHARS) {
                skipped++;
                continue;
            }
            if (top != null && top.scan(b, from, to)) {
                if (sink instanceof ScannedSink scanned && scanned.acceptScanned(top, concern)) {
                    continue;
                }
                if (reducible) {
                    sink.accept(reduced(top, concern));
                    continue;
                }
            }
            try {
                Object v = Json.parse(new String(b, from, to - from, StandardCharsets.UTF_8), JsonLimits.LENIENT);
                if (v instanceof Map) {
                    sink.accept((Map<String, Object>) v);
                } else {
                    skipped++;
                }
            } catch (JsonException e) {
                skipped++;
            }
        }
        return skipped;
    }

    /** The kept keys of a scanned line, as a parse would give them. */
    private static Map<String, Object> reduced(FieldScanner top, FieldScanner concern) {
        Map<String, Object> d = new HashMap<>();
        for (int k = 0; k < SUMMARY_KEYS.length; k++) {
            if (k == CONCERNS || top.kind(k) == FieldScanner.ABSENT) {
                continue;
            }
            d.put(SUMMARY_KEYS[k], top.value(k));
        }
        if (top.kind(CONCERNS) == FieldScanner.ARRAY) {
            List<Object> list = new ArrayList<>();
            byte[] b = top.bytes();
            int end = top.end(CONCERNS) - 1;
            int p = top.start(CONCERNS) + 1;
            while ((p = FieldScanner.nextElement(b, p, end)) < end) {
                byte c = b[p];
                int to = FieldScanner.valueEnd(b, p, end);
                if (c == '{' && concern.scan(b, p, to)) {
                    Map<String, Object> m = new HashMap<>();
                    for (int k = 0; k < CONCERN_KEYS.length; k++) {
                        if (concern.kind(k) != FieldScanner.ABSENT) {
                            m.put(CONCERN_KEYS[k], concern.value(k));
                        }
                    }
                    list.add(m);
                } else {
                    list.add(Json.parse(new String(b, p, to - p, StandardCharsets.UTF_8), JsonLimits.LENIENT));
                }
                p = to;
            }
            d.put(SUMMARY_KEYS[CONCERNS], list);
        } else if (top.kind(CONCERNS) != FieldScanner.ABSENT) {
            d.put(SUMMARY_KEYS[CONCERNS], top.value(CONCERNS));
        }
        return d;
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
