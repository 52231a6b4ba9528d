package dev.agentwarden.host;

/**
 * The program a command hook runs, as {@code install} hands it to an installer: {@code bin/warden}
 * alone, or the compiled hook with {@code bin/warden} behind it ({@link #fast}).
 *
 * <p>The fast form is written only for hosts that run a hook's command through a POSIX shell
 * (Claude Code and Cowork {@code sh -c}, Gemini CLI and Qwen Code {@code bash -c}, Codex
 * {@code $SHELL -lc}): the shell the host starts anyway tests that the compiled hook is
 * executable and execs it, else execs {@code bin/warden} with the same arguments,
 * <pre>[ -x '&lt;hook&gt;' ] &amp;&amp; exec '&lt;hook&gt;' dispatch --host H --native-event E; exec '&lt;bin/warden&gt;' dispatch --host H --native-event E</pre>
 * so a deleted cache costs one {@code stat} and the bash launcher, never the policy. A stale hook
 * (its source changed) hands the event to {@code bin/warden} itself.
 */
public final class HookCommand {
    /** Separates the compiled hook from {@code bin/warden} in a fast launcher: no path holds a NUL. */
    private static final char PAIR = '\0';
    private static final String TEST = "[ -x ";
    private static final String THEN = " ] && exec ";
    private static final String ELSE = "; exec ";
    private static final String LAUNCHER_SUFFIX = "/bin/warden";

    private HookCommand() {
    }

    /** The launcher string for "the compiled hook at {@code hook} when it is there, else {@code launcher}". */
    public static String fast(String hook, String launcher) {
        return hook + PAIR + launcher;
    }

    /** The command line for one event; {@code launcher} is a path or a {@link #fast} pair. */
    public static String command(String launcher, String tail) {
        int at = launcher.indexOf(PAIR);
        if (at < 0) {
            return quote(launcher) + tail;
        }
        String hook = quote(launcher.substring(0, at));
        return TEST + hook + THEN + hook + tail + ELSE + quote(launcher.substring(at + 1)) + tail;
    }

    /**
     * The {@code bin/warden} a fast command falls back to, and the compiled hook it runs first:
     * {@code [launcher, hook]}; {@code null} when {@code command} is not exactly the fast form with
     * {@code tail}, or either path is not absolute and named {@code .../bin/warden}.
     */
    public static String[] fastParts(String command, String tail) {
        if (!command.startsWith(TEST) || !command.endsWith(tail)) {
            return null;
        }
        int then = command.indexOf(THEN);
        int otherwise = command.lastIndexOf(ELSE);
        if (then < 0 || otherwise < then) {
            return null;
        }
        String hook = unquote(command.substring(TEST.length(), then));
        String launcher = unquote(command.substring(otherwise + ELSE.length(), command.length() - tail.length()));
        if (hook == null || launcher == null || !plausible(hook) || !plausible(launcher)
                || !command(fast(hook, launcher), tail).equals(command)) {
            return null;
        }
        return new String[] {launcher, hook};
    }

    private static boolean plausible(String path) {
        return path.startsWith("/") && path.endsWith(LAUNCHER_SUFFIX) && path.indexOf(PAIR) < 0;
    }

    /** A path as one shell word: bare when it is plain, else single-quoted. */
    public static String quote(String path) {
        if (path.isEmpty()) {
            return "''";
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (!(c < 128 && Character.isLetterOrDigit(c)) && "_./:@%+=-".indexOf(c) < 0) {
                return "'" + path.replace("'", "'\\''") + "'";
            }
        }
        return path;
    }

    /** The path one word written by {@link #quote} stands for, or {@code null}. */
    static String unquote(String word) {
        String path = word.startsWith("'") && word.endsWith("'") && word.length() >= 2
                ? word.substring(1, word.length() - 1).replace("'\\''", "'") : word;
        return quote(path).equals(word) ? path : null;
    }
}
