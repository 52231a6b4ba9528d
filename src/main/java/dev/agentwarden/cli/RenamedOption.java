package dev.agentwarden.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * An option renamed so that one concept has one name across commands ({@code --agent-id},
 * {@code --client-id}), whose old name stays accepted as a hidden alias: picocli cannot mark such
 * a pair required, so the command checks it here.
 */
final class RenamedOption {
    private RenamedOption() {
    }

    /** {@code value}, or a usage error naming {@code option} (exit 2, with the command's usage). */
    static String require(CommandSpec spec, String value, String option, String label) {
        if (value == null || value.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Missing required option: '" + option + "=" + label
                    + "' (see `warden " + spec.qualifiedName().replaceFirst("^warden ", "") + " --help`)");
        }
        return value;
    }
}
