package dev.agentwarden.cli;

/** Exit codes of Warden's commands (dispatch follows each host's protocol instead). */
enum ExitCode {
    /** Success; for checks: clean. */
    OK(0),
    /** A check found errors (lint errors, verification failures). */
    FINDINGS(1),
    /** Usage error, or input that cannot be read at all. */
    UNREADABLE(2),
    /** The integrity gate halted. */
    HALT(3);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
