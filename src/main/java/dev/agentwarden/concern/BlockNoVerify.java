package dev.agentwarden.concern;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Refuses shell commands that skip git hooks: a {@code git} invocation with {@code --no-verify},
 * or {@code git commit} with a short-option cluster containing {@code n} ({@code -n}, {@code -an}).
 *
 * <p>A hand-written scan rather than a regular expression: on JDK 17 the regex engine's first use
 * initialises the method-handle machinery, about 15 ms of a cold dispatch, on every Bash call.
 */
final class BlockNoVerify implements Concern {

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        String command = commandOf(context.event().toolInput());
        if (command != null && skipsHooks(command)) {
            return ConcernResult.block("git hooks must not be skipped: remove --no-verify / -n and fix what the hook reports");
        }
        return ConcernResult.allow();
    }

    /** Whether any simple command (split at {@code ; & | newline}) is a git call that skips hooks. */
    static boolean skipsHooks(String command) {
        int start = 0;
        for (int i = 0; i <= command.length(); i++) {
            char c = i < command.length() ? command.charAt(i) : ';';
            if (c == ';' || c == '&' || c == '|' || c == '\n') {
                if (segmentSkipsHooks(words(command, start, i))) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static boolean segmentSkipsHooks(List<String> words) {
        boolean afterGit = false;
        boolean commit = false;
        for (String w : words) {
            if (!afterGit) {
                afterGit = w.equals("git") || w.endsWith("/git");
                continue;
            }
            if (w.equals("--no-verify") || w.startsWith("--no-verify=")) {
                return true;
            }
            if (w.equals("commit")) {
                commit = true;
            } else if (commit && isShortClusterWithN(w)) {
                return true;
            }
        }
        return false;
    }

    /** {@code -[a-zA-Z]*n[a-zA-Z]*}: one dash, then letters only, one of them {@code n}. */
    private static boolean isShortClusterWithN(String w) {
        if (w.length() < 2 || w.charAt(0) != '-' || w.charAt(1) == '-') {
            return false;
        }
        boolean n = false;
        for (int i = 1; i < w.length(); i++) {
            char c = w.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                return false;
            }
            n |= c == 'n';
        }
        return n;
    }

    private static List<String> words(String s, int from, int to) {
        List<String> out = new ArrayList<>();
        int i = from;
        while (i < to) {
            while (i < to && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int begin = i;
            while (i < to && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i > begin) {
                out.add(s.substring(begin, i));
            }
        }
        return out;
    }

    /** The shell command of a tool input ({@code {"command": …}}), or {@code null}. */
    static String commandOf(Object toolInput) {
        if (toolInput instanceof Map<?, ?> map && map.get("command") instanceof String s) {
            return s;
        }
        return null;
    }
}
