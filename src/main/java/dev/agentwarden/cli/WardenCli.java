package dev.agentwarden.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Every {@code warden} command; {@code dispatch} runs through {@link dev.agentwarden.Main} (only its help comes here). */
@Command(name = "warden", mixinStandardHelpOptions = true, versionProvider = WardenCli.Version.class,
        description = "Agent Warden: policy, ledger and integrity runtime for AI coding-agent hooks.")
public final class WardenCli implements Runnable {
    /** The subcommands, in the order the help lists them. */
    private static final Class<?>[] COMMANDS = {
            DispatchCommand.class,
            ManifestCommand.class,
            LedgerCommand.class,
            GuardCommand.class,
            IntegrityCommand.class,
            LaunchCommand.class,
            DemoCommand.class,
            InstallCommand.class,
            UninstallCommand.class,
            DoctorCommand.class,
            TrustCommand.class,
            TestCommand.class,
            ReplayCommand.class,
            InitCommand.class,
            CanonicalizeCommand.class,
            ReleaseCommand.class,
            PolicyCommand.class,
            ServeCommand.class,
            LogCommand.class,
            ReportCommand.class,
            DashboardCommand.class,
            ResidentCommand.class,
            InventoryCommand.class,
            TelemetryCommand.class,
            ExportCommand.class,
            TrainArchiveCommand.class,
            VersionCommand.class,
            HelpCommand.class,
    };

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The environment commands read ({@code XDG_STATE_HOME}, {@code HOME}, ...): the process's, or a test's. */
    private final Map<String, String> env;

    private WardenCli(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = execute(args, out, err);
        // Auto-flush covers println only; print()ed output would be lost at exit.
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs a command line with the given output streams in this process's environment; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, System.getenv());
    }

    /**
     * As {@link #execute(String[], PrintWriter, PrintWriter)}, with {@code env} in place of the
     * process environment for the commands that read one (so a test can point the user's state,
     * {@code XDG_STATE_HOME}, at a temporary directory).
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
        Integer direct = DirectCommands.execute(args, out, err);
        return direct != null ? direct : executeParsed(args, out, err, env);
    }

    /** {@link #execute(String[], PrintWriter, PrintWriter, Map)} through picocli, whatever the command line. */
    static int executeParsed(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
        CommandLine cli = commandLine(env, args.length == 0 ? null : args[0]);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExitCodeExceptionMapper(e -> ExitCode.UNREADABLE.code());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println(CliErrors.failed(cmd.getCommandSpec(), e));
            return ExitCode.UNREADABLE.code();
        });
        cli.setParameterExceptionHandler((e, given) -> {
            CliErrors.usage(e, e.getCommandLine().getErr());
            return ExitCode.UNREADABLE.code();
        });
        return cli.execute(args);
    }

    /** The whole command tree, every command and subcommand answering {@code --help}. */
    static CommandLine commandLine(Map<String, String> env) {
        return commandLine(env, null);
    }

    /**
     * The command tree for a command line starting with {@code first}: when it names a command other
     * than {@code help}, the tree holds that command alone (its subcommands and help included), since
     * building all of them (reflection over every command class) is most of a bulk read's start-up;
     * otherwise the whole tree, for the top-level help, {@code warden help ...} and unknown commands.
     */
    static CommandLine commandLine(Map<String, String> env, String first) {
        CommandLine cli = new CommandLine(new WardenCli(env));
        Class<?> only = first == null || first.equals("help") ? null : named(first);
        for (Class<?> c : COMMANDS) {
            if (only == null || c == only) {
                cli.addSubcommand(c);
            }
        }
        addHelp(cli);
        cli.setResourceBundle(new HelpVariables());
        cli.setHelpFactory(SpaceWrappedHelp.FACTORY);
        return cli;
    }

    /** The command class named (or aliased) {@code name}, or {@code null}. */
    private static Class<?> named(String name) {
        for (Class<?> c : COMMANDS) {
            Command command = c.getAnnotation(Command.class);
            if (command.name().equals(name) || java.util.Arrays.asList(command.aliases()).contains(name)) {
                return c;
            }
        }
        return null;
    }

    /** Gives each command of the tree without a help option {@code -h, --help} (only {@code --help} where -h is taken). */
    private static void addHelp(CommandLine cmd) {
        CommandLine.Model.CommandSpec spec = cmd.getCommandSpec();
        boolean hasHelp = false;
        for (CommandLine.Model.OptionSpec o : spec.options()) {
            hasHelp |= o.usageHelp();
        }
        if (!hasHelp) {
            String[] names = spec.findOption("-h") == null ? new String[] {"-h", "--help"} : new String[] {"--help"};
            spec.addOption(CommandLine.Model.OptionSpec.builder(names).usageHelp(true)
                    .description("Show this help message and exit.").build());
        }
        for (CommandLine sub : cmd.getSubcommands().values()) {
            addHelp(sub);
        }
    }

    /** The environment of the {@code warden} run {@code spec} belongs to. */
    static Map<String, String> env(CommandLine.Model.CommandSpec spec) {
        return ((WardenCli) spec.root().userObject()).env;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version and commit the build wrote into {@code build.properties}; "unknown" for what it could not tell. */
    static final class Version implements CommandLine.IVersionProvider {
        static final String RESOURCE = "/dev/agentwarden/build.properties";

        @Override
        public String[] getVersion() {
            java.util.Properties p = new java.util.Properties();
            try (java.io.InputStream in = WardenCli.class.getResourceAsStream(RESOURCE)) {
                if (in != null) {
                    p.load(in);
                }
            } catch (java.io.IOException e) {
                // reported as unknown
            }
            return new String[] {"warden " + known(p.getProperty("version")) + " (commit " + known(p.getProperty("commit")) + ")"};
        }

        /** A filtered value, or "unknown" when the build left it empty or unfiltered. */
        static String known(String value) {
            return value == null || value.isBlank() || value.contains("${") ? "unknown" : value.strip();
        }
    }
}
