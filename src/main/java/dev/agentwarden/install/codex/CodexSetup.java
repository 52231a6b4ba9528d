package dev.agentwarden.install.codex;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.codex.CodexHost;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.claude.ClaudeHooksFile;
import java.util.Map;

/** Codex's setup: Claude-shaped {@code hooks.json} in the project's {@code .codex/} or in {@code $CODEX_HOME}, managed requirements, and its hook review. */
public final class CodexSetup {
    private CodexSetup() {
    }

    public static final HostSetup CODEX = new HostSetup(CodexHost.CODEX,
            Map.of(Host.Scope.PROJECT, new ClaudeHooksFile("codex", ".codex/hooks.json", ".codex", "hooks.json", false, null),
                    Host.Scope.USER, new ClaudeHooksFile("codex", "$CODEX_HOME/hooks.json", ".codex", "hooks.json", true,
                            "CODEX_HOME"),
                    Host.Scope.MANAGED, new CodexRequirementsFile()),
            Host.Scope.PROJECT)
            .gatedBy(new CodexHookTrust())
            .runningHooksInAShell();
}
