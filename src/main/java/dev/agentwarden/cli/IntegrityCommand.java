package dev.agentwarden.cli;

import dev.agentwarden.integrity.EvidenceReplay.IntegrityStats;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.integrity.fixture.AcceptanceFixtures;
import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.EvidenceReplay;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.integrity.Outcome;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.json.Json;
import dev.agentwarden.release.ReleaseFloor;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import dev.agentwarden.release.ReleaseStoreException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code warden integrity check|evaluate|stats|fixtures}: the pre-ingestion integrity gate. */
@Command(name = "integrity", description = "Pre-ingestion integrity gate for agent payloads (docs/integrity-gate.md).",
        subcommands = {IntegrityCommand.Check.class, IntegrityCommand.Evaluate.class, IntegrityCommand.Stats.class,
                IntegrityCommand.Fixtures.class})
final class IntegrityCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Boundary-profile options shared by the commands that read agent files. */
    static final class ProfileOptions {
        @Option(names = "--profile", defaultValue = "squad",
                description = "Completeness proof: squad (Squad canaries), markers (--head-marker/--eof-marker), none"
                        + " (expected length from the release manifest). Default: ${DEFAULT-VALUE}.")
        String profile;

        @Option(names = "--head-marker", description = "Head marker for --profile markers (optional).")
        String headMarker;

        @Option(names = "--eof-marker", description = "EOF marker for --profile markers.")
        String eofMarker;

        BoundaryProfile resolve() {
            return BoundaryProfile.of(profile, headMarker, eofMarker);
        }
    }

    /**
     * Opens the release manifest (signed when a trust root is given), or fails with a usage error
     * naming the file and defect. An untrusted signed manifest is said loudly on {@code err}. When a
     * trusted manifest is required, a manifest without a trust root is not read: every lookup is
     * UNTRUSTED and the gate halts.
     */
    static ReleaseSource releaseSource(Path manifest, Path trustRoot, boolean requireTrusted, ReleaseFloor floor,
                                       PrintWriter err) {
        String consequence = requireTrusted ? "the gate halts (--require-trusted-manifest)"
                : "release_integrity will be UNREGISTERED";
        if (requireTrusted && manifest != null && trustRoot == null) {
            err.println("warden: release manifest " + manifest + " is UNTRUSTED (release_manifest_unsigned: no"
                    + " --trust-root to verify it against); " + consequence);
            err.flush();
            return ReleaseSources.unverified(manifest);
        }
        ReleaseSource source = ReleaseSources.open(manifest, trustRoot, floor, Clock.systemUTC());
        String untrusted = ReleaseSources.untrustedDetail(source);
        if (untrusted != null) {
            err.println("warden: release manifest " + manifest + " is UNTRUSTED (" + untrusted + "); " + consequence);
            err.flush();
        }
        return source;
    }

    /** {@code warden integrity check}: one session over files on disk. */
    @Command(name = "check", description = {
            "Evaluate one session: select the agent file, read it once, compare it with the attached artifact.",
            "Exit 0 for LOADED, LOADED_WITH_REPORT and SKIP; 3 for a halt; 2 for usage or unreadable input."})
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--agent-file", required = true, paramLabel = "F", description = "The agent file the host selected.")
        Path agentFile;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Attachment attachment;

        static final class Attachment {
            @Option(names = "--attached", paramLabel = "G",
                    description = "The payload as it stands in the assembled prompt (empty file: nothing attached).")
            Path attached;

            @Option(names = "--not-selected", description = "The host proves the agent was not selected (SKIP).")
            boolean notSelected;
        }

        @Option(names = "--agent-version", required = true, paramLabel = "V", description = "The agent/template version the host expects.")
        String agentVersion;
        @Option(names = "--client-id", required = true, paramLabel = "C", description = "The host client (copilot-cli).")
        String clientId;
        @Option(names = "--client-version", required = true, paramLabel = "W", description = "The host client's version.")
        String clientVersion;

        @Option(names = "--agent-id", paramLabel = "ID", description = "Agent id (default: the file name without .agent.md / .md).")
        String agent;

        @Option(names = "--agent", hidden = true, paramLabel = "ID", description = "Old name of --agent-id.")
        void oldAgent(String id) {
            agent = id;
        }

        @Option(names = "--role", description = "custom_agent.role, e.g. root-coordinator.")
        String role;

        @Option(names = "--selected-instead", defaultValue = "default",
                description = "With --not-selected: what the host selected instead. Default: ${DEFAULT-VALUE}.")
        String selectedInstead;

        @ArgGroup(exclusive = false)
        ProfileOptions profile = new ProfileOptions();

        @Option(names = "--release-manifest", paramLabel = "M",
                description = "Trusted release manifest: a JSON list of entries, or a signed manifest with --trust-root.")
        Path releaseManifest;

        @Option(names = "--trust-root", paramLabel = "R", description = "Trust root (root.json) of a signed --release-manifest.")
        Path trustRoot;

        @Option(names = "--require-trusted-manifest",
                description = "Halt (UNKNOWN_HALT) unless the release manifest is signed and verified against --trust-root.")
        boolean requireTrusted;

        @Option(names = "--max-bytes", defaultValue = "1048576", description = "Largest file read. Default: ${DEFAULT-VALUE}.")
        long maxBytes;

        @Mixin
        ProjectDirOption project;

        @Mixin
        JsonOption output;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            byte[] attached = null;
            IntegrityGate gate;
            try {
                Map<String, String> env = WardenCli.env(spec);
                ReleaseFloor floor = ReleaseFloor.forProject(Path.of(project.root(env)), env);
                if (attachment.attached != null) {
                    attached = readBounded(attachment.attached, maxBytes);
                }
                gate = IntegrityGate.builder()
                        .profile(profile.resolve())
                        .release(releaseSource(releaseManifest, trustRoot, requireTrusted, floor, err))
                        .projectEvidenceLog(project.stateHome())
                        .clock(Clock.systemUTC())
                        .maxBytes(maxBytes)
                        .requireTrustedManifest(requireTrusted)
                        .sessionPrefix("check")
                        .build();
            } catch (IllegalArgumentException | IntegrityException | ReleaseStoreException e) {
                err.println("warden integrity check: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            String name = agent != null ? agent : agentId(agentFile);
            GateVerdict verdict;
            if (attachment.notSelected) {
                verdict = gate.notSelected(name, selectedInstead, "host_selection_state: --not-selected");
            } else {
                GateSession session = gate.select(AgentSelection.of(name, agentFile)
                        .withRole(role)
                        .withAgentVersion(agentVersion)
                        .withClient(clientId, clientVersion)
                        .withResolution("--agent-file"));
                session.read();
                session.attach(attached, "check --attached " + attachment.attached);
                verdict = session.verdict();
            }
            if (output.json) {
                out.println(Json.write(IntegrityReport.json(verdict)));
            } else {
                out.println("session " + verdict.session() + "  evidence " + verdict.evidenceLog());
                IntegrityReport.printEvents(out, verdict.eventLines(), "");
                IntegrityReport.printShas(out, verdict, "");
                IntegrityReport.printOutcome(out, verdict.evaluation(), "");
            }
            return verdict.halts() ? ExitCode.HALT.code() : ExitCode.OK.code();
        }
    }

    /** {@code warden integrity evaluate}: re-evaluates an evidence log from its raw events. */
    @Command(name = "evaluate", description = {
            "Re-evaluate sessions from the raw events of an evidence log; recorded verdicts are only compared.",
            "Exit 1 when recorded verdicts disagree or lines are refused, else 3 when a session halts, else 0;"
                    + " 2 when the log cannot be read."})
    static final class Evaluate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--evidence", required = true, paramLabel = "FILE", description = "The evidence log to evaluate.")
        Path evidence;

        @Option(names = "--session", description = "Only this session.") String session;

        @Option(names = "--release-manifest", paramLabel = "M",
                description = "Trusted manifest to judge releases by (default: the file each session recorded).")
        Path releaseManifest;

        @Option(names = "--trust-root", paramLabel = "R", description = "Trust root of a signed --release-manifest.")
        Path trustRoot;

        @Mixin
        JsonOption output;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            EvidenceReplay.Report report;
            try {
                report = EvidenceReplay.replay(evidence, releaseManifest == null ? null
                        : releaseSource(releaseManifest, trustRoot, false, null, spec.commandLine().getErr()));
            } catch (IllegalArgumentException | IntegrityException | ReleaseStoreException e) {
                spec.commandLine().getErr().println("warden integrity evaluate: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            List<EvidenceReplay.SessionResult> sessions = new ArrayList<>();
            for (EvidenceReplay.SessionResult s : report.sessions()) {
                if (session == null || session.equals(s.session())) {
                    sessions.add(s);
                }
            }
            if (session != null && sessions.isEmpty()) {
                spec.commandLine().getErr().println("warden integrity evaluate: no session '" + session + "' in " + evidence);
                return ExitCode.UNREADABLE.code();
            }
            boolean disagree = sessions.stream().anyMatch(s -> !s.disagreements().isEmpty())
                    || (session == null && !report.unattributed().isEmpty());
            boolean halts = sessions.stream().anyMatch(s -> s.recomputed().outcome().halts());
            if (output.json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("evidence", evidence.toString());
                List<Object> list = new ArrayList<>();
                for (EvidenceReplay.SessionResult s : sessions) {
                    list.add(sessionJson(s));
                }
                o.put("sessions", list);
                o.put("unattributed_problems", new ArrayList<Object>(report.unattributed()));
                out.println(Json.write(o));
            } else {
                for (EvidenceReplay.SessionResult s : sessions) {
                    out.println("session " + s.session());
                    IntegrityReport.printEvents(out, s.eventLines(), "  ");
                    for (String p : s.problems()) {
                        out.println("  refused " + p);
                    }
                    out.println("  recomputed: transport_integrity=" + orDash(s.recomputed().transportValue())
                            + "  release_integrity=" + orDash(s.recomputed().releaseValue()));
                    IntegrityReport.printOutcome(out, s.recomputed(), "  ");
                    out.println("  recorded outcome: " + (s.recordedOutcome() == null ? "—" : s.recordedOutcome())
                            + (s.disagreements().isEmpty() ? "  (agrees)" : ""));
                    for (String d : s.disagreements()) {
                        out.println("  DISAGREES " + d);
                    }
                    for (String n : s.notes()) {
                        out.println("  note: " + n);
                    }
                }
                for (String p : session == null ? report.unattributed() : List.<String>of()) {
                    out.println("refused " + p);
                }
            }
            return disagree ? ExitCode.FINDINGS.code() : halts ? ExitCode.HALT.code() : ExitCode.OK.code();
        }

        private static Map<String, Object> sessionJson(EvidenceReplay.SessionResult s) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("session", s.session());
            o.put("events", new ArrayList<Object>(s.eventNames()));
            o.put("transport_integrity", s.recomputed().transportValue() == null ? null : s.recomputed().transportValue().name());
            o.put("release_integrity", s.recomputed().releaseValue() == null ? null : s.recomputed().releaseValue().name());
            o.put("outcome", s.recomputed().outcome().name());
            o.put("reasons", new ArrayList<Object>(s.recomputed().reasons()));
            o.put("recorded_outcome", s.recordedOutcome() == null ? null : s.recordedOutcome().name());
            o.put("disagreements", new ArrayList<Object>(s.disagreements()));
            o.put("problems", new ArrayList<Object>(s.problems()));
            o.put("notes", new ArrayList<Object>(s.notes()));
            return o;
        }
    }

    /** {@code warden integrity stats}: outcome counts and the healthy-session false-halt rate. */
    @Command(name = "stats", description = {
            "Count recomputed outcomes in an evidence log; HALT_CORRUPT and UNKNOWN_HALT are never pooled.",
            "Also reports the false-halt rate over healthy sessions (transport INTACT, release UNREGISTERED)."})
    static final class Stats implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--evidence", paramLabel = "FILE", description = "Evidence log (default: the project's).")
        Path evidence;

        @Mixin
        ProjectDirOption project;

        @Option(names = "--release-manifest", paramLabel = "M", description = "Release manifest to judge releases by.")
        Path releaseManifest;

        @Option(names = "--trust-root", paramLabel = "R", description = "Trust root of a signed --release-manifest.")
        Path trustRoot;

        @Mixin
        JsonOption output;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Path file = evidence != null ? evidence : IntegrityGate.evidenceLogFile(project.stateHome());
            IntegrityStats stats;
            if (evidence == null && !Files.exists(file)) {
                stats = IntegrityStats.of(new EvidenceReplay.Report(file, List.of(), List.of()));
            } else {
                try {
                    stats = IntegrityStats.of(EvidenceReplay.replay(file, releaseManifest == null ? null
                            : releaseSource(releaseManifest, trustRoot, false, null, spec.commandLine().getErr())));
                } catch (IllegalArgumentException | IntegrityException | ReleaseStoreException e) {
                    spec.commandLine().getErr().println("warden integrity stats: " + e.getMessage());
                    return ExitCode.UNREADABLE.code();
                }
            }
            if (output.json) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("evidence", file.toString());
                o.put("sessions", (long) stats.sessions());
                Map<String, Object> outcomes = new LinkedHashMap<>();
                for (Outcome oc : Outcome.values()) {
                    outcomes.put(oc.name(), (long) stats.count(oc));
                }
                o.put("outcomes", outcomes);
                o.put("healthy_sessions", (long) stats.healthy());
                o.put("healthy_halts", (long) stats.healthyHalts());
                o.put("false_halt_rate", stats.falseHaltRate());
                o.put("untrusted_manifest_sessions", (long) stats.untrustedManifest());
                o.put("disagreeing_sessions", stats.disagreeing());
                o.put("invalid_lines", stats.invalidLines());
                out.println(Json.write(o));
            } else {
                out.println("evidence: " + file + "  sessions: " + stats.sessions());
                out.printf("  %-22s %8s   %s%n", "OUTCOME", "SESSIONS", "WHAT IT MEANS");
                out.printf("  %-22s %6d%n", "LOADED", stats.count(Outcome.LOADED));
                out.printf("  %-22s %6d   unregistered-local / unregistered-release, reported%n", "LOADED_WITH_REPORT",
                        stats.count(Outcome.LOADED_WITH_REPORT));
                out.printf("  %-22s %6d   proven non-selection%n", "SKIP", stats.count(Outcome.SKIP));
                out.printf("  %-22s %6d   proven wrong or mutated release%n", "HALT_RELEASE_MISMATCH",
                        stats.count(Outcome.HALT_RELEASE_MISMATCH));
                out.printf("  %-22s %6d   proven read/assembly loss%n", "HALT_CORRUPT", stats.count(Outcome.HALT_CORRUPT));
                out.printf("  %-22s %6d   insufficient evidence, not counted as corruption%n", "UNKNOWN_HALT",
                        stats.count(Outcome.UNKNOWN_HALT));
                int halted = 0;
                for (Outcome oc : Outcome.values()) {
                    halted += oc.halts() ? stats.count(oc) : 0;
                }
                out.println("halted sessions, all outcomes: " + halted);
                out.printf("healthy sessions (transport INTACT, release UNREGISTERED, manifest trusted): %d, of which"
                        + " halted (false halts): %d; false-halt rate %.1f%%%n", stats.healthy(), stats.healthyHalts(),
                        100 * stats.falseHaltRate());
                out.println("judged against an untrusted manifest: " + stats.untrustedManifest()
                        + "; recorded verdicts disagreeing with replay: " + stats.disagreeing()
                        + "; refused lines: " + stats.invalidLines());
            }
            return ExitCode.OK.code();
        }
    }

    /** {@code warden integrity fixtures}: the seed's six acceptance fixtures on generated artifacts. */
    @Command(name = "fixtures", description = {
            "Run the six acceptance fixtures of docs/integrity-gate.md on generated artifacts and print the ordered evidence.",
            "Exit 0 when all pass, 1 otherwise."})
    static final class Fixtures implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        JsonOption output;

        @Option(names = "--work-dir", description = "Generate into this directory and keep it (default: a temporary one).")
        Path workDir;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("warden-fixtures-");
            List<AcceptanceFixtures.Run> runs;
            try {
                runs = AcceptanceFixtures.run(dir, Clock.systemUTC());
            } finally {
                if (workDir == null) {
                    DemoCommand.deleteTree(dir);
                }
            }
            boolean passed = runs.stream().allMatch(AcceptanceFixtures.Run::passed);
            if (output.json) {
                List<Object> list = new ArrayList<>();
                for (AcceptanceFixtures.Run r : runs) {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("fixture", (long) r.fixture().number());
                    o.put("title", r.fixture().title());
                    o.put("expected_outcome", r.fixture().expected().name());
                    o.put("passed", r.passed());
                    o.put("failures", new ArrayList<Object>(r.failures()));
                    o.putAll(IntegrityReport.json(r.verdict()));
                    if (workDir == null) {
                        o.put("evidence_log", null);
                    }
                    list.add(o);
                }
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("passed", passed);
                doc.put("fixtures", list);
                out.println(Json.write(doc));
            } else {
                printFixtures(out, runs);
                if (workDir != null) {
                    out.println("artifacts and evidence kept in " + dir);
                }
            }
            return passed ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }
    }

    /** The human report of fixture runs (also used by the demo). */
    static void printFixtures(PrintWriter out, List<AcceptanceFixtures.Run> runs) {
        int passed = 0;
        for (AcceptanceFixtures.Run r : runs) {
            out.printf("Fixture %d. %s — expected %s, got %s: %s%n", r.fixture().number(), r.fixture().title(),
                    r.fixture().expected(), r.verdict().outcome(), r.passed() ? "PASS" : "FAIL");
            out.println("   setup: " + r.fixture().setup());
            IntegrityReport.printEvents(out, r.verdict().eventLines(), "   ");
            out.println("   transport_integrity=" + orDash(r.verdict().evaluation().transportValue())
                    + "  release_integrity=" + orDash(r.verdict().evaluation().releaseValue()));
            IntegrityReport.printShas(out, r.verdict(), "   ");
            IntegrityReport.printOutcome(out, r.verdict().evaluation(), "   ");
            for (String f : r.failures()) {
                out.println("   FAILURE: " + f);
            }
            if (r.passed()) {
                passed++;
            }
            out.println();
        }
        out.println(passed + "/" + runs.size() + " fixtures pass (outcome, ordered evidence, and a replay of the evidence"
                + " log agree)");
    }

    static String orDash(Object value) {
        return value == null ? "—" : value.toString();
    }

    /** The agent id of a file name: without {@code .agent.md} or {@code .md}. */
    static String agentId(Path file) {
        String name = file.getFileName().toString();
        if (name.endsWith(".agent.md")) {
            return name.substring(0, name.length() - ".agent.md".length());
        }
        return name.endsWith(".md") ? name.substring(0, name.length() - ".md".length()) : name;
    }

    /** Reads a whole regular file of at most {@code max} bytes (a link is followed to a regular file; a FIFO or device is refused unopened). */
    static byte[] readBounded(Path file, long max) {
        if (max < 1 || max > IntegrityGate.MAX_MAX_BYTES) {
            throw new IllegalArgumentException("--max-bytes must be within 1.." + IntegrityGate.MAX_MAX_BYTES);
        }
        try {
            return StateFiles.readAll(file, max, true);
        } catch (NoSuchFileException e) {
            throw new IntegrityException("attached_unreadable", file + " does not exist");
        } catch (UnsafeFileException e) {
            throw new IntegrityException("file_too_large".equals(e.code()) ? "attached_too_large" : "attached_unreadable",
                    "file_too_large".equals(e.code()) ? file + " is over " + max + " bytes (--max-bytes)" : e.getMessage());
        } catch (IOException e) {
            throw new IntegrityException("attached_unreadable", file + ": " + e.getMessage());
        }
    }
}
