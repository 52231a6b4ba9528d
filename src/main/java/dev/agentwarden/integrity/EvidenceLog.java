package dev.agentwarden.integrity;

import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The append-only evidence log, {@code <root>/.warden/state/integrity/evidence.jsonl}: every event of
 * every session, one line each, written the moment the recorder accepts it. The selection record
 * is forced to disk before the agent file is opened, and the decision record forces the whole
 * session; the lines between are written but not forced one by one. Appends take an exclusive file
 * lock (and, within one process, a monitor per file), so concurrent sessions interleave whole
 * lines only.
 */
final class EvidenceLog implements Recorder.Sink {
    /** Where the log lives under a project's {@code .warden} directory. */
    public static final String RELATIVE = "state/integrity/evidence.jsonl";
    /** Longest line read back. */
    public static final int MAX_LINE_BYTES = 64 * 1024;
    /** Largest log read back. */
    public static final long MAX_FILE_BYTES = 256L * 1024 * 1024;

    private final Path root;
    private final Path file;

    /** A log at {@code file}; only the file itself is checked when written (no link, regular). */
    public EvidenceLog(Path file) {
        this(file.toAbsolutePath().getParent(), file);
    }

    private EvidenceLog(Path root, Path file) {
        this.root = root;
        this.file = file;
    }

    /** The log under a {@code .warden} directory; no directory from the project down may be a link. */
    public static EvidenceLog under(Path stateHome) {
        Path home = stateHome.toAbsolutePath().normalize();
        return new EvidenceLog(home.getParent() == null ? home : home.getParent(), home.resolve(RELATIVE));
    }

    public Path file() {
        return file;
    }

    @Override
    public void accept(Recorded r) throws IOException {
        byte[] line = (Json.write(EvidenceCodec.toJson(r)) + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (IN_PROCESS.computeIfAbsent(file.toAbsolutePath().normalize(), k -> new Object())) {
            try (FileChannel ch = StateFiles.openAppend(root, file);
                 FileLock ignored = ch.lock()) {
                ByteBuffer buf = ByteBuffer.wrap(line);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                if (r.event().kind().slot() == 1 || r.event().kind() == IntegrityEvent.Kind.DECISION) {
                    ch.force(false);
                }
            }
        }
    }

    /** File locks are per process; threads of one process take this monitor per log file first. */
    private static final ConcurrentHashMap<Path, Object> IN_PROCESS = new ConcurrentHashMap<>();

    /**
     * One line of a log read back.
     *
     * @param number   1-based line number
     * @param session  the session the line names, when it could be read that far, else {@code null}
     * @param recorded the event, or {@code null} when the line was refused
     * @param problem  {@code code: detail} when refused, else {@code null}
     */
    public record Line(int number, String session, Recorded recorded, String problem) {
    }

    /**
     * Reads every line of a log. Refused lines are returned with a problem code
     * ({@code evidence_torn_line}, {@code evidence_line_too_long}, {@code evidence_line_invalid},
     * {@code event_unknown}, {@code evidence_field_invalid}, …) instead of failing the read.
     *
     * @throws IntegrityException {@code evidence_unreadable} or {@code evidence_too_large}
     */
    public static List<Line> read(Path file) {
        FileChannel channel;
        long size;
        try {
            channel = StateFiles.openRead(file, false);
            size = channel.size();
        } catch (IOException e) {
            throw new IntegrityException("evidence_unreadable", file + ": " + e.getMessage());
        }
        if (size > MAX_FILE_BYTES) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // refusing it anyway
            }
            throw new IntegrityException("evidence_too_large", file + " is " + size + " bytes; the limit is " + MAX_FILE_BYTES);
        }
        List<Line> out = new ArrayList<>();
        try (InputStream in = new BufferedInputStream(new BoundedInput(Channels.newInputStream(channel), MAX_FILE_BYTES))) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean tooLong = false;
            int number = 0;
            int b;
            while (true) {
                b = in.read();
                if (b == '\n' || b < 0) {
                    if (b < 0 && line.size() == 0 && !tooLong) {
                        break;
                    }
                    number++;
                    if (tooLong) {
                        out.add(new Line(number, null, null, "evidence_line_too_long: over " + MAX_LINE_BYTES + " bytes"));
                    } else if (b < 0) {
                        out.add(new Line(number, null, null,
                                "evidence_torn_line: the last line has no newline (a write was cut short)"));
                    } else if (line.size() > 0) {
                        out.add(parse(number, line.toByteArray()));
                    }
                    line.reset();
                    tooLong = false;
                    if (b < 0) {
                        break;
                    }
                } else if (!tooLong) {
                    if (line.size() >= MAX_LINE_BYTES) {
                        tooLong = true;
                        line.reset();
                    } else {
                        line.write(b);
                    }
                }
            }
        } catch (IOException e) {
            throw new IntegrityException("evidence_unreadable", file + ": " + e.getMessage());
        }
        return out;
    }

    /** Stops after {@code limit} bytes, so a log growing while it is read cannot make the read endless. */
    private static final class BoundedInput extends java.io.FilterInputStream {
        private long left;

        BoundedInput(InputStream in, long limit) {
            super(in);
            this.left = limit;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = super.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = super.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }
    }

    @SuppressWarnings("unchecked")
    private static Line parse(int number, byte[] bytes) {
        Object value;
        try {
            value = Json.parse(bytes, JsonLimits.I_JSON);
        } catch (JsonException e) {
            return new Line(number, null, null, "evidence_line_invalid: " + e.getMessage());
        }
        if (!(value instanceof Map)) {
            return new Line(number, null, null, "evidence_line_invalid: not a JSON object");
        }
        Map<String, Object> o = (Map<String, Object>) value;
        String session = o.get("session") instanceof String s ? s : null;
        try {
            Recorded r = EvidenceCodec.fromJson(o);
            return new Line(number, session, r, null);
        } catch (IntegrityException e) {
            return new Line(number, session, null, e.getMessage());
        }
    }
}
