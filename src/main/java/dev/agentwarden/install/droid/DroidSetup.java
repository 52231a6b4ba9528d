package dev.agentwarden.install.droid;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.droid.DroidHost;
import dev.agentwarden.install.HostSetup;
import java.util.Map;

/** Factory Droid's setup: its {@code hooks.json} per scope, behind the switches that turn hooks off. */
public final class DroidSetup {
    private DroidSetup() {
    }

    public static final HostSetup DROID = new HostSetup(DroidHost.DROID,
            Map.of(Host.Scope.PROJECT, new DroidHooksFile(false), Host.Scope.USER, new DroidHooksFile(true)),
            Host.Scope.PROJECT)
            .gatedBy(new DroidHooksGate())
            .runningHooksInAShell();
}
