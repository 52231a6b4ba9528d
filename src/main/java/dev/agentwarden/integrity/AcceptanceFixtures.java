package dev.agentwarden.integrity;

import dev.agentwarden.release.ReleaseKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000's six acceptance fixtures, run for real: generated coordinator files on disk, a release
 * manifest file, the public gate API, an evidence log, and a replay of that log. A fixture passes
 * when its outcome and its ordered evidence are the expected ones and the replay of the written log
 * recomputes the same verdicts.
 */
public final class AcceptanceFixtures {
    /** The release the manifest registers, and the key hosts look it up by. */
    public static final String RELEASED_VERSION = "0.13.1";
    public static final String CLIENT_ID = "copilot-cli";
    public static final String CLIENT_VERSION = "1.0.3";
    /** Copilot's documented limit on a custom agent's prompt, in characters. */
    public static final int COPILOT_AGENT_PROMPT_CHARS = 30_000;

    private AcceptanceFixtures() {
    }

    /**
     * One fixture.
     *
     * @param number        1–6, as in the seed
     * @param title         the seed's name
     * @param setup         what is generated and done
     * @param expected      the expected outcome
     * @param expectedSteps the expected ordered evidence ({@code name=value})
     */
    public record Fixture(int number, String title, String setup, Outcome expected, List<String> expectedSteps) {
    }

    /**
     * One fixture's run.
     *
     * @param fixture  the fixture
     * @param verdict  what the gate decided, with the recorded events
     * @param replayed the replay of this session from the evidence log
     * @param failures why it failed; empty when it passed
     */
    public record Run(Fixture fixture, GateVerdict verdict, EvidenceReplay.SessionResult replayed, List<String> failures) {
        public boolean passed() {
            return failures.isEmpty();
        }
    }

    /** The six fixtures, in the seed's order. */
    public static List<Fixture> fixtures() {
        String sel = "selected_agent_id=squad";
        return List.of(
                new Fixture(1, "Full payload, registered",
                        "install of squad " + RELEASED_VERSION + " (own team block) read and attached whole; manifest registers the"
                                + " template with a squad-template normalized SHA",
                        Outcome.LOADED, List.of(sel, "payload_read_status=LOADED", "prompt_attach_status=ATTACHED_FULL",
                        "transport_integrity=INTACT", "release_integrity=VERIFIED")),
                new Fixture(2, "Head-only / oversized-prompt clip",
                        "same install read whole; the prompt keeps only the first " + COPILOT_AGENT_PROMPT_CHARS
                                + " characters (Copilot's custom-agent prompt limit)",
                        Outcome.HALT_CORRUPT, List.of(sel, "payload_read_status=LOADED", "prompt_attach_status=ATTACHED_PARTIAL",
                        "transport_integrity=PARTIAL", "release_integrity=VERIFIED")),
                new Fixture(3, "Missing/empty Squad payload",
                        "squad selected; .github/agents/squad.agent.md exists but is empty; nothing attached",
                        Outcome.UNKNOWN_HALT, List.of(sel, "payload_read_status=EMPTY", "prompt_attach_status=NOT_ATTACHED",
                        "transport_integrity=UNKNOWN", "release_integrity=UNREGISTERED")),
                new Fixture(4, "Proven non-Squad",
                        "the host started the default agent (no --agent); its selection state says so",
                        Outcome.SKIP, List.of("agent_not_selected=squad")),
                new Fixture(5, "WRONG-VERSION",
                        "host expects " + RELEASED_VERSION + "; the file on disk is a whole 0.12.0 coordinator (a silent"
                                + " downgrade), read and attached whole",
                        Outcome.HALT_RELEASE_MISMATCH, List.of(sel, "payload_read_status=LOADED",
                        "prompt_attach_status=ATTACHED_FULL", "transport_integrity=INTACT", "release_integrity=MISMATCH")),
                new Fixture(6, "LEGITIMATE UNREGISTERED-LOCAL",
                        "freshly updated, unpublished 0.13.2-preview.1 coordinator, whole; no manifest entry for its key",
                        Outcome.LOADED_WITH_REPORT, List.of(sel, "payload_read_status=LOADED",
                        "prompt_attach_status=ATTACHED_FULL", "transport_integrity=INTACT", "release_integrity=UNREGISTERED")));
    }

