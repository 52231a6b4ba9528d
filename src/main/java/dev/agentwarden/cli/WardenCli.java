package dev.agentwarden.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Every {@code warden} command except {@code dispatch}, which {@link dev.agentwarden.Main} routes first. */
@Command(name = "warden", mixinStandardHelpOptions = true, versionProvider = WardenCli.Version.class,
        description = "Agent Warden: policy, ledger and integrity runtime for AI coding-agent hooks.",
        subcommands = {
                ManifestCommand.class,
                LedgerCommand.class,
                GuardCommand.class,
                IntegrityCommand.class,
                LaunchCommand.class,
                DemoCommand.class,
                InstallCommand.class,
                UninstallCommand.class,
                CanonicalizeCommand.class,
                ReleaseCommand.class,
                ServeCommand.class,
                ResidentCommand.class,
                InventoryCommand.class,
                TelemetryCommand.class,
                CommandLine.HelpCommand.class,
        })
public final class WardenCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = execute(args, out, err);
        // Auto-flush covers println only; print()ed output would be lost at exit.
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs a command line with the given output streams; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new WardenCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExitCodeExceptionMapper(e -> ExitCode.UNREADABLE.code());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("warden " + cmd.getCommandName() + ": " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Reports the jar's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = WardenCli.class.getPackage().getImplementationVersion();
            return new String[] {"warden " + (v == null ? "dev" : v)};
        }
    }
}
