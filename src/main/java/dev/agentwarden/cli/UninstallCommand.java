package dev.agentwarden.cli;

import dev.agentwarden.host.SettingsFile;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code warden uninstall --host H}: removes only Warden's hook entries, through the host's {@code Installer}. */
@Command(name = "uninstall", description = "Remove Warden's hooks from a host's settings; other hooks stay.")
final class UninstallCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--host", required = true)
    String host;

    @Option(names = "--scope")
    String scope;

    @Mixin
    CwdProjectOption project;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        InstallCommand.Target target = InstallCommand.Target.resolve(host, scope, project.root(), err);
        if (target == null) {
            return ExitCode.UNREADABLE.code();
        }
        SettingsFile file = target.settingsFile();
        try {
            byte[] current = file.read();
            List<String> before = target.installer().installedEvents(current);
            if (before.isEmpty()) {
                out.println("no Warden hooks in " + file.describe());
                target.reportLookalikes(current, out);
                return ExitCode.OK.code();
            }
            byte[] after = file.update(doc -> target.installer().uninstall(doc));
            out.println("removed Warden hooks for " + before + " from " + file.describe());
            target.reportLookalikes(after, out);
            return ExitCode.OK.code();
        } catch (SettingsFile.SettingsException e) {
            err.println("warden uninstall: " + e.getMessage() + " [" + e.code() + "]");
            return ExitCode.UNREADABLE.code();
        }
    }
}