    /**
     * Generates the artifacts under {@code workDir} and runs every fixture. The evidence log is
     * {@code workDir/.warden/state/integrity/evidence.jsonl}.
     */
    public static List<Run> run(Path workDir, Clock clock) throws IOException {
        byte[] template = SquadArtifacts.coordinator(RELEASED_VERSION, SquadArtifacts.TEMPLATE_TEAM,
                SquadArtifacts.SDK_TEMPLATE_BYTES);
        ReleaseKey released = new ReleaseKey(RELEASED_VERSION, CLIENT_ID, CLIENT_VERSION);
        Files.createDirectories(workDir);
        Path manifest = workDir.resolve("releases.json");
        Files.writeString(manifest, JsonFileReleaseStore.render(List.of(
                JsonFileReleaseStore.register("squad", released, template, "squad-template"))), StandardCharsets.UTF_8);
        EvidenceLog log = EvidenceLog.under(workDir.resolve(".warden"));
        IntegrityGate gate = IntegrityGate.builder()
                .profile(BoundaryProfile.squad())
                .release(JsonFileReleaseStore.open(manifest).asSource())
                .evidenceLog(log)
                .clock(clock)
                .sessionPrefix("fixture")
                .build();

        byte[] install = SquadArtifacts.coordinator(RELEASED_VERSION,
                SquadArtifacts.team("Keaton", "Fenster", "Hockney", "McManus"), SquadArtifacts.SDK_TEMPLATE_BYTES);
        List<GateVerdict> verdicts = new ArrayList<>();
        verdicts.add(selectedRun(gate, project(workDir, 1, install), RELEASED_VERSION, attached -> attached));
        verdicts.add(selectedRun(gate, project(workDir, 2, install), RELEASED_VERSION, AcceptanceFixtures::copilotClip));
        verdicts.add(selectedRun(gate, project(workDir, 3, new byte[0]), RELEASED_VERSION, attached -> attached));
        verdicts.add(gate.notSelected("squad", "default", "host_selection_state: session started without --agent"));
        byte[] downgraded = SquadArtifacts.coordinator("0.12.0", SquadArtifacts.team("Keaton", "Fenster"), 79_004);
        verdicts.add(selectedRun(gate, project(workDir, 5, downgraded), RELEASED_VERSION, attached -> attached));
        byte[] preview = SquadArtifacts.coordinator("0.13.2-preview.1", SquadArtifacts.team("Keaton", "Fenster"),
                SquadArtifacts.SDK_TEMPLATE_BYTES + 1_204);
        verdicts.add(selectedRun(gate, project(workDir, 6, preview), "0.13.2-preview.1", attached -> attached));

        EvidenceReplay.Report replay = EvidenceReplay.replay(log.file(), null);
        List<Run> runs = new ArrayList<>();
        List<Fixture> fixtures = fixtures();
        for (int i = 0; i < fixtures.size(); i++) {
            Fixture f = fixtures.get(i);
            GateVerdict v = verdicts.get(i);
            EvidenceReplay.SessionResult replayed = replay.sessions().stream()
                    .filter(s -> s.session().equals(v.session())).findFirst().orElse(null);
            runs.add(new Run(f, v, replayed, failures(f, v, replayed)));
        }
        return runs;
    }

    private interface Assembler {
        byte[] assemble(byte[] payload);
    }

    private static GateVerdict selectedRun(IntegrityGate gate, Path agentFile, String agentVersion, Assembler assembler) {
        Path root = agentFile.getParent().getParent().getParent();
        GateSession session = gate.select(AgentSelection.of("squad", agentFile)
                .withFileLabel(root.relativize(agentFile).toString())
                .withRole("root-coordinator")
                .withAgentVersion(agentVersion)
                .withClient(CLIENT_ID, CLIENT_VERSION)
                .withResolution("project .github/agents"));
        byte[] payload = session.read();
        if (payload.length == 0) {
            session.notAttached("nothing_read: the payload is " + session.readStatus(), "prompt");
        } else {
            session.attach(assembler.assemble(payload), "prompt");
        }
        return session.verdict();
    }

    /** The first {@link #COPILOT_AGENT_PROMPT_CHARS} characters of the payload, as UTF-8. */
    static byte[] copilotClip(byte[] payload) {
        String text = new String(payload, StandardCharsets.UTF_8);
        return text.length() <= COPILOT_AGENT_PROMPT_CHARS ? payload
                : text.substring(0, COPILOT_AGENT_PROMPT_CHARS).getBytes(StandardCharsets.UTF_8);
    }

    private static Path project(Path workDir, int number, byte[] agentFile) throws IOException {
        Path agents = workDir.resolve("fixture-" + number).resolve(".github").resolve("agents");
        Files.createDirectories(agents);
        Path file = agents.resolve("squad.agent.md");
        Files.write(file, agentFile);
        return file;
    }

    private static List<String> failures(Fixture f, GateVerdict v, EvidenceReplay.SessionResult replayed) {
        List<String> out = new ArrayList<>();
        if (v.outcome() != f.expected()) {
            out.add("outcome " + v.outcome() + ", expected " + f.expected());
        }
        if (!v.steps().equals(f.expectedSteps())) {
            out.add("evidence " + v.steps() + ", expected " + f.expectedSteps());
        }
        if (replayed == null) {
            out.add("session " + v.session() + " missing from the evidence log");
        } else {
            if (!replayed.problems().isEmpty()) {
                out.add("evidence log refused: " + replayed.problems());
            }
            if (!replayed.disagreements().isEmpty()) {
                out.add("replay disagrees: " + replayed.disagreements());
            }
            if (replayed.recomputed().outcome() != f.expected()) {
                out.add("replayed outcome " + replayed.recomputed().outcome() + ", expected " + f.expected());
            }
        }
        return out;
    }
}
