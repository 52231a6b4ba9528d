package dev.agentwarden.host.claude;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Edits the {@code hooks} section of a Claude Code {@code settings.json} tree: adds Warden's hook
 * entries and removes them, leaving every other entry and key as it was.
 *
 * <p>A Warden entry is recognised by its command: it runs {@code warden} with
 * {@code dispatch --host <host> --native-event}. Claude Code rejects unknown keys in hook entries,
 * so the command itself is the mark.
 */
public final class ClaudeSettings {
    /** Hook timeout written into each entry, in seconds (Claude's own default is 600). */
    public static final long HOOK_TIMEOUT_SECONDS = 60;

    private ClaudeSettings() {
    }

    /** One hook to install: a native event and the tool matcher ("*" for all). */
    public record Binding(String nativeEvent, String matcher) {
    }

    /** The command line Claude runs for one event. */
    public static String command(String launcher, String host, String nativeEvent) {
        return shellQuote(launcher) + " dispatch --host " + host + " --native-event " + nativeEvent;
    }

    /** Whether a hook command is one Warden installed. */
    public static boolean isWardenCommand(Object command) {
        return command instanceof String s && s.contains("warden") && s.contains(" dispatch --host ")
                && s.contains(" --native-event ");
    }

    /**
     * Returns a copy of {@code settings} with Warden's previous entries removed and one entry per
     * binding added. Idempotent.
     */
    public static Map<String, Object> install(Map<String, Object> settings, String launcher, String host,
                                              List<Binding> bindings) {
        Map<String, Object> out = uninstall(settings);
        Map<String, Object> hooks = hooksOf(out);
        for (Binding b : bindings) {
            List<Object> groups = listOf(hooks, b.nativeEvent());
            Map<String, Object> handler = new LinkedHashMap<>();
            handler.put("type", "command");
            handler.put("command", command(launcher, host, b.nativeEvent()));
            handler.put("timeout", HOOK_TIMEOUT_SECONDS);
            Map<String, Object> group = new LinkedHashMap<>();
            if (b.matcher() != null) {
                group.put("matcher", b.matcher());
            }
            group.put("hooks", new ArrayList<>(List.of(handler)));
            groups.add(group);
        }
        out.put("hooks", hooks);
        return out;
    }

    /** Returns a copy of {@code settings} without Warden's entries; user entries stay untouched. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> uninstall(Map<String, Object> settings) {
        Map<String, Object> out = deepCopy(settings);
        if (!(out.get("hooks") instanceof Map<?, ?> hooksAny)) {
            return out;
        }
        Map<String, Object> hooks = (Map<String, Object>) hooksAny;
        for (Iterator<Map.Entry<String, Object>> events = hooks.entrySet().iterator(); events.hasNext(); ) {
            Map.Entry<String, Object> event = events.next();
            if (!(event.getValue() instanceof List<?> groups)) {
                continue;
            }
            boolean touched = false;
            List<Object> kept = new ArrayList<>();
            for (Object g : groups) {
                if (g instanceof Map<?, ?> group && group.get("hooks") instanceof List<?> handlers) {
                    List<Object> keptHandlers = new ArrayList<>();
                    for (Object h : handlers) {
                        if (h instanceof Map<?, ?> handler && isWardenCommand(handler.get("command"))) {
                            touched = true;
                        } else {
                            keptHandlers.add(h);
                        }
                    }
                    if (keptHandlers.isEmpty() && !handlers.isEmpty()) {
                        continue;
                    }
                    ((Map<String, Object>) group).put("hooks", keptHandlers);
                }
                kept.add(g);
            }
            if (touched && kept.isEmpty()) {
                events.remove();
            } else {
                event.setValue(kept);
            }
        }
        if (hooks.isEmpty()) {
            out.remove("hooks");
        }
        return out;
    }

    /** The native events Warden has entries for in a settings tree. */
    public static List<String> installedEvents(Map<String, Object> settings) {
        List<String> out = new ArrayList<>();
        if (settings.get("hooks") instanceof Map<?, ?> hooks) {
            hooks.forEach((event, groups) -> {
                if (groups instanceof List<?> list && list.stream().anyMatch(g -> g instanceof Map<?, ?> m
                        && m.get("hooks") instanceof List<?> hs
                        && hs.stream().anyMatch(h -> h instanceof Map<?, ?> hm && isWardenCommand(hm.get("command"))))) {
                    out.add(String.valueOf(event));
                }
            });
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> hooksOf(Map<String, Object> settings) {
        if (settings.get("hooks") instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        return new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> listOf(Map<String, Object> hooks, String event) {
        if (hooks.get(event) instanceof List<?> l) {
            return (List<Object>) l;
        }
        List<Object> l = new ArrayList<>();
        hooks.put(event, l);
        return l;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> settings) {
        return (Map<String, Object>) Json.parse(Json.write(settings));
    }

    static String shellQuote(String s) {
        if (s.matches("[A-Za-z0-9_./:@%+=-]+")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
