package dev.agentwarden.cli;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.HookCommand;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.HookFiles;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.io.CacheDir;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code install}, {@code uninstall} and {@code doctor} for a host whose hooks are files of their
 * own ({@link HookFileInstaller}): one file per bound native event, no tool matcher (the host runs
 * the file for every tool; the manifest's {@code tools} filters at dispatch).
 */
final class HookFilesInstall {
    private HookFilesInstall() {
    }

    /** The hook files of {@code target}, locked in Warden's cache. */
    static HookFiles files(InstallCommand.Target target) {
        return new HookFiles((HookFileInstaller) target.installer(), target.root(), System.getenv(),
                CacheDir.root(System.getenv()).resolve("locks"));
    }

    /** Writes one file per binding; {@code 0} when written, else the exit code, having said why. */
    static int install(InstallCommand.Target target, HookLauncher launcher, List<Installer.Binding> bindings, boolean dryRun,
                       PrintWriter out, PrintWriter err) {
        List<String> events = fileNames(target, bindings);
        HookFiles files = files(target);
        try {
            List<String> report = files.install(launcher, events, dryRun);
            out.println((dryRun ? "# would install " : "installed ") + events.size() + " hook file(s) for "
                    + target.host().id() + " in " + files.directory() + ":");
            for (String line : report) {
                out.println("  " + line);
            }
            return ExitCode.OK.code();
        } catch (SettingsFile.SettingsException e) {
            err.println("warden install: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
    }

    /** The hook files the bindings need, each once: an event the host runs no file for comes through others'. */
    static List<String> fileNames(InstallCommand.Target target, List<Installer.Binding> bindings) {
        HookFileInstaller installer = (HookFileInstaller) target.installer();
        List<String> out = new ArrayList<>();
        for (Installer.Binding b : bindings) {
            for (String file : installer.filesFor(b.nativeEvent())) {
                if (!out.contains(file)) {
                    out.add(file);
                }
            }
        }
        return out;
    }

    /** Removes Warden's files; a directory without any is added to {@code without} when given, else said. */
    static int uninstall(InstallCommand.Target target, List<String> without, PrintWriter out, PrintWriter err) {
        HookFiles files = files(target);
        try {
            HookFiles.State state = files.read();
            if (state.warden().isEmpty()) {
                if (without == null) {
                    out.println("no Warden hooks in " + files.directory());
                } else {
                    without.add(files.directory().toString());
                }
                return ExitCode.OK.code();
            }
            List<String> report = files.uninstall();
            out.println("removed Warden hooks for " + new ArrayList<>(state.warden().keySet()) + " from " + files.directory());
            for (String line : report) {
                out.println("  " + line);
            }
            return ExitCode.OK.code();
        } catch (SettingsFile.SettingsException e) {
            err.println("warden uninstall: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
    }

    /**
     * Doctor's findings: Warden's files against the events the manifest binds, and the launchers they
     * run (for committed files that run {@code warden} from PATH, whether {@code path} has it).
     */
    static List<DoctorCommand.Finding> check(InstallCommand.Target target, List<Installer.Binding> bindings, String install,
                                             String path) {
        List<DoctorCommand.Finding> found = new ArrayList<>();
        HookFiles.State state;
        try {
            state = files(target).read();
        } catch (SettingsFile.SettingsException e) {
            found.add(DoctorCommand.Finding.problem(e.getMessage(), "fix it, then `" + install + "`"));
            return found;
        }
        for (Map.Entry<String, String> f : state.foreign().entrySet()) {
            found.add(DoctorCommand.Finding.note("hook file " + f.getKey() + " is " + f.getValue() + " (kept as yours)"));
        }
        if (state.warden().isEmpty()) {
            found.add(DoctorCommand.Finding.note(InstalledHooksCheck.NOT_INSTALLED + "`" + install + "` installs it)"));
            return found;
        }
        List<String> wanted = fileNames(target, bindings);
        boolean ok = true;
        HookCommand.IfMissing portable = null;
        for (Map.Entry<String, HookLauncher> f : state.warden().entrySet()) {
            if (f.getValue().isPortable()) {
                portable = f.getValue().missing();
            } else if (!Files.isExecutable(java.nio.file.Path.of(f.getValue().launcher()))) {
                found.add(DoctorCommand.Finding.problem("hook file " + f.getKey() + " runs " + f.getValue().launcher()
                        + ", which no longer exists: the host lets those events through", install));
                ok = false;
            }
            if (!wanted.contains(f.getKey())) {
                found.add(DoctorCommand.Finding.problem("a hook file for " + f.getKey() + ", which nothing in the manifest"
                        + " binds (a JVM start per event for nothing)", install));
                ok = false;
            }
        }
        if (portable != null) {
            found.add(InstalledHooksCheck.onPathFinding(portable, path));
        }
        for (String e : wanted) {
            if (!state.warden().containsKey(e)) {
                found.add(DoctorCommand.Finding.problem("no hook file for " + e + ", which the manifest binds: Warden does"
                        + " not see those events", install));
                ok = false;
            }
        }
        if (ok) {
            found.add(DoctorCommand.Finding.ok(state.warden().size() + " hook file(s) (" + String.join(", ",
                    state.warden().keySet()) + "), as `warden install` would write them now"));
        }
        return found;
    }
}
