package dev.agentwarden.host;

import java.util.Locale;

/**
 * How a host is pointed at its model endpoint and how it carries a custom agent's text, by the
 * client id {@code warden launch} is given ({@code copilot-cli}, {@code claude-code}, …): the facts
 * {@code launch --observe-prompt} needs to put its loopback proxy in front of the host.
 */
public final class ModelEndpoints {
    private ModelEndpoints() {
    }

    /** The variable that points the host at its model endpoint, or {@code null} when none is known. */
    public static String baseUrlVariable(String clientId) {
        String c = clientId == null ? "" : clientId.toLowerCase(Locale.ROOT);
        if (c.startsWith("copilot")) {
            return "COPILOT_PROVIDER_BASE_URL";
        }
        if (c.startsWith("claude")) {
            return "ANTHROPIC_BASE_URL";
        }
        if (c.startsWith("gemini")) {
            return "GOOGLE_GEMINI_BASE_URL";
        }
        return null;
    }

    /** Whether the host turns CRLF into LF in the agent body it sends (Copilot CLI 1.0.102, measured). */
    public static boolean agentBodyInLf(String clientId) {
        return clientId != null && clientId.toLowerCase(Locale.ROOT).startsWith("copilot");
    }
}
