package dev.agentwarden.concern;

/**
 * How far a concern may act. {@code shadow}: runs and records, emits nothing, never blocks.
 * {@code advisory}: at most a warning (a block is downgraded). {@code blocking}: may refuse.
 */
public enum Posture {
    SHADOW, ADVISORY, BLOCKING;

    /** The manifest word, written into every decision line. */
    private final String wire = name().toLowerCase(java.util.Locale.ROOT);

    public String wire() {
        return wire;
    }

    /** The posture for a manifest word, or {@code null} if the word is not one. */
    public static Posture fromWire(String s) {
        if (s == null) {
            return null;
        }
        for (Posture p : values()) {
            if (p.wire().equals(s)) {
                return p;
            }
        }
        return null;
    }
}
