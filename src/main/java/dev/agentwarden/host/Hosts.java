package dev.agentwarden.host;

import java.util.List;

/** Host ids a manifest may name. Output semantics exist for those with an adapter. */
public final class Hosts {
    private Hosts() {
    }

    /** Every host id the manifest accepts, agent-config's {@code KNOWN_PLATFORMS} plus codex. */
    public static final List<String> KNOWN = List.of(
            "claude", "cowork", "cursor", "cline", "windsurf", "gemini", "copilot", "codex", "augment");
}
