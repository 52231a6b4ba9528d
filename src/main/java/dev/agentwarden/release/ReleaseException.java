package dev.agentwarden.release;

/**
 * A publishing or set-up step that cannot go on (unreadable key file, bad option, malformed input
 * to sign), with a stable machine code such as {@code key_unreadable}. Verification never throws
 * this: an untrusted manifest is a {@link Verification} outcome, not an error.
 */
public final class ReleaseException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String code;

    public ReleaseException(String code, String message) {
        super(message);
        this.code = code;
    }

    public ReleaseException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
