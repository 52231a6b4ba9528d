package dev.agentwarden.cli;

import dev.agentwarden.install.HookLauncher;
import dev.agentwarden.install.HookFile;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import dev.agentwarden.managed.RootOwned;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code warden install --scope managed} and its uninstall: Warden's hooks in the host's machine-wide
 * policy settings (root only, checked in {@link InstallCommand.Target#resolve}), which the host runs
 * whatever the user's and the project's settings say. Every event the host sends is hooked (each project
 * brings its own manifest, and the managed layer binds its own), with matcher "*".
 *
 * <p>The hook command names this Warden's {@code bin/warden} by absolute path. Root configured it, so
 * it must stay root's: the launcher, the jar it runs and every directory above them must be owned by
 * root and writable by no one else ({@link RootOwned}), else the install is refused, since whoever can
 * change the launcher could replace what root configured. Nothing is trained or trusted: those are the
 * user's state, not the machine's.
 */
final class ManagedInstall {
    private ManagedInstall() {
    }

    static int install(InstallCommand.Target target, String manifestFile, boolean managedOnly, boolean dryRun,
                       PrintWriter out, PrintWriter err) throws ManifestException {
        WardenHome home = WardenHome.locate();
        if (home == null || !Files.isExecutable(home.launcher())) {
            err.println("warden install: cannot find bin/warden (run it as bin/warden install from a Warden installation)");
            return ExitCode.UNREADABLE.code();
        }
        String unsafe = launcherProblem(home);
        if (unsafe != null) {
            err.println("warden install: the managed hook would run " + home.launcher() + ", but " + unsafe
                    + "; whoever can change it could replace what root configured. Install Warden where only root"
                    + " can write (e.g. /opt/agent-warden, root-owned, mode 755) and run that bin/warden install"
                    + " --scope managed");
            return ExitCode.UNREADABLE.code();
        }
        Manifest manifest = ManifestLoader.load(manifestFile == null ? ManifestLoader.builtinDefault()
                : ManifestLoader.locate(manifestFile, target.root().toString()), System.getenv());
        List<Installer.Binding> bindings = InstallCommand.bindings(manifest, target.host(), true);
        if (bindings.isEmpty()) {
            err.println("warden install: " + InstallCommand.nothingBound(manifest, target.host().id()) + "; nothing installed");
            return ExitCode.FINDINGS.code();
        }
        Installer installer = target.installer();
        if (managedOnly && !hasManagedHooksOnly(installer)) {
            err.println("warden install: " + target.host().displayName() + " has no managed-hooks-only setting; run"
                    + " without --managed-only");
            return ExitCode.UNREADABLE.code();
        }
        HookLauncher launcher = HookLauncher.plain(home.launcher().toString());
        HookFile file = target.settingsFile();
        byte[][] before = new byte[1][];
        SettingsFile.Edit edit = doc -> {
            before[0] = doc;
            byte[] hooked = installer.install(doc, launcher, bindings);
            return managedOnly ? installer.managedHooksOnly(hooked) : hooked;
        };
        try {
            if (dryRun) {
                byte[] after = file.preview(edit);
                out.println("# would write " + file.describe());
                out.print(new String(after, StandardCharsets.UTF_8));
                return ExitCode.OK.code();
            }
            byte[] after = file.update(edit);
            out.println("installed " + bindings.size() + " managed hook(s) for " + target.host().id() + " in "
                    + file.describe() + (managedOnly ? ", with managed hooks alone allowed" : "") + ":");
            installer.changeReport(before[0], after).forEach(line -> out.println("  " + line));
            target.reportLookalikes(after, out);
            if (!managedOnly && installer.withoutManagedHooksOnly(after) != after) {
                out.println("note: " + file.describe() + " allows managed hooks alone (set before this install)");
            }
        } catch (SettingsFile.SettingsException e) {
            err.println("warden install: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
        out.println("the managed policy itself (what these hooks enforce on every project) is /etc/agent-warden/"
                + "manifest.yaml (docs/managed.md)");
        return ExitCode.OK.code();
    }

    static int uninstall(InstallCommand.Target target, boolean managedOnly, PrintWriter out, PrintWriter err) {
        Installer installer = target.installer();
        HookFile file = target.settingsFile();
        try {
            byte[] current = file.read();
            List<String> events = installer.installedEvents(current);
            boolean dropSetting = managedOnly && installer.withoutManagedHooksOnly(current) != current;
            if (events.isEmpty() && !dropSetting) {
                out.println("no Warden hooks in " + file.describe());
                target.reportLookalikes(current, out);
                return ExitCode.OK.code();
            }
            List<Path> removed = new ArrayList<>();
            byte[] after = file.updateAndTidy(doc -> {
                byte[] unhooked = installer.uninstall(doc);
                return managedOnly ? installer.withoutManagedHooksOnly(unhooked) : unhooked;
            }, removed);
            out.println("removed Warden's managed hooks for " + events + (dropSetting ? " and the managed-hooks-only setting" : "")
                    + " from " + file.describe());
            for (Path p : removed) {
                out.println("  removed " + p + " (install created it; nothing else was in it)");
            }
            if (!managedOnly && installer.withoutManagedHooksOnly(after) != after) {
                out.println("note: " + file.describe() + " still allows managed hooks alone, so user and project hooks"
                        + " stay off; uninstall --scope managed --managed-only removes that too");
            }
            target.reportLookalikes(after, out);
            return ExitCode.OK.code();
        } catch (SettingsFile.SettingsException e) {
            err.println("warden uninstall: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
    }

    private static boolean hasManagedHooksOnly(Installer installer) {
        try {
            return installer.managedHooksOnly("{}".getBytes(StandardCharsets.UTF_8)) != null;
        } catch (SettingsFile.SettingsException e) {
            return true;
        }
    }

    /** Why the launcher root's hook would run is not root's alone, or {@code null} when it is. */
    static String launcherProblem(WardenHome home) {
        for (Path p : List.of(home.launcher(), home.jar())) {
            try {
                String problem = RootOwned.problem(p);
                if (problem != null) {
                    return problem;
                }
            } catch (IOException e) {
                return p + " cannot be checked (" + e.getMessage() + ")";
            }
        }
        return null;
    }
}
