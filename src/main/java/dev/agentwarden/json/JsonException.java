package dev.agentwarden.json;

/** A JSON text that cannot be read, with a stable machine code and the character offset. */
public final class JsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final int offset;

    public JsonException(String code, String message, int offset) {
        super(message + " (" + code + " at offset " + offset + ")");
        this.code = code;
        this.offset = offset;
    }

    /** Stable code such as {@code json_syntax}, {@code json_depth_limit}, {@code json_duplicate_key}. */
    public String code() {
        return code;
    }

    public int offset() {
        return offset;
    }
}
