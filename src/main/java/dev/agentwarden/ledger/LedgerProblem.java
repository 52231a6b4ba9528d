package dev.agentwarden.ledger;

/**
 * One finding about the ledger or the open-record set.
 *
 * @param code     stable machine code ({@code ledger_torn_line}, {@code ledger_chain_break}, …)
 * @param location {@code file:line}, or a file, or "" when the finding is about the whole ledger
 * @param message  what is wrong, for people
 * @param error    an integrity failure (tampering or loss) rather than a recoverable crash artefact
 */
public record LedgerProblem(String code, String location, String message, boolean error) {

    static LedgerProblem error(String code, String location, String message) {
        return new LedgerProblem(code, location, message, true);
    }

    static LedgerProblem warning(String code, String location, String message) {
        return new LedgerProblem(code, location, message, false);
    }

    @Override
    public String toString() {
        return (location.isEmpty() ? "" : location + ": ") + (error ? "error: " : "warning: ") + code + ": " + message;
    }
}
