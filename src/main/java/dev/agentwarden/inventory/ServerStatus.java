package dev.agentwarden.inventory;

/** The outcome of taking one server's tool manifest. Only {@link #OK} carries a manifest. */
public enum ServerStatus {
    OK,
    /** The process could not be started, or exited before answering. */
    START_FAILED,
    /** No answer before a deadline; the server was killed or the connection closed. */
    TIMEOUT,
    /** Output that is not MCP JSON-RPC (not JSON, wrong shape, oversized). */
    GARBAGE,
    /** The server answered a request with a JSON-RPC error, or HTTP refused it. */
    ERROR,
    /** Two tools share a name, so the manifest is ambiguous. */
    DUPLICATE_TOOLS,
    /** A transport this client does not speak (legacy SSE). */
    UNSUPPORTED,
    /** Declared by a project file and not started without {@code --allow-project-servers}. */
    SKIPPED_UNTRUSTED
}
