package dev.agentwarden.host.droid;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.LauncherContract;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.ToolNames;
import dev.agentwarden.host.claude.ClaudeAdapter.BlockChannel;
import dev.agentwarden.host.claude.ClaudeAdapter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Factory Droid (npm {@code @factory/cli}; verified on {@code @factory/cli-linux-x64} 0.225.2):
 * Claude Code's hook payloads and output, with the events keyed at the top of
 * {@code .factory/hooks.json} (project) or {@code ~/.factory/hooks.json} (user), spoken by
 * {@link ClaudeAdapter} with Droid's own {@link #DIALECT}.
 *
 * <p>Where Droid differs from Claude Code (measured on the 0.225.2 binary, checked by {@code DroidE2EIT}):
 * <ul>
 *   <li>A {@code {"hooks": …}} wrapper in {@code hooks.json} is ignored; the events are the file's
 *       own members. Without a {@code hooks.json}, Droid reads {@code hooks} from the same folder's
 *       {@code settings.json}, so writing {@code hooks.json} switches those off ({@code DroidHooksGate}
 *       says so).</li>
 *   <li>A project's or user's {@code "hooksDisabled": true} in {@code hooks.json} turns off every hook,
 *       Warden's included, unless the organisation file sets {@code allowManagedHooksOnly}, which in
 *       turn drops every project and user hook ({@code DroidHooksGate}).</li>
 *   <li>The shell tool is {@code Execute{command, summary, riskLevel, riskLevelReason}}; subagents
 *       are started by {@code Task}; files are written by {@code Edit}, {@code MultiEdit},
 *       {@code Create} and {@code ApplyPatch}. Payloads carry no {@code tool_use_id}, and
 *       {@code tool_response} is a string.</li>
 *   <li>A PreToolUse deny reaches the model as the call's error result ({@code Error: <reason>});
 *       {@code continue: false} ends the session before the tool runs; {@code permissionDecision:
 *       "ask"} is ignored in {@code droid exec} (the tool runs), so an ask is refused as a block;
 *       PreToolUse's {@code additionalContext} is dropped.</li>
 *   <li>A Stop block loops without limit (the reason becomes the next user turn, again and again),
 *       so Warden never blocks Stop or SubagentStop: a block there is answered as a note
 *       ({@code systemMessage}) and the session ends as the agent chose.</li>
 *   <li>SessionStart's and PostToolUse's {@code additionalContext} reach the model; UserPromptSubmit
 *       does not fire in {@code droid exec}, so nothing is claimed for it. SessionStart ignores
 *       {@code continue: false}: a start-time halt does not stop the session (a known gap).</li>
 *   <li>Exit 1 is a warning and the tool runs, exit 2 a deny, exit 3 ends the session: a non-zero
 *       dispatch exit never passes through ({@link LauncherContract.NonZeroExit#WARNING}).</li>
 *   <li>Hooks get {@code FACTORY_PROJECT_DIR}, {@code DROID_PROJECT_DIR} and {@code CLAUDE_PROJECT_DIR},
 *       and every top-level scalar field of the payload as a variable of the same name
 *       ({@code session_id}, {@code tool_name}, …), which Warden does not read.</li>
 * </ul>
 */
public final class DroidHost {
    private DroidHost() {
    }

    /** Droid 0.225.2's hook events (it has no SubagentStart and no PermissionRequest). */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "SessionStart", EventName.SESSION_START,
            "SessionEnd", EventName.SESSION_END,
            "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PostToolUse", EventName.POST_TOOL_USE,
            "Notification", EventName.NOTIFICATION,
            "Stop", EventName.STOP,
            "SubagentStop", EventName.SUBAGENT_STOP,
            "PreCompact", EventName.PRE_COMPACT);

    static final Set<String> TOOL_EVENTS = Set.of("PreToolUse", "PostToolUse");

    /** Droid's tool names by kind. */
    public static final ToolNames TOOLS = new ToolNames(Set.of("Execute"), Set.of("Task"),
            Set.of("Edit", "MultiEdit", "Create", "ApplyPatch"), Set.of("Read"), "mcp__");

    /** Claude's protocol as Droid 0.225.2 honours it (see the class comment). */
    public static final ClaudeAdapter.Dialect DIALECT = new ClaudeAdapter.Dialect(
            Map.of("PreToolUse", BlockChannel.PERMISSION_DENY),
            Set.of("SessionStart", "PostToolUse"),
            Set.of(), Set.of("PreToolUse"), Set.of(), Set.of(), Set.of(), Set.of());

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "droid";

    /** The other name {@code --host} takes for Droid: its maker's. */
    public static final String ALIAS = "factory";

    public static final Host DROID = new Host(ID, "Factory Droid", new ClaudeAdapter(ID, DIALECT, TOOLS),
            EVENTS, TOOL_EVENTS, TOOLS,
            List.of("FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
            ClaudeAdapter.OUTPUT_CAP_CHARS, null)
            .with(new DroidPayloadTemplate())
            .protecting(OwnFile.named("Factory Droid's hook settings", ".factory", "hooks.json", "settings.json",
                            "settings.local.json"),
                    OwnFile.named("Factory Droid's legacy hook settings", "hooks", "hooks.json").under(".factory"))
            .settingUp(SetupFileLocation.inProject(".factory/hooks.json"), SetupFileLocation.inHome(".factory/hooks.json"))
            .launching(LauncherContract.PLAIN.exitingNonZero(LauncherContract.NonZeroExit.WARNING));
}
