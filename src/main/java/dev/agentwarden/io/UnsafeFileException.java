package dev.agentwarden.io;

import java.io.IOException;

/**
 * A file Warden refused to open because of what it is or where it leads, with a stable code:
 * {@code state_symlink_refused}, {@code state_not_regular}, {@code state_not_directory},
 * {@code state_outside_project}, {@code file_too_large}, {@code file_changed_while_opening}.
 */
public final class UnsafeFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public UnsafeFileException(String code, String message) {
        super(code + ": " + message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
