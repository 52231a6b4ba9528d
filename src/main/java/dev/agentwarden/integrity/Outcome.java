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

    /**
     * {@code transport_integrity}, the enforcement axis: was the payload read and attached whole.
     * {@code PARTIAL} is proven loss, {@code UNKNOWN} is missing evidence; both halt, and they are never
     * counted together.
     */
    public enum TransportIntegrity {
        INTACT, PARTIAL, UNKNOWN
    }

    /**
     * {@code release_integrity}, the provenance axis: is the source the registered release.
     * No entry, an unknown key or an untrusted manifest is {@code UNREGISTERED}, never {@code MISMATCH}.
     */
    public enum ReleaseIntegrity {
        VERIFIED, MISMATCH, UNREGISTERED
    }
}
