package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code --help} on every command and subcommand, enumerated from the command tree itself, so a
 * command added later cannot escape: it prints that command's usage and exits 0, and runs nothing.
 */
class HelpEverywhereTest {
    /** The widest word that fits every description column (80 columns less the widest option names). */
    private static final int WIDEST_WORD = 40;

    static Stream<Named<List<String>>> commands() {
        List<Named<List<String>>> out = new ArrayList<>();
        collect(WardenCli.commandLine(System.getenv()), new ArrayList<>(), out);
        assertThat(out).as("commands in the tree").hasSizeGreaterThan(30);
        return out.stream();
    }

    private static void collect(CommandLine cmd, List<String> path, List<Named<List<String>>> out) {
        out.add(Named.of(String.join(" ", path.isEmpty() ? List.of("warden") : path), List.copyOf(path)));
        for (var e : cmd.getSubcommands().entrySet()) {
            if (!e.getKey().equals(e.getValue().getCommandName())) {
                continue; // an alias of a command listed under its name
            }
            List<String> sub = new ArrayList<>(path);
            sub.add(e.getKey());
            collect(e.getValue(), sub, out);
        }
    }

    @ParameterizedTest(name = "{0} --help")
    @MethodSource("commands")
    void help_everyCommand_printsItsUsageAndExitsZero(List<String> path) {
        List<String> args = new ArrayList<>(path);
        args.add("--help");

        CliRun r = CliRun.of(args.toArray(String[]::new));

        assertThat(r.err()).as("stderr").isEmpty();
        assertThat(r.exit()).as("exit").isEqualTo(0);
        assertThat(r.out()).contains("Usage: warden" + (path.isEmpty() ? "" : " " + String.join(" ", path)));
    }

    /**
     * picocli broke lines where {@link java.text.BreakIterator} allows, inside words: {@code from .}
     * then {@code warden/state/decisions/}. Every word of every description the help shows (the
     * command's, its options', its parameters', its subcommands') is printed whole, and no line is
     * wider than the help. (A word wider than its column, such as a long path from the environment, is still cut.)
     */
    @ParameterizedTest(name = "{0} --help")
    @MethodSource("commands")
    void help_everyCommand_wrapsOnlyBetweenWords(List<String> path) {
        CommandLine cmd = WardenCli.commandLine(System.getenv());
        for (String name : path) {
            cmd = cmd.getSubcommands().get(name);
        }
        List<String> args = new ArrayList<>(path);
        args.add("--help");

        String help = CliRun.of(args.toArray(String[]::new)).out();

        java.util.Set<String> printed = new java.util.HashSet<>(List.of(help.split("\\s+")));
        List<String> texts = new ArrayList<>(List.of(cmd.getCommandSpec().usageMessage().description()));
        for (CommandLine.Model.ArgSpec arg : cmd.getCommandSpec().args()) {
            if (!arg.hidden()) {
                texts.addAll(List.of(arg.description()));
            }
        }
        for (CommandLine sub : cmd.getSubcommands().values()) {
            String[] description = sub.getCommandSpec().usageMessage().description();
            if (description.length > 0) {
                texts.add(description[0]);
            }
        }
        List<String> cut = new ArrayList<>();
        for (String text : texts) {
            for (String word : String.format(text).split("\\s+")) {
                boolean widerThanAnyColumn = word.length() > WIDEST_WORD; // a path from this machine's environment
                if (!word.isEmpty() && !word.contains("${") && !widerThanAnyColumn && !printed.contains(word)) {
                    cut.add(word);
                }
            }
        }
        assertThat(cut).as("words broken across lines").isEmpty();
        for (String line : help.split("\n")) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(cmd.getCommandSpec().usageMessage().width());
        }
    }

    @Test
    void helpCommand_nested_showsTheSubcommandsHelp() {
        CliRun r = CliRun.of("help", "manifest", "lint");

        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).startsWith("Usage: warden manifest lint");
        CliRun unknown = CliRun.of("help", "manifest", "nosuch");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown command 'nosuch'").contains("warden manifest --help");
    }
}
