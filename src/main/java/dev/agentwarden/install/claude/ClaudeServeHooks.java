package dev.agentwarden.install.claude;

import dev.agentwarden.install.HostSetup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Claude Code HTTP hook entries pointing at a running {@code warden serve}. */
final class ClaudeServeHooks implements HostSetup.ServeHooks {
    private final String host;
    private final List<String> events;

    ClaudeServeHooks(String host, List<String> events) {
        this.host = host;
        this.events = events;
    }

    @Override
    public String heading() {
        return "Claude Code hooks (merge into .claude/settings.json; Claude expands $WARDEN_TOKEN from its environment):";
    }

    @Override
    public Map<String, Object> block(int port) {
        Map<String, Object> byEvent = new LinkedHashMap<>();
        for (String event : events) {
            Map<String, Object> hook = new LinkedHashMap<>();
            hook.put("type", "http");
            hook.put("url", "http://127.0.0.1:" + port + "/dispatch/" + host + "/" + event);
            hook.put("headers", Map.of("Authorization", "Bearer $WARDEN_TOKEN"));
            hook.put("allowedEnvVars", List.of("WARDEN_TOKEN"));
            Map<String, Object> matcher = new LinkedHashMap<>();
            matcher.put("hooks", List.of(hook));
            byEvent.put(event, List.of(matcher));
        }
        return Map.of("hooks", byEvent);
    }
}
