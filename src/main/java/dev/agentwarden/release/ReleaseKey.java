package dev.agentwarden.release;

/** The key a trusted release manifest is looked up by, as docs/integrity-gate.md specifies. */
public record ReleaseKey(String agentVersion, String clientId, String clientVersion) {
}
