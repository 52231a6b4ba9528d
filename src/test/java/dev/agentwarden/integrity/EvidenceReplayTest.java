package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.integrity.EvidenceReplay.IntegrityStats;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.json.Json;
import dev.agentwarden.release.JsonFileReleaseStore;
import dev.agentwarden.release.ReleaseSources;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evidence log format and its replay, which recomputes and never trusts recorded verdicts. */
class EvidenceReplayTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-07-21T10:00:00Z"), ZoneOffset.UTC);
    static final byte[] WHOLE = Ev.squad();

    @TempDir
    Path dir;

    /** Writes one full session (whole or clipped attach) to a log and returns the log's lines. */
    private List<String> session(EvidenceLog log, byte[] attached) throws IOException {
        Path f = Files.write(dir.resolve("squad.agent.md"), WHOLE);
        GateSession s = IntegrityGate.builder().clock(CLOCK).evidenceLog(log).build()
                .select(AgentSelection.of("squad", f).withAgentVersion(Ev.VERSION).withClient("copilot-cli", "1.0.3"));
        s.read();
        s.attach(attached, "test");
        s.verdict();
        return Files.readAllLines(log.file());
    }

    private Path write(List<String> lines, boolean finalNewline) throws IOException {
        Path f = dir.resolve("evidence.jsonl");
        Files.writeString(f, String.join("\n", lines) + (finalNewline ? "\n" : ""), StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void codec_roundTripsEveryEventKind() throws IOException {
        EvidenceLog log = EvidenceLog.under(dir.resolve(".warden"));
        session(log, Arrays.copyOf(WHOLE, 400));
        IntegrityGate.builder().clock(CLOCK).evidenceLog(log).build().notSelected("squad", "default", "host");
        for (EvidenceLog.Line line : EvidenceLog.read(log.file())) {
            assertThat(line.problem()).isNull();
            assertThat(EvidenceCodec.fromJson(EvidenceCodec.toJson(line.recorded()))).isEqualTo(line.recorded());
        }
        assertThat(EvidenceLog.read(log.file())).extracting(l -> l.recorded().event().kind().wire()).containsExactly(
                "selected_agent_id", "payload_read_status", "prompt_attach_status", "transport_integrity",
                "release_integrity", "decision", "agent_not_selected", "decision");
    }

    @Test
    void replay_forgedRecordedVerdicts_areRecomputedAndReported() throws IOException {
        List<String> lines = new ArrayList<>(session(EvidenceLog.under(dir.resolve(".warden")), Arrays.copyOf(WHOLE, 400)));
        lines.set(3, lines.get(3).replace("\"transport_integrity\":\"PARTIAL\"", "\"transport_integrity\":\"INTACT\""));
        lines.set(5, lines.get(5).replace("\"outcome\":\"HALT_CORRUPT\"", "\"outcome\":\"LOADED\""));
        EvidenceReplay.SessionResult s = EvidenceReplay.replay(write(lines, true), null).sessions().get(0);
        assertThat(s.recomputed().outcome()).isEqualTo(Outcome.HALT_CORRUPT);
        assertThat(s.recordedDecision().outcome()).isEqualTo(Outcome.LOADED);
        assertThat(s.disagreements()).containsExactly(
                "outcome: recorded LOADED, recomputed HALT_CORRUPT",
                "transport_integrity: recorded INTACT, recomputed PARTIAL");
    }

    @Test
    void replay_duplicateLine_isRefusedAndHalts() throws IOException {
        List<String> lines = new ArrayList<>(session(EvidenceLog.under(dir.resolve(".warden")), WHOLE));
        String dup = lines.get(1).replace("\"seq\":2", "\"seq\":3");
        List<String> tampered = new ArrayList<>(lines.subList(0, 2));
        tampered.add(dup);
        EvidenceReplay.SessionResult s = EvidenceReplay.replay(write(tampered, true), null).sessions().get(0);
        assertThat(s.problems()).first().asString().startsWith("line 3: event_duplicate");
        assertThat(s.recomputed().outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void replay_outOfOrderLines_areRefused() throws IOException {
        List<String> lines = session(EvidenceLog.under(dir.resolve(".warden")), WHOLE);
        List<String> swapped = List.of(lines.get(0),
                lines.get(2).replace("\"seq\":3", "\"seq\":2"),
                lines.get(1).replace("\"seq\":2", "\"seq\":3"));
        EvidenceReplay.SessionResult s = EvidenceReplay.replay(write(swapped, true), null).sessions().get(0);
        assertThat(s.problems()).first().asString().startsWith("line 3: event_out_of_order");
        assertThat(s.recomputed().outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void replay_deletedLine_isASequenceGap() throws IOException {
        List<String> lines = new ArrayList<>(session(EvidenceLog.under(dir.resolve(".warden")), WHOLE));
        lines.remove(2);
        EvidenceReplay.SessionResult s = EvidenceReplay.replay(write(lines, true), null).sessions().get(0);
        assertThat(s.problems()).first().asString().startsWith("line 3: sequence_gap");
        assertThat(s.recomputed().outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void replay_tornLastLine_leavesTheSessionMissingAnEvent() throws IOException {
        List<String> lines = session(EvidenceLog.under(dir.resolve(".warden")), WHOLE);
        List<String> torn = new ArrayList<>(lines.subList(0, 2));
        torn.add(lines.get(2).substring(0, 40));
        EvidenceReplay.Report report = EvidenceReplay.replay(write(torn, false), null);
        assertThat(report.unattributed()).singleElement().asString().startsWith("line 3: evidence_torn_line");
        EvidenceReplay.SessionResult s = report.sessions().get(0);
        assertThat(s.recomputed().outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
        assertThat(s.recomputed().reasons()).anyMatch(r -> r.startsWith("missing_prompt_attach_status"));
        assertThat(s.disagreements()).anyMatch(d -> d.startsWith("recorded_verdict_missing"));
    }

    @Test
    void replay_badLines_areRefusedWithCodes() throws IOException {
        List<String> lines = new ArrayList<>(session(EvidenceLog.under(dir.resolve(".warden")), WHOLE));
        lines.add("not json");
        lines.add("{\"v\":2,\"session\":\"other\"}");
        lines.add("{\"v\":1,\"session\":\"third\",\"seq\":1,\"at\":\"2026-07-21T10:00:00Z\",\"event\":\"mystery\"}");
        lines.add("{\"v\":1,\"session\":\"fourth\",\"seq\":1,\"at\":\"yesterday\",\"event\":\"decision\"}");
        lines.add("x".repeat(EvidenceLog.MAX_LINE_BYTES + 10));
        EvidenceReplay.Report report = EvidenceReplay.replay(write(lines, true), null);
        assertThat(report.unattributed()).hasSize(2);
        assertThat(report.unattributed().get(0)).startsWith("line 7: evidence_line_invalid");
        assertThat(report.unattributed().get(1)).startsWith("line 11: evidence_line_too_long");
        assertThat(report.sessions()).extracting(s -> s.problems().isEmpty() ? "" : s.problems().get(0).replaceAll(":.*", ""))
                .containsExactly("", "line 8", "line 9", "line 10");
        assertThat(report.sessions().get(1).problems().get(0)).contains("evidence_version_unsupported");
        assertThat(report.sessions().get(2).problems().get(0)).contains("event_unknown");
        assertThat(report.sessions().get(3).problems().get(0)).contains("evidence_field_invalid");
        assertThat(report.sessions().subList(1, 4)).allMatch(s -> s.recomputed().outcome() == Outcome.UNKNOWN_HALT);
    }

    @Test
    void replay_usesTheRecordedManifestFileAndNotesWhenItChanged() throws IOException {
        Path manifest = dir.resolve("releases.json");
        Files.writeString(manifest, JsonFileReleaseStore.render(List.of(
                JsonFileReleaseStore.register("squad", Ev.KEY, WHOLE, null))));
        Path f = Files.write(dir.resolve("squad.agent.md"), WHOLE);
        EvidenceLog log = EvidenceLog.under(dir.resolve(".warden"));
        GateSession s = IntegrityGate.builder().clock(CLOCK).evidenceLog(log)
                .release(ReleaseSources.unsigned(manifest)).build()
                .select(AgentSelection.of("squad", f).withAgentVersion(Ev.VERSION).withClient("copilot-cli", "1.0.3"));
        s.attach(s.read(), "test");
        assertThat(s.verdict().outcome()).isEqualTo(Outcome.LOADED);

        EvidenceReplay.SessionResult same = EvidenceReplay.replay(log.file(), null).sessions().get(0);
        assertThat(same.recomputed().outcome()).isEqualTo(Outcome.LOADED);
        assertThat(same.notes()).isEmpty();

        Files.writeString(manifest, "[]");
        EvidenceReplay.SessionResult changed = EvidenceReplay.replay(log.file(), null).sessions().get(0);
        assertThat(changed.recomputed().releaseValue()).isEqualTo(ReleaseIntegrity.UNREGISTERED);
        assertThat(changed.notes()).anyMatch(n -> n.contains("changed since the session was recorded"));
        assertThat(changed.disagreements()).isNotEmpty();
    }

    @Test
    void read_missingLog_isUnreadable() {
        assertThatThrownBy(() -> EvidenceLog.read(dir.resolve("none.jsonl")))
                .isInstanceOfSatisfying(IntegrityException.class, e -> assertThat(e.code()).isEqualTo("evidence_unreadable"));
    }

    @Test
    void append_interleavesWholeLinesOnly() throws Exception {
        EvidenceLog log = EvidenceLog.under(dir.resolve(".warden"));
        Path f = Files.write(dir.resolve("squad.agent.md"), WHOLE);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 10; i++) {
                    GateSession s = IntegrityGate.builder().clock(CLOCK).evidenceLog(log).build()
                            .select(AgentSelection.of("squad", f));
                    s.attach(s.read(), "test");
                    s.verdict();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        EvidenceReplay.Report report = EvidenceReplay.replay(log.file(), null);
        assertThat(report.sessions()).hasSize(40);
        assertThat(report.invalidLines()).isZero();
        assertThat(report.sessions()).allMatch(s -> s.recomputed().outcome() == Outcome.LOADED_WITH_REPORT);
    }

    /** Format v1 frozen fixture: never regenerate; a reader change that breaks it breaks old logs. */
    @Test
    void replay_frozenV1Log_recomputesTheSeedFixtures() throws URISyntaxException {
        Path log = Path.of(getClass().getResource("/integrity/evidence-v1.jsonl").toURI());
        Path manifest = Path.of(getClass().getResource("/integrity/releases-v1.json").toURI());
        EvidenceReplay.Report report = EvidenceReplay.replay(log, ReleaseSources.unsigned(manifest));
        assertThat(report.invalidLines()).isZero();
        assertThat(report.sessions()).extracting(s -> s.recomputed().outcome()).containsExactly(Outcome.LOADED,
                Outcome.HALT_CORRUPT, Outcome.UNKNOWN_HALT, Outcome.SKIP, Outcome.HALT_RELEASE_MISMATCH,
                Outcome.LOADED_WITH_REPORT);
        assertThat(report.sessions()).allMatch(s -> s.disagreements().isEmpty());
        assertThat(report.sessions()).allMatch(s -> s.notes().isEmpty());
        Map<String, Object> first = Json.parseObject(Json.write(EvidenceCodec.toJson(report.sessions().get(0).events().get(0))));
        assertThat(first).containsEntry("selection_order", 1L).containsKey("selected_at");
    }

    @Test
    void stats_keepCorruptAndUnknownApartAndCountHealthySessions() throws URISyntaxException, IOException {
        Path log = Path.of(getClass().getResource("/integrity/evidence-v1.jsonl").toURI());
        Path manifest = Path.of(getClass().getResource("/integrity/releases-v1.json").toURI());
        IntegrityStats stats = IntegrityStats.of(EvidenceReplay.replay(log, ReleaseSources.unsigned(manifest)));
        assertThat(stats.sessions()).isEqualTo(6);
        assertThat(stats.count(Outcome.HALT_CORRUPT)).isEqualTo(1);
        assertThat(stats.count(Outcome.UNKNOWN_HALT)).isEqualTo(1);
        assertThat(stats.healthy()).isEqualTo(1);
        assertThat(stats.healthyHalts()).isZero();
        assertThat(stats.falseHaltRate()).isZero();

        Path copy = Files.copy(log, dir.resolve("e.jsonl"));
        Files.writeString(copy, "{\"v\":1,\"session\":\"torn\",\"seq\":1,", StandardOpenOption.APPEND);
        IntegrityStats torn = IntegrityStats.of(EvidenceReplay.replay(copy, ReleaseSources.unsigned(manifest)));
        assertThat(torn.invalidLines()).isEqualTo(1);
        assertThat(torn.count(Outcome.UNKNOWN_HALT)).isEqualTo(1);
    }
}
