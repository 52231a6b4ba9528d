package dev.agentwarden.inventory;

/** Why a server's manifest could not be taken; {@link #status()} is what a snapshot records. */
final class McpFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private final ServerStatus status;

    McpFailure(ServerStatus status, String reason) {
        super(reason);
        this.status = status;
    }

    ServerStatus status() {
        return status;
    }
}
