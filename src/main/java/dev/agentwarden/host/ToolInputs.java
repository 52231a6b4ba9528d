package dev.agentwarden.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Readers of a tool call's input object, for adapters whose hosts name its fields alike. */
public final class ToolInputs {
    private ToolInputs() {
    }

    /**
     * The {@code command} string of a tool input (the shell tool's, and any other tool's that names
     * one, as Codex's {@code apply_patch} its patch), or {@code null}.
     */
    public static String command(Object toolInput) {
        return toolInput instanceof Map<?, ?> map && map.get("command") instanceof String s ? s : null;
    }

    /**
     * The string values of {@code keys} in a tool input, in the order of {@code keys}; a key whose
     * value is missing or not a string adds nothing, and an input that is not an object gives none.
     */
    public static List<String> strings(Object toolInput, String... keys) {
        if (!(toolInput instanceof Map<?, ?> map)) {
            return List.of();
        }
        List<String> out = new ArrayList<>(keys.length);
        for (String key : keys) {
            if (map.get(key) instanceof String value) {
                out.add(value);
            }
        }
        return out;
    }
}
