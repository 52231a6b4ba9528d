package dev.agentwarden.install.cline;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.cline.ClineHost;
import dev.agentwarden.install.HostSetup;
import java.util.Map;

/** Cline's setup: one hook file per event, in the project's or the user's hooks directory. */
public final class ClineSetup {
    private ClineSetup() {
    }

    public static final HostSetup CLINE = new HostSetup(ClineHost.CLINE,
            Map.of(Host.Scope.PROJECT, new ClineHookFiles(false), Host.Scope.USER, new ClineHookFiles(true)),
            Host.Scope.PROJECT);
}
