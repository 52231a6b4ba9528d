package dev.agentwarden.export;

/** An export that stopped: its message is the one line the command prints. */
public final class ExportFailed extends Exception {
    private static final long serialVersionUID = 1L;

    ExportFailed(String message) {
        super(message);
    }
}
