package dev.agentwarden.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code warden dispatch} as the help shows it. The command itself never runs here:
 * {@link dev.agentwarden.Main} hands {@code dispatch} to {@link dev.agentwarden.dispatch.DispatchMain}
 * before this framework loads (the hot path), except {@code dispatch --help}, which lands here.
 */
@Command(name = "dispatch", description = {"What hosts run on every hook event (warden install writes it): reads the"
        + " event on stdin, runs the manifest's chain, answers in the host's protocol.",
        "Run it through bin/warden, which hands the event to the resident server when one runs."})
final class DispatchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", description = "The host whose protocol the event and the answer use: ${bundle:warden.hosts}.")
    String host;

    @Option(names = "--native-event", paramLabel = "N", description = "The host's name of the event (PreToolUse).")
    String nativeEvent;

    @Option(names = "--event", paramLabel = "E", description = "The canonical event (pre_tool_use), when there is no native name.")
    String event;

    @Option(names = "--manifest", paramLabel = "F", description = "Manifest to use instead of the one in force.")
    String manifest;

    @Option(names = "--project-dir", paramLabel = "D", description = "Project root (default: from the event's cwd and the host's environment).")
    String projectDir;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("warden dispatch: run it as `bin/warden dispatch --host H --native-event N`"
                + " with the event on stdin (see `warden dispatch --help`)");
        return ExitCode.UNREADABLE.code();
    }
}
