package dev.agentwarden.ledger;

import java.time.Clock;

/** Ledger stores that roll their segments at a small size, for tests in any package. */
public final class RollingStores {
    private RollingStores() {
    }

    /** A store over {@code paths} whose segments continue in a new part past {@code rollBytes}. */
    public static LedgerStore rollingAt(LedgerPaths paths, Clock clock, long rollBytes) {
        return new LedgerStore(paths, clock, LedgerStore.DEFAULT_LOCK_WAIT_MS, rollBytes);
    }
}
