package dev.agentwarden.install.claude;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.claude.ClaudeHosts;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.Installer;
import java.util.Map;

/** Claude Code's setup (project, local, user and managed settings, and the {@code warden serve} block) and Cowork's. */
public final class ClaudeSetups {
    private ClaudeSetups() {
    }

    public static final HostSetup CLAUDE = new HostSetup(ClaudeHosts.CLAUDE,
            Map.of(Host.Scope.PROJECT, new ClaudeHooksFile(ClaudeHosts.CLAUDE_ID, ".claude/settings.json", ".claude",
                            "settings.json", false, null),
                    Host.Scope.LOCAL, new ClaudeHooksFile(ClaudeHosts.CLAUDE_ID, ".claude/settings.local.json", ".claude",
                            "settings.local.json", false, null),
                    Host.Scope.USER, new ClaudeHooksFile(ClaudeHosts.CLAUDE_ID, "~/.claude/settings.json", ".claude",
                            "settings.json", true, null),
                    Host.Scope.MANAGED, new ClaudeManagedFile()),
            Host.Scope.PROJECT)
            .serving(new ClaudeServeHooks(ClaudeHosts.CLAUDE_ID, ClaudeHosts.SERVE_EVENTS))
            .runningHooksInAShell();

    /** Cowork honours only the user's {@code ~/.claude/settings.json} (it runs the CLI with {@code --setting-sources user}). */
    public static final HostSetup COWORK = new HostSetup(ClaudeHosts.COWORK,
            Map.<Host.Scope, Installer>of(Host.Scope.USER, new ClaudeHooksFile(ClaudeHosts.COWORK_ID,
                    "~/.claude/settings.json", ".claude", "settings.json", true, null)),
            Host.Scope.USER)
            .runningHooksInAShell();
}
