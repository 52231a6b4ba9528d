package dev.agentwarden.server;

import dev.agentwarden.dispatch.Caller;
import dev.agentwarden.dispatch.StdinReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /forward}: one host event that {@code bin/warden dispatch} hands to the
 * resident server instead of starting a JVM, with what the launcher's own JVM would have seen.
 *
 * <p>Wire format: NUL-terminated records, then an empty record, then the event payload (the
 * host's stdin) to the end of the body. The first record is {@value #MAGIC}; then one {@code d}
 * record (the absolute working directory, taken as its physical path), {@code a} records (the argv, in order, starting with
 * {@code dispatch}) and {@code e} records ({@code NAME=value}, the exported environment), in any
 * order; {@code u} (its {@code Umask:}), {@code n} (its nice value) and {@code l} records (the lines
 * of its {@code /proc/PID/limits}), so its process concerns get its umask, nice value and limits
 * ({@link ProcessAttributes}); and at most one {@code t} record (the launcher's stdin deadline, in milliseconds, expired
 * before stdin closed: the payload is what arrived by then). Text is UTF-8; a malformed sequence
 * becomes U+FFFD.
 *
 * @param stdinCutMs the expired stdin deadline of a {@code t} record, or -1 when stdin closed
 * @param launcher   the launcher's umask, nice value and limits (unknown where it sent none)
 */
public record ForwardRequest(List<String> argv, Path workingDir, Map<String, String> env, long stdinCutMs,
                             ProcessAttributes launcher) {
    public static final String MAGIC = "warden-forward/1";
    /** Longest record, in bytes (an environment variable's name and value, or one argument). */
    static final int MAX_RECORD_BYTES = 256 * 1024;
    /** Most records before the payload (not counting the empty one that ends them). */
    static final int MAX_RECORDS = 10_000;
    /** Most bytes of all records together; an environment is bounded by the OS's ARG_MAX anyway. */
    static final int MAX_RECORDS_TOTAL_BYTES = 8 * 1024 * 1024;
    /** Most arguments. */
    static final int MAX_ARGS = 64;

    /** The caller this request stands for. */
    public Caller caller() {
        return Caller.forwarded(env, workingDir);
    }

    /** The caller, its concern processes run with the launcher's attributes where {@code resident}'s differ. */
    Caller caller(ProcessAttributes resident) {
        return caller().withCommandPrefix(launcher.prefixOver(resident));
    }

    /**
     * The dispatch's stdin: {@code payload} (the rest of the body), then, for a payload cut off by
     * the launcher's deadline, the error a JVM's own stdin read would have met.
     */
    public InputStream stdin(InputStream payload) {
        if (stdinCutMs < 0) {
            return payload;
        }
        long cutMs = stdinCutMs;
        return new SequenceInputStream(payload, new InputStream() {
            @Override
            public int read() throws IOException {
                throw new StdinReader.TimedOut(cutMs);
            }
        });
    }

    /**
     * Reads the records from {@code in}, leaving it at the first payload byte.
     *
     * @throws BadForward naming the first problem
     */
    public static ForwardRequest read(InputStream in) throws IOException {
        return read(new StreamRecords(in));
    }

    /** A request read from the start of a whole body, and where its payload starts. */
    record Framed(ForwardRequest request, int payloadAt) {
    }

    /**
     * Reads the records from the start of {@code body} as {@link #read(InputStream)} does, scanning
     * the array itself (no per-byte stream call).
     *
     * @throws BadForward naming the first problem
     */
    static Framed frame(byte[] body) throws IOException {
        ArrayRecords records = new ArrayRecords(body);
        return new Framed(read(records), records.at);
    }

    private static ForwardRequest read(Records in) throws IOException {
        String first = in.next();
        if (!MAGIC.equals(first)) {
            throw new BadForward("the body does not start with the record " + MAGIC);
        }
        List<String> argv = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        Path dir = null;
        long stdinCutMs = -1;
        String umask = null;
        String nice = null;
        List<String> limits = new ArrayList<>();
        long total = 0;
        for (int n = 1; ; n++) {
            String r = in.next();
            if (r.isEmpty()) {
                break;
            }
            if (n > MAX_RECORDS) {
                throw new BadForward("more than " + MAX_RECORDS + " records before the payload");
            }
            total += r.length();
            if (total > MAX_RECORDS_TOTAL_BYTES) {
                throw new BadForward("the records before the payload exceed " + MAX_RECORDS_TOTAL_BYTES + " bytes");
            }
            if (r.charAt(0) == 'e') {
                // most records: name and value cut from the record itself, without an intermediate copy
                int eq = r.indexOf('=', 1);
                if (eq <= 1) {
                    throw new BadForward("environment record without NAME=: '" + clip(r.substring(1)) + "'");
                }
                env.put(r.substring(1, eq), r.substring(eq + 1));
                continue;
            }
            String value = r.substring(1);
            switch (r.charAt(0)) {
                case 'a' -> {
                    if (argv.size() == MAX_ARGS) {
                        throw new BadForward("more than " + MAX_ARGS + " arguments");
                    }
                    argv.add(value);
                }
                case 'd' -> {
                    if (dir != null) {
                        throw new BadForward("two working-directory records");
                    }
                    dir = absolute(value);
                }
                case 'u' -> umask = value;
                case 'n' -> nice = value;
                case 'l' -> {
                    if (limits.size() == 64) {
                        throw new BadForward("more than 64 limit records");
                    }
                    limits.add(value);
                }
                case 't' -> {
                    if (stdinCutMs >= 0 || value.isEmpty() || value.length() > 9 || !digits(value)) {
                        throw new BadForward("stdin-deadline record '" + clip(value) + "' is not one number of milliseconds");
                    }
                    stdinCutMs = Long.parseLong(value);
                }
                default -> throw new BadForward("unknown record kind '" + clip(r.substring(0, 1)) + "'");
            }
        }
        if (dir == null) {
            throw new BadForward("no working-directory record");
        }
        if (argv.isEmpty() || !argv.get(0).equals("dispatch")) {
            throw new BadForward("the arguments must start with 'dispatch'");
        }
        return new ForwardRequest(List.copyOf(argv), dir, Map.copyOf(env), stdinCutMs,
                ProcessAttributes.parse(umask, nice, limits));
    }

    /**
     * The launcher's directory as its own JVM would see it: the shell's {@code $PWD} is the logical
     * path (through symlinks), the JVM's working directory the physical one.
     */
    private static Path absolute(String dir) throws BadForward {
        Path p;
        try {
            p = Path.of(dir);
        } catch (InvalidPathException e) {
            p = null;
        }
        if (p == null || !p.isAbsolute()) {
            throw new BadForward("working directory '" + clip(dir) + "' is not an absolute path");
        }
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    /** Where the records come from, one NUL-terminated record at a time; the body ending first is an error. */
    private interface Records {
        String next() throws IOException;
    }

    private static BadForward endsInsideRecords() {
        return new BadForward("the body ends inside the records (no empty record before the payload)");
    }

    private static BadForward recordTooLong() {
        return new BadForward("a record is longer than " + MAX_RECORD_BYTES + " bytes");
    }

    /** Records read a byte at a time, leaving the stream at the first payload byte. */
    private static final class StreamRecords implements Records {
        private final InputStream in;

        StreamRecords(InputStream in) {
            this.in = in;
        }

        @Override
        public String next() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(128);
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw endsInsideRecords();
                }
                if (c == 0) {
                    return b.toString(StandardCharsets.UTF_8);
                }
                if (b.size() == MAX_RECORD_BYTES) {
                    throw recordTooLong();
                }
                b.write(c);
            }
        }
    }

    /** Records scanned in a whole body; {@link #at} is then the first payload byte. */
    private static final class ArrayRecords implements Records {
        private final byte[] body;
        int at;

        ArrayRecords(byte[] body) {
            this.body = body;
        }

        @Override
        public String next() throws BadForward {
            int from = at;
            int limit = Math.min(body.length, from + MAX_RECORD_BYTES + 1);
            int i = from;
            while (i < limit && body[i] != 0) {
                i++;
            }
            if (i - from > MAX_RECORD_BYTES) {
                throw recordTooLong();
            }
            if (i == body.length) {
                throw endsInsideRecords();
            }
            at = i + 1;
            return new String(body, from, i - from, StandardCharsets.UTF_8);
        }
    }

    private static boolean digits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String clip(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }

    /** A body that is not a forwarded event. */
    public static final class BadForward extends IOException {
        public BadForward(String message) {
            super(message);
        }
    }
}
