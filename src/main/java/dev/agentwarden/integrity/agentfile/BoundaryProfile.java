package dev.agentwarden.integrity.agentfile;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * How a payload proves its own completeness. A marker counts only at its position: the head marker
 * on a line of its own within the first {@code headWithinLines} lines, the EOF marker as the last
 * non-empty line. The same text anywhere else in the payload proves nothing. Lines are compared
 * after trimming spaces, tabs and carriage returns at both ends.
 *
 * <ul>
 *   <li>{@code squad}: Squad's HEAD canary within the first 15 lines and its EOF canary last;</li>
 *   <li>{@code markers}: user-given markers with the same rules (the head marker is optional);</li>
 *   <li>{@code none}: no markers; completeness only from the release manifest's expected length.</li>
 * </ul>
 *
 * @param name            {@code squad}, {@code markers} or {@code none}
 * @param head            the head marker, or {@code null} when the profile has none
 * @param eof             the EOF marker, or {@code null} for {@code none}
 * @param headWithinLines how many leading lines may hold the head marker
 */
public record BoundaryProfile(String name, String head, String eof, int headWithinLines) {

    public static final String SQUAD = "squad";
    public static final String MARKERS = "markers";
    public static final String NONE = "none";
    public static final List<String> NAMES = List.of(SQUAD, MARKERS, NONE);

    public static final String SQUAD_HEAD_CANARY = "<!-- SQUAD_COORDINATOR_CANARY_HEAD_b7d2 -->";
    public static final String SQUAD_EOF_CANARY = "<!-- SQUAD_COORDINATOR_CANARY_a8f3 -->";
    public static final int DEFAULT_HEAD_WITHIN_LINES = 15;
    static final int MAX_MARKER_CHARS = 256;

    /** Squad's coordinator canaries. */
    public static BoundaryProfile squad() {
        return new BoundaryProfile(SQUAD, SQUAD_HEAD_CANARY, SQUAD_EOF_CANARY, DEFAULT_HEAD_WITHIN_LINES);
    }

    /** No markers: completeness comes only from the registered byte length. */
    public static BoundaryProfile none() {
        return new BoundaryProfile(NONE, null, null, 0);
    }

    /**
     * User markers. {@code head} may be {@code null}.
     *
     * @throws IllegalArgumentException when a marker is empty, spans lines, or is over 256 characters
     */
    public static BoundaryProfile markers(String head, String eof) {
        if (eof == null) {
            throw new IllegalArgumentException("profile markers needs an EOF marker (--eof-marker)");
        }
        validMarker("head", head);
        validMarker("EOF", eof);
        return new BoundaryProfile(MARKERS, head, eof, DEFAULT_HEAD_WITHIN_LINES);
    }

    /**
     * The profile for a name as given on a command line or in settings.
     *
     * @throws IllegalArgumentException for an unknown name or bad markers
     */
    public static BoundaryProfile of(String name, String head, String eof) {
        switch (name == null ? SQUAD : name) {
            case SQUAD:
                return squad();
            case NONE:
                return none();
            case MARKERS:
                return markers(head, eof);
            default:
                throw new IllegalArgumentException("unknown boundary profile '" + name + "'; known: " + NAMES);
        }
    }

    private static void validMarker(String which, String marker) {
        if (marker == null) {
            return;
        }
        if (marker.isBlank() || marker.indexOf('\n') >= 0 || marker.indexOf('\r') >= 0
                || !marker.equals(marker.strip()) || marker.length() > MAX_MARKER_CHARS) {
            throw new IllegalArgumentException(which + " marker must be one non-blank line without surrounding"
                    + " whitespace, at most " + MAX_MARKER_CHARS + " characters");
        }
    }

    /** Whether this profile proves completeness by markers. */
    public boolean usesMarkers() {
        return eof != null;
    }

    /** Where the markers sit in {@code bytes}, or {@code null} for a profile without markers. */
    public Boundaries check(byte[] bytes) {
        if (!usesMarkers()) {
            return null;
        }
        int headLine = head == null ? 0 : headLine(bytes, head.getBytes(StandardCharsets.UTF_8), headWithinLines);
        return new Boundaries(headLine, lastLineIs(bytes, eof.getBytes(StandardCharsets.UTF_8)));
    }

    /** What a set of found boundaries proves under this profile. */
    public Proof proof(Boundaries found) {
        if (!usesMarkers() || found == null) {
            return Proof.NO_MARKERS;
        }
        boolean headOk = head == null || found.headLine() > 0;
        boolean headPresent = head != null && found.headLine() > 0;
        if (headOk && found.eof()) {
            return Proof.COMPLETE;
        }
        if (!found.eof() && !headPresent) {
            return Proof.NO_MARKERS;
        }
        return found.eof() ? Proof.MISSING_HEAD : Proof.MISSING_EOF;
    }

    /**
     * What markers prove about one artifact. {@code NO_MARKERS} means none of the required markers
     * is present, so nothing shows the artifact follows the profile at all: completeness is
     * unknown, not disproven. One marker present and the other missing is proven loss.
     */
    public enum Proof { COMPLETE, MISSING_HEAD, MISSING_EOF, NO_MARKERS }

    private static int headLine(byte[] bytes, byte[] marker, int window) {
        int start = 0;
        for (int line = 1; line <= window && start <= bytes.length; line++) {
            int end = indexOf(bytes, (byte) '\n', start);
            int stop = end < 0 ? bytes.length : end;
            if (trimmedEquals(bytes, start, stop, marker)) {
                return line;
            }
            if (end < 0) {
                break;
            }
            start = end + 1;
        }
        return 0;
    }

    private static boolean lastLineIs(byte[] bytes, byte[] marker) {
        int end = bytes.length;
        while (end > 0 && isBlank(bytes[end - 1])) {
            end--;
        }
        if (end == 0) {
            return false;
        }
        int start = end;
        while (start > 0 && bytes[start - 1] != '\n') {
            start--;
        }
        return trimmedEquals(bytes, start, end, marker);
    }

    private static boolean trimmedEquals(byte[] bytes, int from, int to, byte[] marker) {
        while (from < to && isSpace(bytes[from])) {
            from++;
        }
        while (to > from && isSpace(bytes[to - 1])) {
            to--;
        }
        return to - from == marker.length && Arrays.equals(bytes, from, to, marker, 0, marker.length);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r';
    }

    private static boolean isBlank(byte b) {
        return isSpace(b) || b == '\n';
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
