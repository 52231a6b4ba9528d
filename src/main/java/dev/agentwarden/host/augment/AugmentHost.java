package dev.agentwarden.host.augment;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import dev.agentwarden.host.claude.ClaudeAdapter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Augment's CLI: Claude-shaped {@code hooks} in the project's {@code .augment/settings.json} or the
 * user's {@code ~/.augment/settings.json}. Augment validates that object strictly: an event it does
 * not know makes the whole file's hooks invalid, so only its seven events are ever written; a tool
 * matcher is a JavaScript regex (Claude's {@code "*"} is not one), so Warden writes none; and a
 * handler's {@code timeout} is in milliseconds (see {@code ClaudeSettings#timeoutFor}). Auggie spawns a
 * command without a shell, unless it holds a shell operator: then {@code bash -c} runs it, so the
 * portable command of a project install runs as in the other hosts.
 */
public final class AugmentHost {
    private AugmentHost() {
    }

    /** The seven events auggie 0.36.0 accepts. */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "SessionStart", EventName.SESSION_START,
            "SessionEnd", EventName.SESSION_END,
            "PromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PostToolUse", EventName.POST_TOOL_USE,
            "Notification", EventName.NOTIFICATION,
            "Stop", EventName.STOP);

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "augment";

    public static final Host AUGMENT = new Host(ID, "Augment", new AugmentAdapter(),
            EVENTS, Set.of(), AugmentAdapter.TOOLS, List.of("AUGMENT_PROJECT_DIR"),
            ClaudeAdapter.OUTPUT_CAP_CHARS, null)
            .protecting(OwnFile.matching("Augment's hook settings", ".augment", "settings", ".json"))
            .settingUp(SetupFileLocation.inProject(".augment/settings.json"), SetupFileLocation.inHome(".augment/settings.json"));
}
