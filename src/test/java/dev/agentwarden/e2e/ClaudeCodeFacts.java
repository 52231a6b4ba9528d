package dev.agentwarden.e2e;

/**
 * What differs, for the scenarios' assertions, between the Claude Code versions the suite runs:
 * the pinned 2.1.197 and 2.1.332 (npm latest when measured). Each fact is read from a session of
 * both with this harness; a version between the two is treated as the older one, which is right
 * for 2.1.197 and may be wrong for versions nobody measured. Stop and SubagentStop carry
 * {@code background_tasks[]} on both.
 *
 * @param version the host's {@code --version}
 * @param current whether the host behaves as 2.1.332 does (2.1.332 or later)
 */
record ClaudeCodeFacts(String version, boolean current) {
    /** The first version measured with the newer behaviour. */
    static final String CURRENT_SINCE = "2.1.332";

    static ClaudeCodeFacts of(String version) {
        return new ClaudeCodeFacts(version, compare(version, CURRENT_SINCE) >= 0);
    }

    /**
     * The tool_result text the model reads for a PreToolUse deny of {@code tool} with {@code reason}:
     * the reason itself on 2.1.197; {@code "PreToolUse:<tool> hook error: <reason>"} on 2.1.332.
     */
    String deniedToolResult(String tool, String reason) {
        return current ? "PreToolUse:" + tool + " hook error: " + reason : reason;
    }

    /**
     * Subagents run in the background by default: the Agent tool returns at once
     * ({@code isAsync: true}), and when the subagent ends after the parent's turn the host sends a
     * {@code <task-notification>} prompt, which fires UserPromptSubmit and takes one more model turn.
     */
    boolean asyncSubagents() {
        return current;
    }

    /**
     * PreToolUse {@code additionalContext} arrives as a separate {@code role: "system"} message after
     * the tool_result's user message, not as a text block beside the tool_result.
     */
    boolean toolContextAsSystemMessage() {
        return current;
    }

    /**
     * A PreToolUse answer holding both {@code permissionDecision: "deny"} and {@code continue: false}
     * ends the session at the deny (2.1.332); 2.1.197 drops the {@code continue: false} and goes on.
     */
    boolean haltBesideDenyEndsTheSession() {
        return current;
    }

    /**
     * MCP tools are deferred: the first request offers {@code ToolSearch} and names the MCP tools in a
     * list to load with {@code select:<name>}, without their descriptions or schemas (a call of a
     * deferred tool by name still goes through PreToolUse and runs). 2.1.197 offers every MCP tool
     * whole in {@code tools}.
     */
    boolean deferredMcpTools() {
        return current;
    }

    /** {@code a.b.c} compared numerically; a part that is not a number counts as 0. */
    static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int d = Integer.compare(part(x, i), part(y, i));
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }

    private static int part(String[] parts, int i) {
        try {
            return i < parts.length ? Integer.parseInt(parts[i]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
