package dev.agentwarden.decision;

import dev.agentwarden.host.HostResponse;

/**
 * What reached the host, read from the answer itself: {@code none|deny|context|block|halt}.
 *
 * <p>Both supported hosts (Claude Code and Codex) answer in the one JSON dialect their adapter
 * writes compactly ({@code host/claude}); a host adapter with another dialect adds its shapes here.
 */
final class Emitted {
    private Emitted() {
    }

    static String of(HostResponse r) {
        String out = r.stdout();
        if (out.isEmpty()) {
            return r.exitCode() == 2 ? "block" : "none";
        }
        if (out.contains("\"continue\":false")) {
            return "halt";
        }
        if (out.contains("\"permissionDecision\":\"deny\"") || out.contains("\"behavior\":\"deny\"")) {
            return "deny";
        }
        if (out.contains("\"decision\":\"block\"")) {
            return "block";
        }
        if (out.contains("\"additionalContext\":") || out.contains("\"systemMessage\":")) {
            return "context";
        }
        return "none";
    }
}
