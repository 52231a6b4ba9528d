package dev.agentwarden.host;

import dev.agentwarden.host.claude.ClaudePayloadTemplate;
import dev.agentwarden.host.codex.CodexPayloadTemplate;
import dev.agentwarden.host.copilot.CopilotPayloadTemplate;

/** The {@link PayloadTemplate} of each host whose payloads Warden has captured. */
public final class PayloadTemplates {
    private PayloadTemplates() {
    }

    /** The template for a host id, or {@code null} when none is known (a case then gives the whole payload). */
    public static PayloadTemplate forHost(String host) {
        switch (host) {
            case "claude":
            case "cowork":
                return new ClaudePayloadTemplate();
            case "codex":
                return new CodexPayloadTemplate();
            case "copilot":
                return new CopilotPayloadTemplate();
            default:
                return null;
        }
    }
}
