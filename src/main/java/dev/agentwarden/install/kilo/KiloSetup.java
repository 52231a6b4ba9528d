package dev.agentwarden.install.kilo;

import dev.agentwarden.host.kilo.KiloHost;
import dev.agentwarden.install.HostSetup;
import dev.agentwarden.install.opencode.OpenCodeSetup;

/** Kilo Code's setup: OpenCode's bridge plugin in Kilo's directories, behind Kilo's plugin gate. */
public final class KiloSetup {
    private KiloSetup() {
    }

    public static final HostSetup KILO = OpenCodeSetup.pluginHost(KiloHost.KILO, KiloHost.FACTS)
            .gatedBy(new KiloPluginGate());
}
