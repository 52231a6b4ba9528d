package dev.agentwarden.install.copilot;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.copilot.CopilotHost;
import dev.agentwarden.install.HostSetup;
import java.util.Map;

/** Copilot CLI's setup: its hook files per scope, the policy directory's file, and its folder trust. */
public final class CopilotSetup {
    private CopilotSetup() {
    }

    public static final HostSetup COPILOT = new HostSetup(CopilotHost.COPILOT,
            Map.of(Host.Scope.PROJECT, new CopilotHooksFile(false), Host.Scope.USER, new CopilotHooksFile(true),
                    Host.Scope.MANAGED, CopilotHooksFile.policy()),
            Host.Scope.PROJECT)
            .gatedBy(new CopilotFolderTrust());
}
