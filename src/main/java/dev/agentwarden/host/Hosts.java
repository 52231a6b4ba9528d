package dev.agentwarden.host;

import dev.agentwarden.text.NearMiss;
import java.util.List;

/** Host ids a manifest may name. Output semantics exist for those with an adapter. */
public final class Hosts {
    private Hosts() {
    }

    /** Every host id the manifest accepts, agent-config's {@code KNOWN_PLATFORMS} plus codex. */
    public static final List<String> KNOWN = List.of(
            "claude", "cowork", "cursor", "cline", "windsurf", "gemini", "copilot", "codex", "augment");

    /** {@code unknown host 'claud'; did you mean `claude`? Known hosts: …}, or {@code null} for a known host. */
    public static String unknown(String host) {
        if (KNOWN.contains(host)) {
            return null;
        }
        String hint = NearMiss.hint(host, KNOWN);
        return "unknown host '" + host + "'" + (hint.isEmpty() ? "." : hint) + " Known hosts: " + String.join(", ", KNOWN) + ".";
    }
}
