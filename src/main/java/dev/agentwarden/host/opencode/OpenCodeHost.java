package dev.agentwarden.host.opencode;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.NativeEvents;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenCode (npm {@code opencode-ai}): no command hooks, so {@code install} writes Warden's bridge
 * plugin ({@link OpenCodePlugin}) into the plugin directory the host loads, and the bridge hands each
 * bound callback to {@code warden dispatch}. The adapter and installer take a host id and config
 * directory so that a fork (Kilo Code) can be one more line once its plugin loading is verified.
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

    /** OpenCode 1.18: project plugins in {@code .opencode/plugin/}, the user's in {@code ~/.config/opencode/plugin/}. */
    public static final Host OPENCODE = host("opencode", "OpenCode", ".opencode/plugin", "opencode")
            .protecting(OwnFile.named("Warden's bridge plugin (OpenCode)", "plugin", "warden-bridge.js"));

    private static Host host(String id, String name, String projectDir, String configDir) {
        return new Host(id, name, new OpenCodeAdapter(id),
                Map.of(Host.Scope.PROJECT, new OpenCodePlugin(id, name, projectDir, false, configDir),
                        Host.Scope.USER, new OpenCodePlugin(id, name, "plugin", true, configDir)),
                Host.Scope.PROJECT, EVENTS, TOOL_EVENTS, OpenCodeAdapter.TOOLS, List.of(),
                OpenCodeAdapter.OUTPUT_CAP_CHARS, null, null);
    }
}
