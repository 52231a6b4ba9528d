package dev.agentwarden.concern;

import java.util.Map;

/**
 * The raw result of one concern run.
 *
 * @param decision what the concern said
 * @param reason   why (shown to the model or user on block/warn), may be {@code null}
 * @param context  additional context to pass to the model, may be {@code null}
 * @param exitCode the exit code of a process concern that ran to its end, else {@code null}
 * @param updatedInput the whole tool input the concern wants run instead (a rule's {@code rewrite}, a
 *                 process concern's {@code updated_input}), only with {@link Decision#ALLOW}; else {@code null}
 */
public record ConcernResult(Decision decision, String reason, String context, Integer exitCode,
                            Map<String, Object> updatedInput) {

    /** A result that rewrites nothing. */
    public ConcernResult(Decision decision, String reason, String context, Integer exitCode) {
        this(decision, reason, context, exitCode, null);
    }

    /** A result with no exit code: a built-in's, or a process concern's that did not run to its end. */
    public ConcernResult(Decision decision, String reason, String context) {
        this(decision, reason, context, null);
    }

    public static ConcernResult allow() {
        return new ConcernResult(Decision.ALLOW, null, null);
    }

    public static ConcernResult allowWithContext(String context) {
        return new ConcernResult(Decision.ALLOW, null, context);
    }

    public static ConcernResult warn(String message) {
        return new ConcernResult(Decision.WARN, message, null);
    }

    /** Let the user confirm the action before it runs (Claude {@code permissionDecision: "ask"}). */
    public static ConcernResult ask(String reason) {
        return new ConcernResult(Decision.ASK, reason, null);
    }

    public static ConcernResult block(String reason) {
        return new ConcernResult(Decision.BLOCK, reason, null);
    }

    /** Stop the whole session (Claude {@code continue:false}). */
    public static ConcernResult halt(String reason) {
        return new ConcernResult(Decision.HALT, reason, null);
    }

    /** Allow the action with {@code updatedInput} as its tool input; {@code reason} says why, may be {@code null}. */
    public static ConcernResult rewrite(Map<String, Object> updatedInput, String reason) {
        return new ConcernResult(Decision.ALLOW, reason, null, null, updatedInput);
    }

    /** Whether this result asks for the tool input to be replaced. */
    public boolean rewrites() {
        return updatedInput != null;
    }

    public static ConcernResult error(String reason) {
        return new ConcernResult(Decision.ERROR, reason, null);
    }
}
