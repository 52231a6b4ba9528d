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
