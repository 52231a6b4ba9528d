package dev.agentwarden.decision;

/**
 * Also told of each decision line a long-lived server wrote ({@link OpenSegments#tap}): the live
 * OpenTelemetry export. Called on the hook's own thread after the line is on disk, so it must
 * return at once and never throw.
 */
public interface DecisionTap {
    /** The line just written for the project at {@code root} (JSON, newline-ended). */
    void recorded(String root, String line);
}
