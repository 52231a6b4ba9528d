package dev.agentwarden.integrity.agentfile;

import java.util.Arrays;

/**
 * A form of an agent file that a host places in its prompt instead of the file itself. The gate
 * computes the form from the bytes it read, so the expected attachment never comes from the
 * assembled request.
 */
public enum AttachForm {
    /** The file exactly as read. */
    FILE("file", false, false),
    /**
     * The agent's instructions as Claude Code 2.1 attaches {@code --agent NAME}: the YAML front matter
     * (a first line {@code ---} up to the next line {@code ---}) removed, and spaces, tabs and line
     * breaks trimmed at both ends.
     */
    AGENT_BODY("agent-body", true, false),
    /** {@link #AGENT_BODY} with CRLF turned into LF, as Copilot CLI 1.0.102 attaches {@code --agent NAME}. */
    AGENT_BODY_LF("agent-body-lf", true, true);

    /** The names {@link #of} accepts. */
    public static final java.util.List<String> NAMES = java.util.List.of("file", "agent-body", "agent-body-lf");

    private final String wire;
    private final boolean body;
    private final boolean lf;

    AttachForm(String wire, boolean body, boolean lf) {
        this.wire = wire;
        this.body = body;
        this.lf = lf;
    }

    /**
     * The form named {@code name}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static AttachForm of(String name) {
        for (AttachForm f : values()) {
            if (f.wire.equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown attach form '" + name + "'; known: " + NAMES);
    }

    /** The name recorded as {@code attached_form}. */
    public String wire() {
        return wire;
    }

    /** The form of {@code source}. */
    public byte[] apply(byte[] source) {
        if (!body) {
            return source.clone();
        }
        byte[] lf = this.lf ? withoutCarriageReturns(source) : source;
        int start = afterFrontMatter(lf);
        int end = lf.length;
        while (start < end && isSpace(lf[start])) {
            start++;
        }
        while (end > start && isSpace(lf[end - 1])) {
            end--;
        }
        return Arrays.copyOfRange(lf, start, end);
    }

    private static byte[] withoutCarriageReturns(byte[] b) {
        byte[] out = new byte[b.length];
        int n = 0;
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '\r' && i + 1 < b.length && b[i + 1] == '\n') {
                continue;
            }
            out[n++] = b[i];
        }
        return n == b.length ? out : Arrays.copyOf(out, n);
    }

    /** Index just past the front matter's closing line, or 0 when the file has none. */
    private static int afterFrontMatter(byte[] b) {
        int first = lineEnd(b, 0);
        if (!isFence(b, 0, first)) {
            return 0;
        }
        int start = first + 1;
        while (start <= b.length && first < b.length) {
            int end = lineEnd(b, start);
            if (isFence(b, start, end)) {
                return Math.min(end + 1, b.length);
            }
            if (end >= b.length) {
                return 0;
            }
            start = end + 1;
        }
        return 0;
    }

    private static int lineEnd(byte[] b, int from) {
        int i = from;
        while (i < b.length && b[i] != '\n') {
            i++;
        }
        return i;
    }

    private static boolean isFence(byte[] b, int from, int to) {
        while (to > from && (b[to - 1] == ' ' || b[to - 1] == '\t')) {
            to--;
        }
        return to - from == 3 && b[from] == '-' && b[from + 1] == '-' && b[from + 2] == '-';
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }
}
