package dev.agentwarden.install;

import dev.agentwarden.event.EventName;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.LauncherContract;
import dev.agentwarden.install.HostSetups;

/**
 * The command text a hook runs for a {@link HookLauncher}, and the reading of that text back:
 * {@code bin/warden} alone, or the compiled hook with {@code bin/warden} behind it ({@link HookLauncher#fast}).
 *
 * <p>The fast form is written only for hosts that run a hook's command through a POSIX shell
 * (Claude Code and Cowork {@code sh -c}, Gemini CLI and Qwen Code {@code bash -c}, Codex
 * {@code $SHELL -lc}): the shell the host starts anyway tests that the compiled hook is
 * executable and execs it, else execs {@code bin/warden} with the same arguments,
 * <pre>[ -x '&lt;hook&gt;' ] &amp;&amp; exec '&lt;hook&gt;' dispatch --host H --native-event E; exec '&lt;bin/warden&gt;' dispatch --host H --native-event E</pre>
 * so a deleted cache costs one {@code stat} and the bash launcher, never the policy. A stale hook
 * (its source changed) hands the event to {@code bin/warden} itself.
 *
 * <p>The portable form ({@link HookLauncher#portable}) is what a project-scope install writes into files a team
 * commits: it names no path of this machine. It runs {@code warden} from {@code PATH} when there is
 * one, else answers the host itself, in the host's own protocol ({@link LauncherContract}), with
 * what to install:
 * <pre>command -v warden &gt;/dev/null 2&gt;&amp;1 &amp;&amp; exec warden dispatch --host H --native-event E; &lt;answer&gt;</pre>
 * where the answer under {@link IfMissing#BLOCK} refuses the events a hook can refuse that ask for an
 * action (a tool call, a permission, a prompt), and lets every other event pass with a note on stderr.
 */
public final class HookCommand {
    private static final String TEST = "[ -x ";
    private static final String THEN = " ] && exec ";
    private static final String ELSE = "; exec ";
    private static final String LAUNCHER_SUFFIX = "/bin/warden";

    private static final String ON_PATH = "command -v warden >/dev/null 2>&1 && exec warden";
    private static final String HOST_FLAG = " --host ";
    private static final String EVENT_FLAG = " --native-event ";

    /** What Warden refuses with where it is missing, and how to get it. */
    public static final String MISSING = "warden is not installed on this machine (this project's hooks run `warden`"
            + " from PATH): install it with npm install -g agent-warden, or unpack the release and put its bin on"
            + " PATH, then run warden trust in the project";

    /** What the committed hook does on a machine where {@code warden} is not on {@code PATH}. */
    public enum IfMissing {
        /** Refuse what a hook can refuse (tool calls, permissions, prompts), saying what to install. */
        BLOCK("block"),
        /** Let everything proceed, with a warning the host shows where it shows one. */
        WARN("warn"),
        /** Let everything proceed; a note on stderr only. */
        ALLOW("allow");

        private final String wire;

        IfMissing(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        /** The mode named {@code word}, or {@code null}. */
        public static IfMissing named(String word) {
            for (IfMissing m : values()) {
                if (m.wire.equals(word)) {
                    return m;
                }
            }
            return null;
        }
    }

    private HookCommand() {
    }

    /** The mode of a portable command for {@code tail}, or {@code null} when it is not exactly the portable form. */
    public static IfMissing portableMode(String command, String tail) {
        if (tail == null || !command.startsWith(ON_PATH + tail + ";")) {
            return null;
        }
        IfMissing[] modes = IfMissing.values();
        for (int i = 0; i < modes.length; i++) {
            if (command(HookLauncher.portable(modes[i]), tail).equals(command)) {
                return modes[i];
            }
        }
        return null;
    }

    /**
     * Every mode whose portable command for {@code tail} is exactly {@code command}, in declared order:
     * more than one where the modes answer alike (an event that cannot refuse passes under each).
     */
    public static java.util.List<IfMissing> portableModes(String command, String tail) {
        java.util.List<IfMissing> out = new java.util.ArrayList<>(3);
        IfMissing[] modes = IfMissing.values();
        for (int i = 0; i < modes.length; i++) {
            if (tail != null && command(HookLauncher.portable(modes[i]), tail).equals(command)) {
                out.add(modes[i]);
            }
        }
        return out;
    }

