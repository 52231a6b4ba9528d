package dev.agentwarden.integrity;

/** The decision function's result for one session. */
public enum Outcome {
    /** Selected, transport INTACT, release VERIFIED. */
    LOADED(false),
    /** Selected, transport INTACT, release UNREGISTERED: reported, never halted. */
    LOADED_WITH_REPORT(false),
    /** Selected, transport INTACT, release MISMATCH: proven wrong or mutated release. */
    HALT_RELEASE_MISMATCH(true),
    /** Selected, transport PARTIAL: proven read or assembly loss. */
    HALT_CORRUPT(true),
    /** Transport UNKNOWN, or an event missing from the ordered sequence: not proven corruption. */
    UNKNOWN_HALT(true),
    /** The host proved the gated agent was not selected. */
    SKIP(false);

    private final boolean halts;

    Outcome(boolean halts) {
        this.halts = halts;
    }

    /** Whether the session must stop. */
    public boolean halts() {
        return halts;
    }
}
