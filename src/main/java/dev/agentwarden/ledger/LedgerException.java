package dev.agentwarden.ledger;

import java.io.IOException;

/** A ledger operation that could not complete, with a stable machine code such as {@code ledger_lock_timeout}. */
public final class LedgerException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public LedgerException(String code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
