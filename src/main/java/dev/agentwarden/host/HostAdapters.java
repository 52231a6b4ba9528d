package dev.agentwarden.host;

import dev.agentwarden.host.claude.ClaudeAdapter;
import dev.agentwarden.host.codex.CodexAdapter;

/** The adapter for each host id that has output semantics. */
public final class HostAdapters {
    private HostAdapters() {
    }

    /** The adapter for a host id, or {@code null} when Warden has none yet. */
    public static HostAdapter forId(String host) {
        switch (host) {
            case "claude":
            case "cowork":
                return new ClaudeAdapter(host);
            case "codex":
                return new CodexAdapter();
            default:
                return null;
        }
    }
}
