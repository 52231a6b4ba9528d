package dev.agentwarden.release;

/**
 * An unsigned release manifest that cannot be read as one ({@link JsonFileReleaseStore#open}), with a
 * stable machine code such as {@code release_manifest_invalid}. Unchecked, like the gate's own
 * rejections; {@link ReleaseSources} throws it as it is, for the caller to report.
 */
public final class ReleaseStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final String detail;

    public ReleaseStoreException(String code, String detail) {
        super(code + ": " + detail);
        this.code = code;
        this.detail = detail;
    }

    public String code() {
        return code;
    }

    /** The message without its code. */
    public String detail() {
        return detail;
    }
}
