package dev.agentwarden.inventory;

import java.io.IOException;
import java.util.Map;

/** A JSON-RPC message stream to one MCP server. */
interface McpChannel extends AutoCloseable {

    /** Sends one JSON-RPC message. */
    void send(Map<String, Object> message) throws IOException;

    /**
     * The next message from the server, or {@code null} when none arrived before {@code deadlineNanos}
     * ({@link System#nanoTime()} scale).
     *
     * @throws McpFailure when the server closed, or sent something that is not a JSON-RPC message
     */
    Map<String, Object> receive(long deadlineNanos) throws McpFailure, InterruptedException;

    /** Ends the session and releases the server (kills a process that does not exit in time). */
    @Override
    void close();
}
