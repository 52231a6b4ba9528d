package dev.agentwarden.event;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One host lifecycle event, normalized: the only event type concerns and the dispatcher see.
 *
 * @param host          host id as named in the manifest ({@code claude}, {@code cowork}, …)
 * @param event         canonical event
 * @param nativeEvent   the host's own event name ({@code PreToolUse})
 * @param sessionId     host session id, or "" when the host sent none
 * @param agentId       id of the subagent the event happens inside, or {@code null} at top level
 * @param agentType     subagent type, or {@code null}
 * @param toolName      tool name on tool events, else {@code null}
 * @param toolInput     tool input as read from the payload (any JSON value), else {@code null}
 * @param cwd           the host's working directory, or {@code null}
 * @param workspaceRoot the project root all state is resolved against
 * @param payload       the host payload as an object; a payload that is not an object is wrapped as
 *                      {@code {"_raw": …}}
 * @param rawPayload    the payload bytes exactly as received
 */
public record HookEvent(String host, EventName event, String nativeEvent, String sessionId,
                        String agentId, String agentType, String toolName, Object toolInput,
                        String cwd, String workspaceRoot, Map<String, Object> payload,
                        byte[] rawPayload) {

    /** A string field of the payload, or {@code null} when absent or not a string. */
    public String payloadString(String key) {
        Object v = payload.get(key);
        return v instanceof String s ? s : null;
    }

    /** A boolean field of the payload; absent or non-boolean reads as {@code false}. */
    public boolean payloadFlag(String key) {
        return Boolean.TRUE.equals(payload.get(key));
    }

    /** The raw payload as text (lenient UTF-8). */
    public String rawPayloadText() {
        return new String(rawPayload, StandardCharsets.UTF_8);
    }
}
