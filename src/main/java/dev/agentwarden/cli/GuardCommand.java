package dev.agentwarden.cli;

import dev.agentwarden.guard.GuardDerivation;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.LedgerPaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code warden guard derive}: the spawn guard's threshold from its shadow evidence. */
@Command(name = "guard", description = "Derive and inspect the spawn guard's threshold.",
        subcommands = {GuardCommand.Derive.class})
final class GuardCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Distributions, p99 + 1 thresholds, candidate would-deny rates and the flip criteria. */
    @Command(name = "derive", description = "Read spawn-guard lines and report concurrency and depth distributions, "
            + "the p99+1 threshold with its sample size, each candidate's would-deny rate, and whether the "
            + "activation policy's flip criteria hold.")
    static final class Derive implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--since", paramLabel = "DATE", description = "Only lines at or after DATE (YYYY-MM-DD, UTC) "
                + "or an ISO-8601 instant.")
        String since;

        @Mixin
        JsonOption output;

        @Mixin
        ProjectDirOption project;

        @Override
        public Integer call() throws IOException {
            return run(spec.commandLine().getOut(), spec.commandLine().getErr());
        }

        /** The command, its options set, writing to {@code out} and {@code err}; returns the exit code. */
        int run(PrintWriter out, PrintWriter err) throws IOException {
            Instant from = null;
            if (since != null) {
                from = parseSince(since);
                if (from == null) {
                    err.println("warden guard derive: guard_since_invalid: '" + since
                            + "' is neither YYYY-MM-DD nor an ISO-8601 instant");
                    return ExitCode.UNREADABLE.code();
                }
            }
            GuardDerivation.Report report = GuardDerivation.derive(LedgerPaths.forRoot(project.root()), from,
                    ReadProgress.onStderr("warden guard derive: reading the ledger"));
            if (output.json) {
                out.println(Json.write(report.toJson()));
            } else {
                report.printText(out);
            }
            return LedgerCommand.unreadExit(report.unreadSegments(), "warden guard derive", err);
        }

        static Instant parseSince(String text) {
            try {
                return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException notADate) {
                try {
                    return Instant.parse(text);
                } catch (DateTimeParseException notAnInstant) {
                    return null;
                }
            }
        }
    }
}
