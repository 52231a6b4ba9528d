package dev.agentwarden.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The bulk reads {@code warden ledger stats} and {@code warden guard derive} in their plain form
 * run without picocli: building picocli's model of a command (reflection over its annotations,
 * proxies, converters) is most of such a read's start-up, paid on one thread before the read
 * starts. A plain form is the command's two words followed only by its own options, each at most
 * once, spelt {@code --name value} or {@code --name=value}, with a value that does not start with
 * {@code -} or {@code @}; the options are set as picocli sets them and the command's own
 * {@code run} runs, so the output and the exit code are picocli's. Any other command line
 * (help, a repeated or unknown option, an argument file) is left to picocli, which decides.
 */
final class DirectCommands {
    private DirectCommands() {
    }

    /** Runs {@code args} when they are a plain bulk read: its exit code; {@code null} when picocli must run them. */
    static Integer execute(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length < 2) {
            return null;
        }
        if (args[0].equals("ledger") && args[1].equals("stats")) {
            LedgerCommand.Stats stats = new LedgerCommand.Stats();
            stats.output = new JsonOption();
            stats.project = new ProjectDirOption();
            Options o = new Options(args);
            while (o.next()) {
                if (o.flag("--json")) {
                    stats.output.json = true;
                } else if (o.value("--project-dir")) {
                    stats.project.dir = o.path();
                } else if (o.value("--manifest")) {
                    stats.manifestFile = o.text();
                } else {
                    return null;
                }
                if (o.refused()) {
                    return null;
                }
            }
            return run(stats, null, out, err);
        }
        if (args[0].equals("guard") && args[1].equals("derive")) {
            GuardCommand.Derive derive = new GuardCommand.Derive();
            derive.output = new JsonOption();
            derive.project = new ProjectDirOption();
            Options o = new Options(args);
            while (o.next()) {
                if (o.flag("--json")) {
                    derive.output.json = true;
                } else if (o.value("--project-dir")) {
                    derive.project.dir = o.path();
                } else if (o.value("--since")) {
                    derive.since = o.text();
                } else {
                    return null;
                }
                if (o.refused()) {
                    return null;
                }
            }
            return run(null, derive, out, err);
        }
        return null;
    }

    /** Runs one of the commands as picocli's {@code execute} would, an exception it throws reported as picocli's handler reports it. */
    private static int run(LedgerCommand.Stats stats, GuardCommand.Derive derive, PrintWriter out, PrintWriter err) {
        try {
            return stats != null ? stats.run(out, err) : derive.run(out, err);
        } catch (Exception e) {
            err.println(CliErrors.failed(stats != null ? "warden ledger stats" : "warden guard derive", e));
            return ExitCode.UNREADABLE.code();
        }
    }

    /** The options after a command's two words, one at a time. */
    private static final class Options {
        private final String[] args;
        private int next = 2;
        private String arg;
        private String value;
        private final java.util.Set<String> seen = new java.util.HashSet<>();
        private boolean refused;

        Options(String[] args) {
            this.args = args;
        }

        /** Moves to the next option; {@code false} when none is left. */
        boolean next() {
            if (next >= args.length) {
                return false;
            }
            arg = args[next++];
            value = null;
            return true;
        }

        /** Whether the option is the flag {@code name} (given once so far). */
        boolean flag(String name) {
            if (!arg.equals(name)) {
                return false;
            }
            refused |= !seen.add(name);
            return true;
        }

        /**
         * Whether the option is {@code name} with a value ({@code name value} or {@code name=value});
         * a repeat, a missing value or one starting with {@code -} or {@code @} is refused.
         */
        boolean value(String name) {
            if (arg.equals(name)) {
                value = next < args.length ? args[next++] : null;
            } else if (arg.startsWith(name + "=")) {
                value = arg.substring(name.length() + 1);
            } else {
                return false;
            }
            refused |= !seen.add(name) || value == null || value.isEmpty() || value.startsWith("-")
                    || value.startsWith("@");
            return true;
        }

        String text() {
            return value;
        }

        /** The value as picocli converts a {@link Path}; a value that is no path is refused. */
        Path path() {
            if (refused) {
                return null;
            }
            try {
                return Path.of(value);
            } catch (InvalidPathException e) {
                refused = true;
                return null;
            }
        }

        boolean refused() {
            return refused;
        }
    }
}
