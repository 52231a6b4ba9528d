package dev.agentwarden.host.opencode;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenCode (npm {@code opencode-ai}): no command hooks, so {@code install} writes Warden's bridge
 * plugin ({@code OpenCodePlugin}) into the plugin directory the host loads, and the bridge hands each
 * bound callback to {@code warden dispatch}. A fork that loads OpenCode's plugins (Kilo Code) is
 * {@link #pluginHost} of its own {@link PluginHostFacts}: the same adapter, bridge and events.
 */
public final class OpenCodeHost {
    private OpenCodeHost() {
    }

    /**
     * The callbacks the bridge forwards, by the name it gives them ({@link OpenCodeAdapter}), with
     * their canonical events. A subagent is a child session: its creation and its idle are the
     * subagent's start and stop.
     */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "event.session.created", EventName.SESSION_START,
            "chat.message", EventName.USER_PROMPT_SUBMIT,
            "tool.execute.before", EventName.PRE_TOOL_USE,
            "tool.execute.after", EventName.POST_TOOL_USE,
            "event.subagent.created", EventName.SUBAGENT_START,
            "event.subagent.idle", EventName.SUBAGENT_STOP,
            "event.session.idle", EventName.STOP,
            "event.session.error", EventName.AGENT_ERROR,
            "event.session.compacted", EventName.PRE_COMPACT,
            "event.session.deleted", EventName.SESSION_END);

    private static final Set<String> TOOL_EVENTS = Set.of("tool.execute.before", "tool.execute.after");

    /** The file name of Warden's bridge plugin in a {@code plugin/} directory. */
    public static final String BRIDGE_FILE = "warden-bridge.js";

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "opencode";

    /** OpenCode 1.18: project plugins in {@code .opencode/plugin/}, the user's in {@code ~/.config/opencode/plugin/}. */
    public static final PluginHostFacts OPENCODE_FACTS = new PluginHostFacts(ID, "OpenCode", ".opencode/plugin",
            "opencode", OpenCodeAdapter.TOOLS);

    public static final Host OPENCODE = pluginHost(OPENCODE_FACTS);

    /**
     * The host record of a host that loads OpenCode plugins: OpenCode's adapter, bridge plugin,
     * native events and output cap, under the host's own id, plugin directories and tool names; the
     * bridge in any {@code plugin/} directory is the host's own file ({@code protect-warden}).
     */
    public static Host pluginHost(PluginHostFacts facts) {
        String id = facts.id();
        String userPlugin = facts.configDirName() + "/plugin/" + BRIDGE_FILE;
        return new Host(id, facts.displayName(), new OpenCodeAdapter(id, facts.tools()),
                EVENTS, TOOL_EVENTS, facts.tools(), List.of(), OpenCodeAdapter.OUTPUT_CAP_CHARS, null)
                .protecting(OwnFile.named("Warden's bridge plugin (" + facts.displayName() + ")", "plugin",
                        BRIDGE_FILE))
                .settingUp(SetupFileLocation.inProject(facts.projectPluginDir() + "/" + BRIDGE_FILE),
                        SetupFileLocation.inHome(".config/" + userPlugin).unless("XDG_CONFIG_HOME",
                                SetupFileLocation.VariableRule.ABSOLUTE, userPlugin));
    }
}
