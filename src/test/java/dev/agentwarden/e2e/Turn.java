package dev.agentwarden.e2e;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scripted model turn: what the model answers at one step of a conversation. Each API renders a
 * turn in its own wire form ({@link ModelApi#stream}).
 */
sealed interface Turn permits Turn.Text, Turn.ToolCall, Turn.Spawn, Turn.AfterStart {

    /** The kinds of turn, for exhaustive switches. */
    enum Kind { TEXT, TOOL_CALL, SPAWN, AFTER_START }

    Kind kind();

    /** A final answer in plain text; it ends the model's turn. */
    static Text text(String text) {
        return new Text(text);
    }

    /**
     * A call of a host tool. {@code id} names the call: the host receives it as the tool-use id
     * ({@code toolu_<id>} or {@code call_<id>}), so a test finds the call's result by name.
     */
    static ToolCall tool(String id, String tool, Map<String, Object> input) {
        return new ToolCall(id, tool, input);
    }

    /** A subagent spawn whose subagent follows {@code subagentTurns}; see {@link Spawn}. */
    static Spawn spawn(String id, String prompt, String agentType, Turn... subagentTurns) {
        return new Spawn(id, prompt, agentType, false, List.of(subagentTurns));
    }

    /**
     * {@code turn}, held back until the conversation named {@code conversation} (a spawn's id) has
     * sent its first request; see {@link AfterStart}.
     */
    static AfterStart afterStartOf(String conversation, Turn turn) {
        return new AfterStart(conversation, turn);
    }

    /** A final answer. */
    record Text(String text) implements Turn {
        @Override
        public Kind kind() {
            return Kind.TEXT;
        }
    }

    /** A tool call with its input object. */
    record ToolCall(String id, String tool, Map<String, Object> input) implements Turn {
        public ToolCall {
            input = new LinkedHashMap<>(input);
        }

        @Override
        public Kind kind() {
            return Kind.TOOL_CALL;
        }
    }

    /**
     * A subagent spawn. The subagent's own conversation is recognised by {@code prompt} (which must
     * not occur in the session's user prompt) and follows {@code subagent}, step by step.
     * {@code background} asks the host to run the subagent without waiting for it.
     */
    record Spawn(String id, String prompt, String agentType, boolean background, List<Turn> subagent)
            implements Turn {
        public Spawn {
            subagent = List.copyOf(subagent);
        }

        /** The same spawn, run in the background. */
        Spawn inBackground() {
            return new Spawn(id, prompt, agentType, true, subagent);
        }

        @Override
        public Kind kind() {
            return Kind.SPAWN;
        }
    }

    /**
     * A turn the server plays only once another conversation has started. Claude Code makes a
     * subagent's first model request after that subagent's SubagentStart hooks have finished, so a
     * parent turn held until then comes strictly after them; without the hold, a background
     * subagent's SubagentStart hooks race the parent's next turn. It is server behaviour only: the
     * APIs render the inner turn.
     */
    record AfterStart(String conversation, Turn turn) implements Turn {
        @Override
        public Kind kind() {
            return Kind.AFTER_START;
        }
    }
}
