package dev.agentwarden.event;

/** Warden's canonical lifecycle-event vocabulary, a superset of agent-config 11.0.0's. */
public enum EventName {
    SESSION_START("session_start"),
    SESSION_END("session_end"),
    USER_PROMPT_SUBMIT("user_prompt_submit"),
    PRE_TOOL_USE("pre_tool_use"),
    POST_TOOL_USE("post_tool_use"),
    POST_TOOL_USE_FAILURE("post_tool_use_failure"),
    PERMISSION_REQUEST("permission_request"),
    NOTIFICATION("notification"),
    STOP("stop"),
    PRE_COMPACT("pre_compact"),
    AGENT_ERROR("agent_error"),
    SUBAGENT_START("subagent_start"),
    SUBAGENT_STOP("subagent_stop"),
    /** Before the session's model changes (Claude Code 2.1.332 PreModelSwitch); may refuse the switch. */
    PRE_MODEL_SWITCH("pre_model_switch"),
    /** After the session's model changed (Claude Code 2.1.332 PostModelSwitch). */
    POST_MODEL_SWITCH("post_model_switch"),
    /** A directory joined the session's workspace (Claude Code 2.1.332 DirectoryAdded, {@code /add-dir}). */
    DIRECTORY_ADDED("directory_added"),
    /** Before a request goes to the model (Gemini CLI's BeforeModel); no other canonical event is a model call. */
    PRE_MODEL_REQUEST("pre_model_request"),
    /** After the model answered, before the answer is used (Gemini CLI's AfterModel). */
    POST_MODEL_RESPONSE("post_model_response"),
    /** Before the host chooses which tools the model may call (Gemini CLI's BeforeToolSelection). */
    PRE_TOOL_SELECTION("pre_tool_selection"),
    /** A batch of tool calls has finished (Qwen Code's {@code PostToolBatch}). */
    POST_TOOL_BATCH("post_tool_batch"),
    /** An instructions file was loaded into the context (Qwen Code's {@code InstructionsLoaded}). */
    INSTRUCTIONS_LOADED("instructions_loaded"),
    /** A todo item is being created (Qwen Code's {@code TodoCreated}). */
    TODO_CREATED("todo_created"),
    /** A todo item is being marked done (Qwen Code's {@code TodoCompleted}). */
    TODO_COMPLETED("todo_completed"),
    /** The prompt after the host rewrote it (Copilot's {@code userPromptTransformed}): what the model reads. */
    USER_PROMPT_TRANSFORMED("user_prompt_transformed");

    private final String wire;

    EventName(String wire) {
        this.wire = wire;
    }

    /** The snake_case name used in manifests, ledgers and envelopes. */
    public String wire() {
        return wire;
    }

    /** The event for a snake_case name, or {@code null} when the name is not in the vocabulary. */
    /** Every canonical event's wire name, in declaration order. */
    public static java.util.List<String> wireNames() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (EventName e : values()) {
            out.add(e.wire);
        }
        return out;
    }

    public static EventName fromWire(String name) {
        if (name == null) {
            return null;
        }
        for (EventName e : values()) {
            if (e.wire.equals(name)) {
                return e;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return wire;
    }
}
