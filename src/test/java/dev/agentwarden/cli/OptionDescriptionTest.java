package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option and positional parameter of every command, walked from the command tree itself so
 * that one added later cannot escape, says what it is; and one concept has one option name.
 */
class OptionDescriptionTest {

    private static void walk(CommandLine cmd, String path, List<String> undescribed, Map<String, TreeSet<String>> names) {
        for (ArgSpec arg : cmd.getCommandSpec().args()) {
            if (arg.hidden()) {
                continue;
            }
            String what = arg instanceof OptionSpec o ? o.longestName() : "parameter " + arg.paramLabel();
            if (arg instanceof OptionSpec o) {
                for (String n : o.names()) {
                    names.computeIfAbsent(n, k -> new TreeSet<>()).add(path);
                }
            }
            if (String.join("", arg.description()).isBlank()) {
                undescribed.add(path + " " + what);
            }
        }
        for (var e : cmd.getSubcommands().entrySet()) {
            if (e.getKey().equals(e.getValue().getCommandName())) {
                walk(e.getValue(), path + " " + e.getKey(), undescribed, names);
            }
        }
    }

    @Test
    void options_everyCommand_haveADescription() {
        List<String> undescribed = new ArrayList<>();
        walk(WardenCli.commandLine(System.getenv()), "warden", undescribed, new TreeMap<>());

        assertThat(undescribed).as("options and parameters without a description").isEmpty();
    }

    @Test
    void options_sameConcept_haveOneName() {
        Map<String, TreeSet<String>> names = new TreeMap<>();
        walk(WardenCli.commandLine(System.getenv()), "warden", new ArrayList<>(), names);

        // the agent and the client a release is for: --agent-id and --client-id everywhere
        assertThat(names).doesNotContainKeys("--client", "--agent");
        assertThat(names.get("--client-id")).contains("warden launch", "warden integrity check", "warden release add",
                "warden telemetry pin");
        assertThat(names.get("--agent-id")).contains("warden launch", "warden integrity check", "warden release add");
    }
}
