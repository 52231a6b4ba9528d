package dev.agentwarden.install.opencode;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.host.opencode.PluginHostFacts;
import dev.agentwarden.install.HostSetup;
import java.util.Map;

/** OpenCode's setup, and that of every host that loads OpenCode plugins: Warden's bridge plugin per scope. */
public final class OpenCodeSetup {
    private OpenCodeSetup() {
    }

    public static final HostSetup OPENCODE = pluginHost(OpenCodeHost.OPENCODE, OpenCodeHost.OPENCODE_FACTS);

    /** The setup of {@code host}, a host that loads OpenCode plugins from the directories {@code facts} name. */
    public static HostSetup pluginHost(Host host, PluginHostFacts facts) {
        String id = facts.id();
        return new HostSetup(host,
                Map.of(Host.Scope.PROJECT, new OpenCodePlugin(id, facts.displayName(), facts.projectPluginDir(), false,
                                facts.configDirName()),
                        Host.Scope.USER, new OpenCodePlugin(id, facts.displayName(), "plugin", true, facts.configDirName())),
                Host.Scope.PROJECT);
    }
}
