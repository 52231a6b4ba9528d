package dev.agentwarden;

/**
 * The jar's entry point. {@code dispatch} goes straight to the hot path without touching the CLI
 * framework; every other command goes to {@code dev.agentwarden.cli.WardenCli}.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws java.io.IOException {
        if (args.length > 0 && args[0].equals("dispatch") && !(args.length == 2 && (args[1].equals("--help")
                || args[1].equals("-h")))) {
            dev.agentwarden.dispatch.DispatchMain.main(args);
            return;
        }
        if (args.length > 0 && args[0].equals("__train")) {
            dev.agentwarden.dispatch.Training.main(args);
            if (args.length > 1 && args[1].equals("--commands")) {
                dev.agentwarden.cli.CommandTraining.main(args);
            }
            return;
        }
        if (args.length > 0 && args[0].equals("__facts")) {
            dev.agentwarden.server.LauncherFacts.main(args);
            return;
        }
        dev.agentwarden.cli.WardenCli.main(args);
    }
}
