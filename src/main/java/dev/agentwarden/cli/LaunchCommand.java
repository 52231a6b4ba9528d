package dev.agentwarden.cli;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.agentfile.AttachForm;
import dev.agentwarden.launch.AgentResolver;
import dev.agentwarden.integrity.AgentSelection;
import dev.agentwarden.integrity.GateSession;
import dev.agentwarden.integrity.GateVerdict;
import dev.agentwarden.integrity.IntegrityGate;
import dev.agentwarden.launch.ModelProxy;
import dev.agentwarden.release.ReleaseFloor;
import dev.agentwarden.release.ReleaseStoreException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code warden launch}: the integrity gate in front of a host process.
 *
 * <p>It resolves the agent like Copilot CLI, records the selection, reads the file once, and hands
 * the host exactly the bytes it verified: they are written to a private copy ({@code 0400} in a
 * {@code 0700} temporary directory), hashed again from that copy as the attached artifact, and named
 * to the host by the {@value #PLACEHOLDER} placeholder in the host command and by
 * {@code $WARDEN_AGENT_FILE}; {@code --payload-stdin} also pipes them to the host's stdin. A host
 * that reads the copy never re-reads the project file, so nothing changed between check and use
 * can reach it. A host that resolves the agent by name itself (plain {@code copilot --agent squad})
 * re-reads the project file; launch says so. Java cannot replace its own process, so the host runs
 * as a child with the terminal inherited, and launch exits with the host's status. The report goes
 * to stderr so the host owns stdout.
 */
@Command(name = "launch", description = {
        "Gate a host: resolve --agent-id like Copilot CLI, read it once, verify it, and only then run the host command",
        "with the verified bytes (" + LaunchCommand.PLACEHOLDER + " in the command, $WARDEN_AGENT_FILE, or --payload-stdin).",
        "Exit: the host's status; 3 when the gate halts (the host is not started); 2 for usage errors."})
final class LaunchCommand implements Callable<Integer> {
    static final String PLACEHOLDER = "{agent_file}";

    @Spec
    CommandSpec spec;

    @Option(names = "--agent-id", paramLabel = "ID", description = "Required. The agent to resolve, as Copilot CLI's --agent names it (squad).")
    String agent;
    @Option(names = "--client-id", paramLabel = "ID", description = "Required. The host client the release is for (copilot-cli).")
    String client;
    @Option(names = "--client-version", required = true, paramLabel = "V", description = "The host client's version (1.0.3).")
    String clientVersion;

    @Option(names = "--agent", hidden = true, paramLabel = "ID", description = "Old name of --agent-id.")
    void oldAgent(String id) {
        agent = id;
    }

    @Option(names = "--client", hidden = true, paramLabel = "ID", description = "Old name of --client-id.")
    void oldClient(String id) {
        client = id;
    }
    @Option(names = "--agent-version", paramLabel = "V",
            description = "The agent/template version the host expects (never taken from the file).")
    String agentVersion;

    @Option(names = "--role", description = "custom_agent.role, e.g. root-coordinator.") String role;

    @ArgGroup(exclusive = false)
    IntegrityCommand.ProfileOptions profile = new IntegrityCommand.ProfileOptions();

    @Option(names = "--release-manifest", paramLabel = "M", description = "Release manifest to check the agent file against.")
    Path releaseManifest;
    @Option(names = "--trust-root", paramLabel = "R", description = "Trust root of a signed --release-manifest.")
    Path trustRoot;
    @Option(names = "--require-trusted-manifest",
            description = "Halt (the host is not started) unless the release manifest is verified against --trust-root.")
    boolean requireTrusted;
    @Option(names = "--max-bytes", defaultValue = "1048576", description = "Largest agent file read (default: 1048576).")
    long maxBytes;
    @Option(names = "--payload-stdin", description = "Also write the verified bytes to the host's stdin.")
    boolean payloadStdin;

    @Option(names = "--observe-prompt", description = {"Gate every model request instead of the file: run the host"
            + " against a loopback proxy to --upstream that forwards a request only when the agent's payload in it is"
            + " intact (see README, Integrity gate)."})
    boolean observePrompt;
    @Option(names = "--upstream", paramLabel = "URL",
            description = "With --observe-prompt: the provider's base URL the host would use (https, or http to loopback).")
    URI upstream;
    @Option(names = "--base-url-env", paramLabel = "NAME", description = {"With --observe-prompt: the host variable"
            + " set to the proxy URL (default by --client-id: copilot* COPILOT_PROVIDER_BASE_URL, claude* ANTHROPIC_BASE_URL,"
            + " gemini* GOOGLE_GEMINI_BASE_URL); " + ObservedLaunch.PROXY_PLACEHOLDER + " in the command also names it."})
    String baseUrlEnv;
    @Option(names = "--attach-form", paramLabel = "FORM", description = {"With --observe-prompt: what of the agent file"
            + " the host puts in its requests: agent-body-lf (Copilot: front matter removed, CRLF as LF, trimmed),"
            + " agent-body (Claude Code: front matter removed, trimmed) or file (default by --client-id)."})
    String attachForm;
    @Option(names = "--upstream-timeout-ms", defaultValue = "300000", paramLabel = "MS",
            description = "With --observe-prompt: deadline for the provider's response head, and for each gap in its body (default: 300000).")
    long upstreamTimeoutMs;
    @Option(names = "--max-request-bytes", defaultValue = "33554432", paramLabel = "N",
            description = "With --observe-prompt: largest model request accepted from the host (default: 33554432).")
    long maxRequestBytes;

    @Parameters(arity = "1..*", paramLabel = "HOST_COMMAND", description = "The host command, after --.")
    List<String> command;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        RenamedOption.require(spec, agent, "--agent-id", "ID");
        RenamedOption.require(spec, client, "--client-id", "ID");
        Map<String, String> env = WardenCli.env(spec);
        Path cwd = Path.of("").toAbsolutePath();
        AgentResolver.Resolution resolution;
        IntegrityGate gate;
        try {
            resolution = AgentResolver.resolve(agent, cwd, env);
            // the agent is found from the git root, as Copilot CLI does; the evidence and release floor
            // belong to the project every other command and hook resolves (a monorepo package's .warden/)
            Path project = Path.of(WorkspaceRoot.resolve(null, Map.of(), env, cwd, Hosts.projectDirVariables()));
            Path stateHome = WorkspaceRoot.stateHome(project.toString());
            gate = IntegrityGate.builder()
                    .profile(profile.resolve())
                    .release(IntegrityCommand.releaseSource(releaseManifest, trustRoot, requireTrusted,
                            ReleaseFloor.forProject(project, env), err))
                    .projectEvidenceLog(stateHome)
                    .clock(Clock.systemUTC())
                    .maxBytes(maxBytes)
                    .requireTrustedManifest(requireTrusted)
                    .sessionPrefix("launch")
                    .build();
        } catch (IllegalArgumentException | IntegrityException | ReleaseStoreException e) {
            err.println("warden launch: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        if (observePrompt && (upstream == null || payloadStdin)) {
            err.println("warden launch: --observe-prompt needs --upstream URL (the provider the host would call)"
                    + " and takes no --payload-stdin");
            return ExitCode.UNREADABLE.code();
        }
        if (observePrompt && (upstreamTimeoutMs < 1 || maxRequestBytes < 1 || maxRequestBytes > Integer.MAX_VALUE - 8)) {
            err.println("warden launch: --upstream-timeout-ms and --max-request-bytes must be positive (at most 2 GiB)");
            return ExitCode.UNREADABLE.code();
        }
        AttachForm form;
        try {
            form = attachForm != null ? AttachForm.of(attachForm) : ObservedLaunch.attachForm(client);
        } catch (IllegalArgumentException e) {
            err.println("warden launch: --attach-form: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        printResolution(err, resolution);
        Path file = resolution.chosen() != null ? resolution.chosen() : resolution.searched().get(0);
        AgentSelection selection = AgentSelection.of(agent, file)
                .withFileLabel(resolution.chosen() != null ? resolution.fileLabel() : resolution.root().relativize(file).toString())
                .withRole(role)
                .withAgentVersion(agentVersion)
                .withClient(client, clientVersion)
                .withResolution(resolution.location() != null ? resolution.location().label() : "not_found");
        GateSession session = gate.select(selection);
        byte[] payload = session.read();
        if (observePrompt && session.readStatus() == ReadStatus.LOADED) {
            err.println("session " + session.id() + " (selection and read; each model request is gated)");
            return ObservedLaunch.run(err, gate, selection, profile.resolve(), form, session, upstream,
                    baseUrlEnv != null ? baseUrlEnv : ObservedLaunch.baseUrlEnv(client),
                    new ModelProxy.Limits(5_000, 60_000, maxRequestBytes, 10_000, upstreamTimeoutMs, upstreamTimeoutMs),
                    command, env);
        }
        Path privateDir = null;
        Path copy = null;
        try {
            if (session.readStatus() == ReadStatus.LOADED) {
                privateDir = Files.createTempDirectory("warden-launch-",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                copy = privateDir.resolve(agent + ".agent.md");
                Files.write(copy, payload);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("r--------"));
                byte[] handed = IntegrityCommand.readBounded(copy, maxBytes);
                session.attach(handed, payloadStdin ? "launch.copy+stdin" : "launch.copy");
            } else {
                session.notAttached("nothing_handed_over: the read was " + session.readStatus(), "launch.copy");
            }
            GateVerdict verdict = session.verdict();
            err.println("session " + verdict.session() + "  evidence " + verdict.evidenceLog());
            IntegrityReport.printEvents(err, verdict.eventLines(), "");
            IntegrityReport.printOutcome(err, verdict.evaluation(), "");
            if (verdict.halts()) {
                err.println("warden launch: HALT " + verdict.outcome() + "; the host was not started");
                return ExitCode.HALT.code();
            }
            return runHost(err, verdict, copy, payload);
        } catch (IOException | IntegrityException e) {
            err.println("warden launch: cannot hand the verified payload over: " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        } finally {
            deletePrivate(privateDir, copy);
        }
    }

    private int runHost(PrintWriter err, GateVerdict verdict, Path copy, byte[] payload)
            throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(command.size());
        int substituted = 0;
        for (String arg : command) {
            if (arg.contains(PLACEHOLDER)) {
                substituted++;
            }
            argv.add(arg.replace(PLACEHOLDER, copy.toString()));
        }
        err.println("handing the host " + copy + " (sha256 " + Sha256.hex(payload) + ")"
                + (substituted > 0 ? "; " + PLACEHOLDER + " substituted in " + substituted + " argument(s)" : "")
                + (payloadStdin ? "; bytes piped to stdin" : ""));
        if (substituted == 0 && !payloadStdin) {
            err.println("note: the host command does not name " + PLACEHOLDER + "; a host that resolves '" + agent
                    + "' itself re-reads the project file instead of the verified copy unless it reads $WARDEN_AGENT_FILE");
        }
        err.flush();
        ProcessBuilder pb = new ProcessBuilder(argv).inheritIO();
        if (payloadStdin) {
            pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        }
        pb.environment().put("WARDEN_AGENT_ID", agent);
        pb.environment().put("WARDEN_AGENT_FILE", copy.toString());
        pb.environment().put("WARDEN_AGENT_SHA256", Sha256.hex(payload));
        pb.environment().put("WARDEN_INTEGRITY_SESSION", verdict.session());
        pb.environment().put("WARDEN_INTEGRITY_OUTCOME", verdict.outcome().name());
        if (verdict.evidenceLog() != null) {
            pb.environment().put("WARDEN_INTEGRITY_EVIDENCE", verdict.evidenceLog().toString());
        }
        Process host;
        try {
            host = pb.start();
        } catch (IOException e) {
            err.println("warden launch: cannot start host command '" + argv.get(0) + "': " + e.getMessage());
            return ExitCode.UNREADABLE.code();
        }
        Thread stop = new Thread(host::destroy);
        Runtime.getRuntime().addShutdownHook(stop);
        try {
            if (payloadStdin) {
                try (OutputStream in = host.getOutputStream()) {
                    in.write(payload);
                } catch (IOException e) {
                    err.println("warden launch: the host closed stdin early: " + e.getMessage());
                }
            }
            return host.waitFor();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
        }
    }

    private static void printResolution(PrintWriter err, AgentResolver.Resolution r) {
        String root = (r.gitRoot() ? "git root " : "no git root; searched from ") + r.root();
        if (r.chosen() == null) {
            err.println("No such agent: " + r.agentId() + ", available: "
                    + (r.available().isEmpty() ? "(none)" : String.join(", ", r.available())) + "  [" + root + "]");
            return;
        }
        err.println("agent " + r.agentId() + ": " + r.chosen() + "  (won: " + r.location().label() + "; " + root + ")");
        for (Path p : r.shadowed()) {
            err.println("  shadowed: " + p);
        }
    }

    private static void deletePrivate(Path dir, Path copy) {
        try {
            if (copy != null) {
                Files.deleteIfExists(copy);
            }
            if (dir != null) {
                Files.deleteIfExists(dir);
            }
        } catch (IOException ignored) {
            // a leftover private copy in the temp directory is harmless
        }
    }
}
