package dev.agentwarden.concern;

import java.util.Map;
import java.util.regex.Pattern;

/** Refuses shell commands that skip git hooks ({@code git commit --no-verify}, {@code git commit -n}). */
final class BlockNoVerify implements Concern {
    private static final Pattern NO_VERIFY = Pattern.compile(
            "\\bgit\\b[^;&|\\n]*\\s(?:--no-verify\\b|commit\\b[^;&|\\n]*\\s-[a-zA-Z]*n[a-zA-Z]*\\b)");

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        String command = commandOf(context.event().toolInput());
        if (command != null && NO_VERIFY.matcher(command).find()) {
            return ConcernResult.block("git hooks must not be skipped: remove --no-verify / -n and fix what the hook reports");
        }
        return ConcernResult.allow();
    }

    /** The shell command of a tool input ({@code {"command": …}}), or {@code null}. */
    static String commandOf(Object toolInput) {
        if (toolInput instanceof Map<?, ?> map && map.get("command") instanceof String s) {
            return s;
        }
        return null;
    }
}
