package dev.agentwarden.host.windsurf;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.SetupFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Windsurf (Cascade hooks; no binary on the registries, so built and tested from Windsurf's
 * documentation only): {@code {"hooks": {…}}} in the project's {@code .windsurf/hooks.json} or the
 * user's {@code ~/.codeium/windsurf/hooks.json}. Warden's entries set {@code show_output} so that a
 * block's reason on stderr is shown.
 */
public final class WindsurfHost {
    private WindsurfHost() {
    }

    /** Cascade's hook events with canonical events (post_setup_worktree has none). */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "pre_user_prompt", EventName.USER_PROMPT_SUBMIT,
            "pre_read_code", EventName.PRE_TOOL_USE,
            "pre_write_code", EventName.PRE_TOOL_USE,
            "pre_run_command", EventName.PRE_TOOL_USE,
            "pre_mcp_tool_use", EventName.PRE_TOOL_USE,
            "post_read_code", EventName.POST_TOOL_USE,
            "post_write_code", EventName.POST_TOOL_USE,
            "post_run_command", EventName.POST_TOOL_USE,
            "post_mcp_tool_use", EventName.POST_TOOL_USE,
            "post_cascade_response", EventName.STOP);

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "windsurf";

    public static final Host WINDSURF = new Host(ID, "Windsurf", new WindsurfAdapter(),
            EVENTS, Set.of(), WindsurfAdapter.TOOLS, List.of(), 0, null)
            .settingUp(SetupFileLocation.inProject(".windsurf/hooks.json"),
                    SetupFileLocation.inHome(".codeium/windsurf/hooks.json"));
}
