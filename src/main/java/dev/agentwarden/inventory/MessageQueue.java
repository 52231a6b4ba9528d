package dev.agentwarden.inventory;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Messages a reader thread parsed, handed to the snapshotting thread with a deadline. */
final class MessageQueue {
    /** Most messages buffered before the server counts as flooding. */
    static final int CAPACITY = 10_000;
    private static final Object END = new Object();
    private final LinkedBlockingQueue<Object> items = new LinkedBlockingQueue<>(CAPACITY);
    private volatile McpFailure failure;

    /** Parses one message's text and queues it, or records garbage and ends the stream. */
    void offerText(String text) {
        Object value;
        try {
            value = Json.parse(text, JsonLimits.I_JSON);
        } catch (JsonException e) {
            fail(new McpFailure(ServerStatus.GARBAGE, "not JSON (" + e.code() + "): " + excerpt(text)));
            return;
        }
        if (!(value instanceof Map<?, ?> map) || !"2.0".equals(map.get("jsonrpc"))) {
            fail(new McpFailure(ServerStatus.GARBAGE, "not a JSON-RPC 2.0 message: " + excerpt(text)));
            return;
        }
        if (!items.offer(map)) {
            fail(new McpFailure(ServerStatus.GARBAGE, "more than " + CAPACITY + " unread messages"));
        }
    }

    /** Ends the stream with a failure the next {@link #take} reports (the first failure wins). */
    void fail(McpFailure why) {
        if (failure == null) {
            failure = why;
        }
        items.offer(END);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> take(long deadlineNanos) throws McpFailure, InterruptedException {
        long wait = deadlineNanos - System.nanoTime();
        Object item = wait <= 0 ? items.poll() : items.poll(wait, TimeUnit.NANOSECONDS);
        if (item == END || (item == null && failure != null && items.isEmpty())) {
            items.offer(END);
            throw failure;
        }
        return (Map<String, Object>) item;
    }

    static String excerpt(String text) {
        String flat = text.replace('\n', ' ').replace('\r', ' ');
        return flat.length() <= 120 ? flat : flat.substring(0, 120) + "...";
    }
}
