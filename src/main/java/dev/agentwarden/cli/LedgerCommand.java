package dev.agentwarden.cli;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.LedgerAnchor;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerProblem;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStats;
import dev.agentwarden.ledger.LedgerVerifier;
import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code warden ledger stats|verify|anchor}: reports on the subagent lifecycle ledger. */
@Command(name = "ledger", description = "Report on, verify and anchor the subagent lifecycle ledger.",
        subcommands = {LedgerCommand.Stats.class, LedgerCommand.Verify.class, LedgerCommand.Anchor.class})
final class LedgerCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Per-agent-type stats and the Phase-1 falsifier; budgets come from the manifest in force. */
    @Command(name = "stats", description = "Envelope return rate, durations, stop-loss arms, orphans, reaped and "
            + "unidentified counts per agent type, and the Phase-1 falsifier.")
    static final class Stats implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        JsonOption output;

        @Mixin
        ProjectDirOption project;

        @Option(names = "--manifest", description = "Manifest to read duration budgets from (default: the one in force).")
        String manifestFile;

        @Override
        public Integer call() throws IOException {
            return run(spec.commandLine().getOut(), spec.commandLine().getErr());
        }

        /** The command, its options set, writing to {@code out} and {@code err}; returns the exit code. */
        int run(PrintWriter out, PrintWriter err) throws IOException {
            LedgerPaths paths = LedgerPaths.forRoot(project.root());
            LedgerSettings settings;
            try {
                Manifest m = ManifestLoader.load(ManifestLoader.locate(manifestFile,
                        paths.stateHome().getParent().toString()), System.getenv());
                settings = ledgerSettings(m);
            } catch (ManifestException | IllegalArgumentException e) {
                err.println("warden ledger stats: manifest unusable, so duration budgets are unknown: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            LedgerStats.Report report = LedgerStats.compute(paths, settings, Clock.systemUTC(),
                    ReadProgress.onStderr("warden ledger stats: reading the ledger"));
            if (output.json) {
                out.println(Json.write(report.toJson()));
            } else {
                report.printText(out);
            }
            return unreadExit(report.unreadSegments(), "warden ledger stats", err);
        }

        /** The settings of the manifest's {@code subagent-ledger} built-in, or the defaults when none is declared. */
        static LedgerSettings ledgerSettings(Manifest m) {
            for (ConcernSpec c : m.concerns().values()) {
                if (c.isBuiltin() && c.builtinName().equals("subagent-ledger")) {
                    return LedgerSettings.from(c.settings());
                }
            }
            return LedgerSettings.DEFAULTS;
        }
    }

    /**
     * {@code OK}, or {@code UNREADABLE} with each segment that could not be read named on {@code err}:
     * an answer that leaves lines out is never given with exit 0.
     */
    static int unreadExit(List<LedgerProblem> unread, String command, PrintWriter err) {
        for (LedgerProblem p : unread) {
            err.println(command + ": " + p + "; the figures above leave that segment out");
        }
        return unread.isEmpty() ? ExitCode.OK.code() : ExitCode.UNREADABLE.code();
    }

    /** {@code --project-dir} and {@code --anchors}: the ledger a command reads and where its anchor lives. */
    static final class AnchoredLedger {
        @Mixin
        ProjectDirOption project;

        @Option(names = "--anchors", paramLabel = "DIR",
                description = "Directory of anchors (default: ${XDG_STATE_HOME:-~/.local/state}/agent-warden/anchors).")
        Path anchors;

        LedgerPaths paths() {
            return LedgerPaths.forRoot(project.root());
        }

        /** Where the anchor of {@code paths}' project lives: in {@code --anchors} when given, else in the user's state. */
        Path anchorFile(LedgerPaths paths) throws IOException {
            Path file = LedgerAnchor.fileFor(paths.root().toRealPath(), System.getenv());
            return anchors == null ? file : anchors.resolve(file.getFileName());
        }
    }

    /** Checks the hash chain, the head and the anchor; exit 0 intact, 1 integrity errors. */
    @Command(name = "verify", description = "Check the ledger's hash chain: detects edited, deleted and reordered "
            + "lines, lines cut from the end, a missing or damaged head, and (after `warden ledger anchor`) a "
            + "history rewritten or deleted before the anchored line; torn lines from crashes are warnings.")
    static final class Verify implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        AnchoredLedger ledger;

        @Mixin
        JsonOption output;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            LedgerPaths paths = ledger.paths();
            LedgerVerifier.Report report = LedgerVerifier.verifyAnchored(paths, ledger.anchorFile(paths),
                    ReadProgress.onStderr("warden ledger verify: walking the chain"));
            if (output.json) {
                out.println(Json.write(report.toJson()));
            } else if (!report.present() && report.problems().isEmpty()) {
                out.println("no ledger at " + paths.ledgerDir());
            } else {
                out.println("ledger: " + paths.ledgerDir());
                report.problems().forEach(p -> out.println("  " + p));
                long errors = report.problems().stream().filter(LedgerProblem::error).count();
                out.printf("%s: %d chain lines in %d segment(s), %d error(s), %d warning(s)%n",
                        report.intact() ? "intact" : "NOT intact", report.chainLines(), report.segments(), errors,
                        report.problems().size() - errors);
            }
            return report.intact() ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }
    }

    /** Writes the chain's last line to the user's own state, so that verify can detect a rewritten history. */
    @Command(name = "anchor", description = "Record the ledger's current last line (position and hash) outside the "
            + "project, in ${XDG_STATE_HOME:-~/.local/state}/agent-warden/anchors/; `warden ledger verify` then fails "
            + "when the history up to it was rewritten or deleted. Refuses a ledger that does not verify.")
    static final class Anchor implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        AnchoredLedger ledger;

        @Mixin
        JsonOption output;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            LedgerPaths paths = ledger.paths();
            Path file = ledger.anchorFile(paths);
            LedgerAnchor anchor;
            try {
                LedgerAnchor previous = LedgerAnchor.read(file);
                anchor = LedgerVerifier.position(paths, previous, paths.root().toRealPath().toString(),
                        Instant.now(Clock.systemUTC()).toString());
                anchor.write(file);
            } catch (IOException e) {
                spec.commandLine().getErr().println("warden ledger anchor: " + e.getMessage());
                return ExitCode.FINDINGS.code();
            }
            if (output.json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("anchor", file.toString());
                o.put("segment", anchor.segment());
                o.put("line", anchor.line());
                o.put("hash", anchor.hash());
                o.put("chain_lines", anchor.chainLines());
                out.println(Json.write(o));
            } else {
                out.println("anchored " + anchor.chainLines() + " chain lines, ending at " + anchor.segment() + ".jsonl:"
                        + anchor.line() + " (" + anchor.hash().substring(0, 12) + "), in " + file);
            }
            return ExitCode.OK.code();
        }
    }
}
