package dev.agentwarden.cli;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.install.HookFile;
import dev.agentwarden.install.HookFileInstaller;
import dev.agentwarden.install.HostSetups;
import dev.agentwarden.install.Installer;
import dev.agentwarden.install.SettingsFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden uninstall --host H}: removes only Warden's hook entries, through the host's
 * {@code Installer}; a settings file install created and this leaves empty is removed, with the
 * directories created for it, and so is the settings lock. {@code --all}: every host and scope.
 */
@Command(name = "uninstall", description = {"Remove Warden's hooks from a host's settings; other hooks stay.",
        "A settings file install created is removed when nothing else is left in it."})
final class UninstallCommand implements Callable<Integer> {
    /**
     * Every host and scope {@code --all} looks at, as {host id, scope}: each settings file once (Cowork
     * shares Claude's user settings, so Claude's user scope covers it).
     */
    static List<String[]> everywhere() {
        List<String[]> out = new ArrayList<>();
        Set<String> files = new HashSet<>();
        for (Host h : Hosts.ALL) {
            for (Host.Scope scope : Host.Scope.values()) {
                if (scope == Host.Scope.MANAGED) {
                    continue; // the machine's policy, root's: named on its own, never swept up by --all
                }
                Installer installer = HostSetups.of(h).installer(scope);
                if (installer != null && files.add(installer.describe())) {
                    out.add(new String[] {h.id(), scope.wire()});
                }
            }
        }
        return out;
    }

    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", description = "The host (required unless --all): ${bundle:warden.hosts}.")
    String host;

    @Option(names = "--scope", description = "project (default), user, local or managed, as for install.")
    String scope;

    @Option(names = "--managed-only", description = "With --scope managed: also remove allowManagedHooksOnly (Claude"
            + " Code), which install --managed-only added.")
    boolean managedOnly;

    @Option(names = "--all", description = "Remove Warden from every host and scope it is found in (this project and your user settings).")
    boolean all;

    @Mixin
    CwdProjectOption project;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (all == (host != null) || (all && scope != null)) {
            err.println("warden uninstall: give --host H [--scope S], or --all alone (see `warden uninstall --help`)");
            return ExitCode.UNREADABLE.code();
        }
        List<String[]> where = all ? everywhere() : List.<String[]>of(new String[] {host, scope});
        int worst = ExitCode.OK.code();
        List<String> without = new ArrayList<>();
        for (String[] hs : where) {
            InstallCommand.Target target = InstallCommand.Target.resolve(hs[0], hs[1], project.root(), err);
            int code = target == null ? ExitCode.UNREADABLE.code()
                    : target.managed() ? ManagedInstall.uninstall(target, managedOnly, out, err)
                    : uninstall(target, all ? without : null, out, err);
            worst = Math.max(worst, code);
        }
        if (all && without.size() == where.size()) {
            out.println("no Warden hooks in " + String.join(", ", without));
        }
        return worst;
    }

    /** Removes Warden's entries from one target; a target without any is added to {@code without} when given, else said. */
    private static int uninstall(InstallCommand.Target target, List<String> without, PrintWriter out, PrintWriter err) {
        if (target.installer() instanceof HookFileInstaller) {
            return HookFilesInstall.uninstall(target, without, out, err);
        }
        HookFile file = target.settingsFile();
        try {
            byte[] current = file.read();
            List<String> before = target.installer().installedEvents(current);
            if (before.isEmpty()) {
                if (without == null) {
                    out.println("no Warden hooks in " + file.describe());
                } else {
                    without.add(file.describe());
                }
                target.reportLookalikes(current, out);
                return ExitCode.OK.code();
            }
            List<Path> removed = new ArrayList<>();
            byte[] after = file.updateAndTidy(doc -> target.installer().uninstall(doc), removed);
            out.println("removed Warden hooks for " + before + " from " + file.describe());
            for (Path p : removed) {
                out.println("  removed " + p + " (install created it; nothing else was in it)");
            }
            target.reportLookalikes(after, out);
            return ExitCode.OK.code();
        } catch (SettingsFile.SettingsException e) {
            err.println("warden uninstall: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
    }
}
