package dev.agentwarden.host.kilo;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.host.opencode.OpenCodeAdapter;
import dev.agentwarden.host.opencode.OpenCodeHost;
import dev.agentwarden.host.opencode.PluginHostFacts;
import java.util.Set;

/**
 * Kilo Code (npm {@code @kilocode/cli}), OpenCode's fork: it loads OpenCode-style plugins (a module
 * whose exported functions return hooks) from {@code plugin/} of every config directory it reads,
 * so Warden's bridge plugin works there unchanged and only the directories differ (hosts.md, "Kilo
 * Code 7.7.7, measured"). Project plugins sit in {@code .kilo/plugin/} (or {@code .kilocode/},
 * any directory from the working directory up to the worktree root), the user's in
 * {@code $XDG_CONFIG_HOME/kilo/plugin/}; Kilo does not read {@code .opencode/}, so the OpenCode
 * bridge and this one never both run in one Kilo session.
 */
public final class KiloHost {
    private KiloHost() {
    }

    /**
     * Kilo's built-in tools by kind: OpenCode's ({@code bash}, {@code task}, {@code edit},
     * {@code write}, {@code read}, …) and {@code background_process}, whose {@code start} action runs
     * {@code args.command} in a shell that outlives the call (the tool list Kilo 7.7.7 sends the model).
     */
    static final ToolNames TOOLS = new ToolNames(Set.of("bash", "background_process"),
            OpenCodeAdapter.TOOLS.subagentDispatch(), OpenCodeAdapter.TOOLS.fileEdit(), OpenCodeAdapter.TOOLS.fileRead(),
            OpenCodeAdapter.TOOLS.mcpPrefix());

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "kilo";

    /** Kilo Code 7.7: {@code .kilo/plugin/} and {@code ~/.config/kilo/plugin/}, behind the plugin gate {@code KiloPluginGate}. */
    public static final PluginHostFacts FACTS = new PluginHostFacts(ID, "Kilo Code", ".kilo/plugin", "kilo", TOOLS);

    public static final Host KILO = OpenCodeHost.pluginHost(FACTS);
}
