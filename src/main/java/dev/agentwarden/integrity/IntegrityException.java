package dev.agentwarden.integrity;

/** A rejected integrity input or event, with a stable machine code such as {@code event_out_of_order}. */
public final class IntegrityException extends RuntimeException {
    private final String code;

    public IntegrityException(String code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public IntegrityException(String code, String message, Throwable cause) {
        super(code + ": " + message, cause);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
