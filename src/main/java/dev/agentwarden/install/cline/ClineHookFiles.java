package dev.agentwarden.install.cline;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.host.cline.ClineAdapter;
import dev.agentwarden.host.cline.ClineHost;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.Installer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Cline's hook files at one scope: the project's {@code .clinerules/hooks/}, or the user's
 * {@code ~/.cline/hooks/} ({@code $CLINE_DIR/hooks} when Cline's directory is moved). Cline runs
 * every regular file in those directories whose name, less an extension it knows ({@code .sh},
 * {@code .py}, …, or none), is an event name in any case, through the interpreter its {@code #!}
 * line names; a symbolic link is not run. Warden's file for an event is the extensionless
 * {@code /bin/sh} script {@link #content} writes, which hands the event to {@code bin/warden
 * dispatch --host cline} by absolute path, or, in a project (committed), to {@code warden} from
 * {@code PATH} ({@link HookLauncher#portable}).
 */
public final class ClineHookFiles implements HookFileInstaller {
    private static final String LAUNCHER_LINE = "launcher='";

    private final boolean user;

    public ClineHookFiles(boolean user) {
        this.user = user;
    }

    @Override
    public Path hooksDirectory(Path projectRoot, Map<String, String> env) {
        return user ? clineDir(env).resolve("hooks") : projectRoot.resolve(".clinerules").resolve("hooks");
    }

    @Override
    public Path anchor(Path projectRoot, Map<String, String> env) {
        if (!user) {
            return projectRoot;
        }
        Path parent = clineDir(env).toAbsolutePath().normalize().getParent();
        return parent == null ? clineDir(env) : parent;
    }

    @Override
    public boolean inProject() {
        return !user;
    }

    @Override
    public String describe() {
        return user ? "~/.cline/hooks/" : ".clinerules/hooks/";
    }

    /** Cline's own event names: every key of {@link ClineHost#EVENTS} but the two a subagent's files stand for. */
    @Override
    public List<String> events() {
        List<String> out = new ArrayList<>(ClineHost.CLINE.defaultAliases().keySet());
        out.remove(ClineAdapter.SUBAGENT_START);
        out.remove(ClineAdapter.SUBAGENT_STOP);
        return out;
    }

    /** A subagent's start comes through TaskStart (TaskResume on a resumed task), its stop through the three files that end a run. */
    @Override
    public List<String> filesFor(String nativeEvent) {
        if (ClineAdapter.SUBAGENT_START.equals(nativeEvent)) {
            return List.of("TaskStart", "TaskResume");
        }
        if (ClineAdapter.SUBAGENT_STOP.equals(nativeEvent)) {
            return List.of("TaskComplete", "TaskError", "SessionShutdown");
        }
        return List.of(nativeEvent);
    }

    /**
     * A {@code /bin/sh} script that execs the launcher; if the launcher is gone it says so on
     * stderr and, on the events Cline waits for under {@code WARDEN_FAIL_MODE=closed}, cancels the
     * task, since Cline treats a failed or silent hook as "proceed".
     */
    @Override
    public byte[] content(HookLauncher launcher, String nativeEvent) {
        if (launcher.isPortable()) {
            return portable(launcher.missing(), nativeEvent);
        }
        String refuse = ClineAdapter.WAITED_FOR.contains(nativeEvent)
                ? "if [ \"${WARDEN_FAIL_MODE:-}\" = closed ]; then\n"
                + "  printf '%s\\n' '" + ClineHost.CANNOT_RUN + "'\n"
                + "fi\n"
                : "";
        return ("#!/bin/sh\n"
                + "# Agent Warden's Cline hook for " + nativeEvent + ", written by `warden install --host cline`;\n"
                + "# `warden uninstall --host cline` removes it. Once edited it is yours, and Warden leaves it alone.\n"
                + LAUNCHER_LINE + launcher.launcher().replace("'", "'\\''") + "'\n"
                + "if [ -x \"$launcher\" ]; then\n"
                + "  exec \"$launcher\" dispatch --host cline --native-event " + nativeEvent + "\n"
                + "fi\n"
                + "echo \"warden: $launcher is missing; run warden install --host cline again\" >&2\n"
                + refuse
                + "exit 0\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The committed form ({@code --scope project}): a {@code /bin/sh} script that names no path of this
     * machine; it execs {@code warden} from {@code PATH}, and where there is none answers Cline itself
     * (the portable command, {@link HookLauncher#portable}): under {@code --if-missing block} a cancel on PreToolUse
     * saying what to install, a note on stderr elsewhere.
     */
    private static byte[] portable(HookCommand.IfMissing mode, String nativeEvent) {
        String tail = " dispatch --host cline --native-event " + nativeEvent;
        return ("#!/bin/sh\n"
                + "# Agent Warden's Cline hook for " + nativeEvent + ", written by `warden install --host cline"
                + " --if-missing " + mode.wire() + "`;\n"
                + "# `warden uninstall --host cline` removes it. Once edited it is yours, and Warden leaves it alone.\n"
                + "# It runs `warden` from PATH (this file is committed: it names no path of this machine).\n"
                + HookCommand.command(HookLauncher.portable(mode), tail) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public HookLauncher launcherOf(byte[] file, String nativeEvent) {
        for (HookCommand.IfMissing mode : HookCommand.IfMissing.values()) {
            if (java.util.Arrays.equals(file, portable(mode, nativeEvent))) {
                return HookLauncher.portable(mode);
            }
        }
        String text = new String(file, StandardCharsets.UTF_8);
        int start = text.indexOf("\n" + LAUNCHER_LINE);
        if (start < 0) {
            return null;
        }
        start += 1 + LAUNCHER_LINE.length();
        int end = text.indexOf("'\n", start);
        if (end < 0) {
            return null;
        }
        HookLauncher launcher = HookLauncher.plain(text.substring(start, end).replace("'\\''", "'"));
        return java.util.Arrays.equals(file, content(launcher, nativeEvent)) ? launcher : null;
    }

    /** {@code $CLINE_DIR}, else {@code ~/.cline}: where Cline keeps its own files. */
    static Path clineDir(Map<String, String> env) {
        String dir = env.get("CLINE_DIR");
        return dir != null && !dir.trim().isEmpty() ? Path.of(dir.trim()) : Installer.userHome(env).resolve(".cline");
    }
}
