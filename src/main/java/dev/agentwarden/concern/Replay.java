package dev.agentwarden.concern;

import java.util.Map;

/** Replay mode: events are evaluated but no state is written ({@code WARDEN_REPLAY=1}, or agent-config's {@code AGENT_CONFIG_REPLAY=1}). */
public final class Replay {
    private Replay() {
    }

    public static boolean active(Map<String, String> env) {
        return "1".equals(env.get("WARDEN_REPLAY")) || "1".equals(env.get("AGENT_CONFIG_REPLAY"));
    }
}
