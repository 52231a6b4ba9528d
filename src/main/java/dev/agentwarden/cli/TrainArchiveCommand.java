package dev.agentwarden.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code warden train-archive} as the help shows it: bin/warden trains the class-data archive
 * itself (it needs the launcher's JVM choice and flags), so a JVM reaching this was started
 * without the launcher, or with arguments the launcher leaves to it ({@code --help}).
 */
@Command(name = "train-archive", description = {"Train the start-up (class-data) archive for this jar and JDK now, in the"
        + " foreground; bin/warden otherwise trains it in the background on first use.",
        "Done by bin/warden itself: run `bin/warden train-archive`."})
final class TrainArchiveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("warden train-archive: bin/warden trains the archive; run `bin/warden"
                + " train-archive` from the Warden checkout (this JVM was started without it)");
        return ExitCode.UNREADABLE.code();
    }
}
