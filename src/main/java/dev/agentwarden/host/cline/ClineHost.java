package dev.agentwarden.host.cline;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.LauncherContract;
import dev.agentwarden.host.NativeEvents;
import dev.agentwarden.host.OwnFile;
import dev.agentwarden.host.SetupFileLocation;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Cline (CLI 3.0.x): executable hook files named after the event, in the project's or the user's hooks directory. */
public final class ClineHost {
    private ClineHost() {
    }

    /**
     * Cline 3.0.65's hook events with their canonical events, agent-config's where it names them
     * (TaskStart and TaskResume start a session, TaskComplete ends it, TaskCancel is a stop), and the
     * two a subagent's own hook files stand for ({@link ClineAdapter#refinedNativeEvent}):
     * {@code SubagentStart} (its TaskStart) and {@code SubagentStop} (its TaskComplete, TaskError or
     * SessionShutdown), which Cline runs no file of their own for ({@code ClineHookFiles.filesFor}).
     */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "TaskStart", EventName.SESSION_START,
            "TaskResume", EventName.SESSION_START,
            "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PostToolUse", EventName.POST_TOOL_USE,
            "TaskComplete", EventName.SESSION_END,
            "TaskCancel", EventName.STOP,
            "TaskError", EventName.AGENT_ERROR,
            "PreCompact", EventName.PRE_COMPACT,
            "SessionShutdown", EventName.SESSION_END,
            ClineAdapter.SUBAGENT_START, EventName.SUBAGENT_START,
            ClineAdapter.SUBAGENT_STOP, EventName.SUBAGENT_STOP);

    /** Cline's cancel of the task when Warden cannot run under {@code WARDEN_FAIL_MODE=closed} (no single quote). */
    public static final String CANNOT_RUN = "{\"cancel\":true,\"errorMessage\":\"[warden] Warden cannot run (WARDEN_FAIL_MODE=closed)\"}";

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "cline";

    /**
     * Cline: no project-directory variable (hooks run in the task's working directory). It reads no
     * exit code: under the closed fail mode the events it waits for get their cancel on stdout.
     */
    public static final Host CLINE = new Host(ID, "Cline", new ClineAdapter(),
            EVENTS, Set.of("PreToolUse", "PostToolUse"), ClineAdapter.TOOLS, List.of(),
            ClineAdapter.OUTPUT_CAP_CHARS, null)
            .protecting(OwnFile.matching("a Cline hook file", "hooks", "", "").under(".clinerules", ".cline"))
            .settingUp(SetupFileLocation.inProject(".clinerules/hooks"), SetupFileLocation.inHome(".cline/hooks")
                    .unless("CLINE_DIR", SetupFileLocation.VariableRule.NOT_BLANK_TRIMMED, "hooks"))
            .launching(LauncherContract.PLAIN.refusing(CANNOT_RUN + "\n",
                    ClineAdapter.WAITED_FOR.toArray(new String[0])));
}
