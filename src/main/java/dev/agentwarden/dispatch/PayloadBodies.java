package dev.agentwarden.dispatch;

import dev.agentwarden.event.HookEvent;
import dev.agentwarden.json.Json;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * agent-config's {@code needs_payload_bodies}: a process concern that is not blocking receives a
 * tool call's bodies ({@code input}: {@code tool_input}; {@code result}: {@code tool_response}) only
 * when it declares them; in their place it gets agent-config's stub, which says what was left out
 * and how large it was. A blocking concern always gets the payload verbatim.
 */
final class PayloadBodies {
    /** Body class → the payload keys holding that body. */
    private static final Map<String, List<String>> KEYS = Map.of(
            "input", List.of("tool_input"),
            "result", List.of("tool_response", "tool_result"));
    /** The order agent-config's body classes are checked in. */
    private static final List<String> CLASSES = List.of("input", "result");

    private PayloadBodies() {
    }

    /** The payload for {@code spec}'s envelope: the host's text verbatim, or with undeclared bodies stubbed. */
    static Object forConcern(HookEvent event, ConcernSpec spec) {
        Map<String, Object> payload = event.payload();
        boolean verbatim = payload.containsKey("_raw") && payload.size() == 1;
        Map<String, Object> stubbed = null;
        if (!verbatim && spec.posture() != Posture.BLOCKING) {
            for (String bodyClass : CLASSES) {
                if (spec.payloadBodies().contains(bodyClass)) {
                    continue;
                }
                for (String key : KEYS.get(bodyClass)) {
                    if (payload.containsKey(key)) {
                        if (stubbed == null) {
                            stubbed = new LinkedHashMap<>(payload);
                        }
                        stubbed.put(key, stub(key, bodyClass, payload.get(key)));
                    }
                }
            }
        }
        if (stubbed != null) {
            return stubbed;
        }
        return verbatim ? payload : new Json.RawJson(event.rawPayloadText().strip());
    }

    /**
     * agent-config's stand-in for a body a concern did not ask for: what was left out, its size in
     * bytes of JSON, its type, and for an object how many keys it has ({@code key_count}).
     */
    static Map<String, Object> stub(String key, String bodyClass, Object value) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("_agent_config_body_omitted", true);
        s.put("key", key);
        s.put("body_class", bodyClass);
        s.put("bytes", (long) Json.write(value).getBytes(StandardCharsets.UTF_8).length);
        s.put("value_type", valueType(value));
        if (value instanceof Map<?, ?> object) {
            s.put("key_count", (long) object.size());
        }
        return s;
    }

    private static String valueType(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Map) {
            return "object";
        }
        if (value instanceof List) {
            return "array";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        return "number";
    }
}
