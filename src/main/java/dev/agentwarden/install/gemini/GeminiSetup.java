package dev.agentwarden.install.gemini;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.gemini.GeminiHost;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.claude.ClaudeHooksFile;
import java.util.Map;

/** Gemini CLI's setup: Claude-shaped {@code settings.json} per scope, the system settings, and its hook trust. */
public final class GeminiSetup {
    private GeminiSetup() {
    }

    public static final HostSetup GEMINI = new HostSetup(GeminiHost.GEMINI,
            Map.of(Host.Scope.PROJECT, new ClaudeHooksFile("gemini", ".gemini/settings.json", ".gemini", "settings.json",
                            false, null),
                    Host.Scope.USER, new ClaudeHooksFile("gemini", "~/.gemini/settings.json", ".gemini", "settings.json",
                            true, null),
                    Host.Scope.MANAGED, new GeminiSystemSettings()),
            Host.Scope.PROJECT)
            .gatedBy(new GeminiHookTrust())
            .runningHooksInAShell();
}
