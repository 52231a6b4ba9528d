package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code warden help [COMMAND [SUBCOMMAND ...]]}: the usage of any command of the tree, nested ones too. */
@Command(name = "help", helpCommand = true, description = "Show the help of a command: warden help manifest lint.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {
    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, and its subcommands, to describe.")
    List<String> path = List.of();

    private CommandLine self;
    private PrintWriter out;
    private CommandLine.Help.ColorScheme colors;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
        this.self = helpCommandLine;
        this.colors = colorScheme;
        this.out = out;
    }

    @Override
    public void run() {
        CommandLine target = self.getParent();
        for (String name : path) {
            CommandLine sub = target.getSubcommands().get(name);
            if (sub == null) {
                throw new CommandLine.ParameterException(self, "unknown command '" + name + "' under '"
                        + target.getCommandSpec().qualifiedName() + "'; see '" + target.getCommandSpec().qualifiedName()
                        + " --help'");
            }
            target = sub;
        }
        target.usage(out, colors);
    }
}
