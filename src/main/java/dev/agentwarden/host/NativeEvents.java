package dev.agentwarden.host;

import dev.agentwarden.event.EventName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds a host's table of native event names and canonical events, in the host's order. */
public final class NativeEvents {
    private NativeEvents() {
    }

    /** {@code of("PreToolUse", EventName.PRE_TOOL_USE, …)}: an unmodifiable map in argument order. */
    public static Map<String, EventName> of(Object... pairs) {
        Map<String, EventName> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            out.put((String) pairs[i], (EventName) pairs[i + 1]);
        }
        return Collections.unmodifiableMap(out);
    }
}
