package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;

/**
 * Refuses shell commands that would make git skip the repository's hooks: {@code --no-verify} and
 * its spellings, {@code core.hooksPath} overrides, and hook managers switched off by environment.
 * {@link HookBypass} reads the command as a shell and git would.
 *
 * <p>Hand-written scanning rather than regular expressions: on JDK 17 the regex engine's first use
 * initialises the method-handle machinery, about 15 ms of a cold dispatch, on every Bash call.
 */
final class BlockNoVerify implements Concern {

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        String command = context.event().shellCommand();
        String reason = command == null ? null : HookBypass.reasonFor(command);
        return reason == null ? ConcernResult.allow() : ConcernResult.block(reason);
    }

    /** Whether running {@code command} would skip git hooks. */
    static boolean skipsHooks(String command) {
        return HookBypass.reasonFor(command) != null;
    }
}
