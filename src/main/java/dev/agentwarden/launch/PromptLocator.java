package dev.agentwarden.launch;

import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Finds a selected agent's payload in an assembled request by its boundary markers.
 *
 * <p>Within the request's system texts, in order, the first head marker (for a profile without one,
 * the payload's first line) anchors the payload: it starts as far before the anchor as the head
 * marker stands from the start of the expected payload, and ends with the first EOF marker standing
 * on a line of its own after the anchor. When no EOF marker follows, the payload ends where the text
 * stops agreeing with the expected bytes (a clip); when only an EOF marker is found, it ends there
 * and starts the expected length before. The located bytes are exactly the request's bytes: the
 * expected payload only says where to look, never what was found.
 */
final class PromptLocator {
    private PromptLocator() {
    }

    /**
     * A located payload.
     *
     * @param bytes the payload's bytes as they stand in the request (UTF-8)
     * @param where the system text holding it, e.g. {@code messages[0].content}
     * @param note  how its end was found: {@code eof_marker}, {@code no_eof_marker}, {@code no_head_marker}
     */
    public record Located(byte[] bytes, String where, String note) {
    }

    /** The payload in {@code texts}, or {@code null} when no marker of it is there. */
    public static Located locate(List<ModelWire.SystemText> texts, byte[] expected, BoundaryProfile profile) {
        byte[] anchor = anchor(expected, profile);
        byte[] eof = profile.eof() == null ? null : profile.eof().getBytes(StandardCharsets.UTF_8);
        if (anchor != null) {
            int offset = Math.max(0, indexOf(expected, anchor, 0));
            for (ModelWire.SystemText t : texts) {
                byte[] text = t.text().getBytes(StandardCharsets.UTF_8);
                int at = indexOf(text, anchor, 0);
                if (at < 0) {
                    continue;
                }
                int start = Math.max(0, at - offset);
                int end = eof == null ? -1 : eofLineEnd(text, eof, at);
                if (end >= 0) {
                    return new Located(Arrays.copyOfRange(text, start, end), t.where(), "eof_marker");
                }
                if (eof == null) {
                    end = Math.min(text.length, start + expected.length);
                    return new Located(Arrays.copyOfRange(text, start, end), t.where(), "expected_length");
                }
                return new Located(Arrays.copyOfRange(text, start, start + agreeing(text, start, expected)), t.where(),
                        "no_eof_marker");
            }
        }
        if (eof != null) {
            for (ModelWire.SystemText t : texts) {
                byte[] text = t.text().getBytes(StandardCharsets.UTF_8);
                int end = eofLineEnd(text, eof, 0);
                if (end >= 0) {
                    return new Located(Arrays.copyOfRange(text, Math.max(0, end - expected.length), end), t.where(),
                            "no_head_marker");
                }
            }
        }
        return null;
    }

    /** The head marker, or the expected payload's first line when the profile has no head marker. */
    private static byte[] anchor(byte[] expected, BoundaryProfile profile) {
        if (profile.head() != null) {
            return profile.head().getBytes(StandardCharsets.UTF_8);
        }
        int nl = indexOf(expected, new byte[] {'\n'}, 0);
        int end = nl < 0 ? expected.length : nl;
        return end == 0 ? null : Arrays.copyOf(expected, end);
    }

    /** End of the first {@code marker} after {@code from} that stands alone on its line, or -1. */
    private static int eofLineEnd(byte[] text, byte[] marker, int from) {
        for (int at = indexOf(text, marker, from); at >= 0; at = indexOf(text, marker, at + 1)) {
            int end = at + marker.length;
            if (blankTo(text, lineStart(text, at), at) && blankTo(text, end, lineEnd(text, end))) {
                return end;
            }
        }
        return -1;
    }

    private static int agreeing(byte[] text, int start, byte[] expected) {
        int n = 0;
        while (start + n < text.length && n < expected.length && text[start + n] == expected[n]) {
            n++;
        }
        return n;
    }

    private static int lineStart(byte[] b, int i) {
        while (i > 0 && b[i - 1] != '\n') {
            i--;
        }
        return i;
    }

    private static int lineEnd(byte[] b, int i) {
        while (i < b.length && b[i] != '\n') {
            i++;
        }
        return i;
    }

    private static boolean blankTo(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = Math.max(0, from); i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