    /**
     * The portable command for {@code tail} ({@code " dispatch --host H --native-event E"}), its answer
     * where {@code warden} is missing built from host H's facts.
     */
    private static String portableCommand(IfMissing mode, String tail) {
        return ON_PATH + tail + "; " + missingAnswer(mode, tail);
    }

    /**
     * The shell that answers the host where {@code warden} is missing, for the event of {@code tail}
     * ({@code " dispatch --host H --native-event E"}) under {@code mode}: the host's refusal on stdout
     * where it reads one, a note on stderr, and its exit. The portable command ends with it.
     */
    private static String missingAnswer(IfMissing mode, String tail) {
        int h = tail.indexOf(HOST_FLAG);
        int e = tail.indexOf(EVENT_FLAG);
        String hostId = h < 0 || e < h ? "" : tail.substring(h + HOST_FLAG.length(), e);
        String nativeEvent = e < 0 ? "" : tail.substring(e + EVENT_FLAG.length());
        Host host = Hosts.byId(hostId);
        LauncherContract contract = host == null ? LauncherContract.PLAIN : host.launcher();
        String stdout;
        String note;
        int exit;
        if (mode == IfMissing.BLOCK && host != null && refusable(host, nativeEvent)) {
            stdout = LauncherContract.withReason(contract.refusal(nativeEvent), "[warden] " + MISSING);
            note = "warden: refused: " + MISSING;
            exit = contract.closedExit();
        } else {
            stdout = contract.noOpinion(nativeEvent);
            note = "warden: not checked: " + MISSING;
            exit = mode == IfMissing.WARN && host != null && refusable(host, nativeEvent)
                    && contract.nonZeroExit() != LauncherContract.NonZeroExit.FAIL_MODE
                    && !failsClosed(host, nativeEvent) ? 1 : 0;
        }
        return (stdout.isEmpty() ? "" : "printf '%s\\n' " + singleQuoted(stripNewline(stdout)) + "; ")
                + "printf '%s\\n' " + singleQuoted(note) + " >&2; exit " + exit;
    }

    /** Whether the host reads a non-zero exit of the project's entry for {@code nativeEvent} as a refusal (Cursor's failClosed). */
    private static boolean failsClosed(Host host, String nativeEvent) {
        Installer project = HostSetups.of(host).installer(Host.Scope.PROJECT);
        return project != null && project.failsClosedOnError(nativeEvent);
    }

    /** Whether a hook on {@code nativeEvent} asks before an action and may refuse it. */
    private static boolean refusable(Host host, String nativeEvent) {
        EventName event = host.defaultAliases().get(nativeEvent);
        return (event == EventName.PRE_TOOL_USE || event == EventName.PERMISSION_REQUEST
                || event == EventName.USER_PROMPT_SUBMIT) && host.capability(nativeEvent).canBlock();
    }

    private static String stripNewline(String s) {
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    private static String singleQuoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * The two paths a fast command names: the compiled hook at {@code hook} when it is there, else
     * {@code launcher} ({@code bin/warden}); both absolute.
     */
    public record Fast(String hook, String launcher) {
    }

    /** The command line for one event running {@code launcher}. */
    public static String command(HookLauncher launcher, String tail) {
        if (launcher.isPortable()) {
            return portableCommand(launcher.missing(), tail);
        }
        if (launcher.hook() == null) {
            return quote(launcher.launcher()) + tail;
        }
        String hook = quote(launcher.hook());
        return TEST + hook + THEN + hook + tail + ELSE + quote(launcher.launcher()) + tail;
    }

    /**
     * The compiled hook a fast command runs first and the {@code bin/warden} it falls back to;
     * {@code null} when {@code command} is not exactly the fast form with {@code tail}, or either path
     * is not absolute and named {@code .../bin/warden}.
     */
    public static Fast fastParts(String command, String tail) {
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
                || !command(HookLauncher.fast(hook, launcher), tail).equals(command)) {
            return null;
        }
        return new Fast(hook, launcher);
    }

    private static boolean plausible(String path) {
        return path.startsWith("/") && path.endsWith(LAUNCHER_SUFFIX);
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
