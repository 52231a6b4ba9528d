package dev.agentwarden.io;

/**
 * A file Warden refused to open because of what it is or where it leads, with a stable code:
 * {@code state_symlink_refused}, {@code state_not_regular}, {@code state_not_directory},
 * {@code state_outside_project}, {@code file_too_large}, {@code file_changed_while_opening}.
 */
public final class UnsafeFileException extends CodedIOException {
    private static final long serialVersionUID = 1L;

    public UnsafeFileException(String code, String message) {
        super(code, message);
    }
}
