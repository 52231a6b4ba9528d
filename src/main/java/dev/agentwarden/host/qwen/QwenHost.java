package dev.agentwarden.host.qwen;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
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
 * Qwen Code (npm {@code @qwen-code/qwen-code}, verified on 0.24.4): Claude Code's hook format,
 * payload and output in {@code .qwen/settings.json} or {@code $QWEN_HOME/settings.json}
 * ({@code ~/.qwen/} by default), spoken by {@link ClaudeAdapter} with Qwen's own {@link #DIALECT}.
 *
 * <p>Where Qwen differs from Claude Code (read from the 0.24.4 bundle, checked by {@code QwenE2EIT}):
 * <ul>
 *   <li>Extra events: {@code InstructionsLoaded}, {@code PostToolBatch} (after every batch of tool
 *       calls; {@code decision: "block"} or {@code continue: false} stops the loop after it),
 *       {@code TodoCreated} and {@code TodoCompleted} ({@code decision: "block"} refuses the todo;
 *       Qwen itself fails these two closed when its hook system breaks).</li>
 *   <li>Tool names are snake_case: the shell is {@code run_shell_command}, subagents are started by
 *       {@code agent}, files are written by {@code write_file} and {@code edit}.</li>
 *   <li>A PreToolUse deny reaches the model as the tool's error, unprefixed (Claude Code 2.1.332
 *       prefixes {@code PreToolUse:Bash hook error:}); {@code continue: false} there is a deny too:
 *       the tool does not run, the session goes on.</li>
 *   <li>PostToolUse ignores {@code decision: "block"} (it only reports the call as blocked), so a
 *       block there is downgraded to context, which Qwen appends to the tool result. Stop and
 *       SubagentStop take no {@code additionalContext}.</li>
 *   <li>{@code additionalContext} is HTML-escaped ({@code <} becomes {@code &lt;}) before the model
 *       reads it.</li>
 *   <li>Hooks get {@code QWEN_PROJECT_DIR}, {@code CLAUDE_PROJECT_DIR} and {@code GEMINI_PROJECT_DIR},
 *       all set to the payload's {@code cwd}.</li>
 * </ul>
 */
public final class QwenHost {
    private QwenHost() {
    }

    /** Qwen Code 0.24.4's hook events that have a canonical event (UserPromptExpansion, MessageDisplay,
     * PostCompact, SessionDelete, PermissionDenied and StopFailure have none yet). */
    static final Map<String, EventName> EVENTS = NativeEvents.of(
            "SessionStart", EventName.SESSION_START,
            "SessionEnd", EventName.SESSION_END,
            "InstructionsLoaded", EventName.INSTRUCTIONS_LOADED,
            "UserPromptSubmit", EventName.USER_PROMPT_SUBMIT,
            "PreToolUse", EventName.PRE_TOOL_USE,
            "PostToolUse", EventName.POST_TOOL_USE,
            "PostToolUseFailure", EventName.POST_TOOL_USE_FAILURE,
            "PostToolBatch", EventName.POST_TOOL_BATCH,
            "PermissionRequest", EventName.PERMISSION_REQUEST,
            "Notification", EventName.NOTIFICATION,
            "Stop", EventName.STOP,
            "PreCompact", EventName.PRE_COMPACT,
            "SubagentStart", EventName.SUBAGENT_START,
            "SubagentStop", EventName.SUBAGENT_STOP,
            "TodoCreated", EventName.TODO_CREATED,
            "TodoCompleted", EventName.TODO_COMPLETED);

    static final Set<String> TOOL_EVENTS = Set.of("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest");

    /** Qwen Code's tool names by kind ({@code exec} runs JavaScript, not a shell: it is "other"). */
    public static final ToolNames TOOLS = new ToolNames(Set.of("run_shell_command"), Set.of("agent"),
            Set.of("write_file", "edit", "notebook_edit"), Set.of("read_file", "read_many_files"), "mcp__");

    /** Claude's protocol as Qwen Code 0.24.4 honours it (see the class comment). */
    public static final ClaudeAdapter.Dialect DIALECT = new ClaudeAdapter.Dialect(
            Map.of(
                    "PreToolUse", BlockChannel.PERMISSION_DENY,
                    "UserPromptSubmit", BlockChannel.DECISION_BLOCK,
                    "Stop", BlockChannel.DECISION_BLOCK,
                    "SubagentStop", BlockChannel.DECISION_BLOCK,
                    "PostToolBatch", BlockChannel.DECISION_BLOCK,
                    "TodoCreated", BlockChannel.DECISION_BLOCK,
                    "TodoCompleted", BlockChannel.DECISION_BLOCK,
                    "PermissionRequest", BlockChannel.PERMISSION_REQUEST_DENY),
            Set.of("PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "UserPromptSubmit",
                    "SessionStart", "SubagentStart", "Notification"),
            Set.of(), Set.of("PreToolUse", "PermissionRequest"), Set.of(), Set.of(),
            Set.of("PreToolUse"), Set.of("PermissionRequest"));

    /** The host's id: a constant, so {@link dev.agentwarden.host.Hosts#byId} finds it without building any record. */
    public static final String ID = "qwen";

    public static final Host QWEN = new Host(ID, "Qwen Code", new ClaudeAdapter("qwen", DIALECT, TOOLS),
            EVENTS, TOOL_EVENTS, TOOLS, List.of("QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR"),
            ClaudeAdapter.OUTPUT_CAP_CHARS, null)
            .protecting(OwnFile.named("Qwen Code's folder trust", ".qwen", "trustedFolders.json"))
            .settingUp(SetupFileLocation.inProject(".qwen/settings.json"),
                    SetupFileLocation.inHome(".qwen/settings.json").unless("QWEN_HOME", "settings.json"));
}
