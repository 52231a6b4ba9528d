package dev.agentwarden.inventory;

/** {@code inventory_drift}: a turn's execution envelope against the preregistered inventory. */
public enum DriftStatus {
    /** The inventory hash is the baseline: primary cell. */
    NONE,
    /** Fully captured and declared in advance: its own labelled cell, never pooled with the primary. */
    EXPECTED_VARIANT,
    /** A manifest is missing, or a required tool is gone: the turn is void. */
    INVALIDATING,
    /** Fully captured but undeclared: quarantined, never pooled. */
    EXPLORATORY
}
