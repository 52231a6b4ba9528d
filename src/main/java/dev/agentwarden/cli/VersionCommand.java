package dev.agentwarden.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code warden version}: what {@code warden --version} prints, {@code warden 0.8.0 (commit abc1234)}. */
@Command(name = "version", description = "Print the version and the commit this Warden was built from.")
final class VersionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        for (String line : new WardenCli.Version().getVersion()) {
            spec.commandLine().getOut().println(line);
        }
        return ExitCode.OK.code();
    }
}
