package dev.agentwarden.io;

import java.io.IOException;

/** An I/O failure with a stable machine code, which also leads its message ({@code code: message}). */
public abstract class CodedIOException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final String detail;

    protected CodedIOException(String code, String message) {
        super(code + ": " + message);
        this.code = code;
        this.detail = message;
    }

    public final String code() {
        return code;
    }

    /** The message without its code. */
    public final String detail() {
        return detail;
    }
}
