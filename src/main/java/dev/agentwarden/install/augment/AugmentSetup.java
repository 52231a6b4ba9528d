package dev.agentwarden.install.augment;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.augment.AugmentHost;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.claude.ClaudeHooksFile;
import java.util.Map;

/** Augment's setup: Claude-shaped {@code settings.json} per scope (the project's through a shell when the command needs one). */
public final class AugmentSetup {
    private AugmentSetup() {
    }

    public static final HostSetup AUGMENT = new HostSetup(AugmentHost.AUGMENT,
            Map.of(Host.Scope.PROJECT, new ClaudeHooksFile("augment", ".augment/settings.json", ".augment",
                            "settings.json", false, null).shellWhenTheCommandNeedsOne(),
                    Host.Scope.USER, new ClaudeHooksFile("augment", "~/.augment/settings.json", ".augment",
                            "settings.json", true, null)),
            Host.Scope.PROJECT);
}
