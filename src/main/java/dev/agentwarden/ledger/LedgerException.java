package dev.agentwarden.ledger;

import dev.agentwarden.io.CodedIOException;

/** A ledger operation that could not complete, with a stable machine code such as {@code ledger_lock_timeout}. */
final class LedgerException extends CodedIOException {
    private static final long serialVersionUID = 1L;

    public LedgerException(String code, String message) {
        super(code, message);
    }
}
