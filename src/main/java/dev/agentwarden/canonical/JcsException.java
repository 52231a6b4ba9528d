package dev.agentwarden.canonical;

/** A value that has no RFC 8785 form, with a stable machine code such as {@code jcs_lone_surrogate}. */
public final class JcsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public JcsException(String code, String message) {
        super(message + " (" + code + ")");
        this.code = code;
    }

    public String code() {
        return code;
    }
}
