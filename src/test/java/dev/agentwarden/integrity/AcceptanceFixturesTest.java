package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AcceptanceFixturesTest {
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-07-21T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    static Path work;

    static List<AcceptanceFixtures.Run> runs;

    @BeforeAll
    static void runAll() throws Exception {
        runs = AcceptanceFixtures.run(work, CLOCK);
    }

    static Stream<Arguments> seedFixtures() {
        return Stream.of(
                Arguments.of(1, Outcome.LOADED, List.of("selected_agent_id=squad", "payload_read_status=LOADED",
                        "prompt_attach_status=ATTACHED_FULL", "transport_integrity=INTACT", "release_integrity=VERIFIED")),
                Arguments.of(2, Outcome.HALT_CORRUPT, List.of("selected_agent_id=squad", "payload_read_status=LOADED",
                        "prompt_attach_status=ATTACHED_PARTIAL", "transport_integrity=PARTIAL", "release_integrity=VERIFIED")),
                Arguments.of(3, Outcome.UNKNOWN_HALT, List.of("selected_agent_id=squad", "payload_read_status=EMPTY",
                        "prompt_attach_status=NOT_ATTACHED", "transport_integrity=UNKNOWN", "release_integrity=UNREGISTERED")),
                Arguments.of(4, Outcome.SKIP, List.of("agent_not_selected=squad")),
                Arguments.of(5, Outcome.HALT_RELEASE_MISMATCH, List.of("selected_agent_id=squad", "payload_read_status=LOADED",
                        "prompt_attach_status=ATTACHED_FULL", "transport_integrity=INTACT", "release_integrity=MISMATCH")),
                Arguments.of(6, Outcome.LOADED_WITH_REPORT, List.of("selected_agent_id=squad", "payload_read_status=LOADED",
                        "prompt_attach_status=ATTACHED_FULL", "transport_integrity=INTACT", "release_integrity=UNREGISTERED")));
    }

    @ParameterizedTest(name = "fixture {0} → {1}")
    @MethodSource("seedFixtures")
    void fixture_givesOutcomeAndOrderedEvidence(int number, Outcome outcome, List<String> steps) {
        AcceptanceFixtures.Run run = runs.get(number - 1);
        assertThat(run.fixture().number()).isEqualTo(number);
        assertThat(run.verdict().outcome()).isEqualTo(outcome);
        assertThat(run.verdict().steps()).containsExactlyElementsOf(steps);
        assertThat(run.failures()).isEmpty();
        assertThat(run.replayed().recomputed().outcome()).isEqualTo(outcome);
        assertThat(run.replayed().disagreements()).isEmpty();
    }

    @Test
    void fixtures_recordBothShasWhenBytesWereRead() {
        for (int n : new int[] {1, 2, 5, 6}) {
            GateVerdict v = runs.get(n - 1).verdict();
            assertThat(v.sourceSha()).as("fixture %d source sha", n).matches("[0-9a-f]{64}");
            assertThat(v.attachedSha()).as("fixture %d attached sha", n).matches("[0-9a-f]{64}");
        }
        GateVerdict clipped = runs.get(1).verdict();
        assertThat(clipped.attachedSha()).isNotEqualTo(clipped.sourceSha());
        GateVerdict empty = runs.get(2).verdict();
        assertThat(empty.sourceSha()).isNull();
        assertThat(empty.attachedSha()).isNull();
    }

    @Test
    void fixture1_verifiesByNormalizedShaOverAPerInstallTeamBlock() {
        GateVerdict v = runs.get(0).verdict();
        IntegrityEvent.ReleaseVerdict release = v.find(IntegrityEvent.ReleaseVerdict.class);
        assertThat(release.basis()).isEqualTo("normalized:squad-template");
        assertThat(release.expectedSha256()).isNotEqualTo(v.sourceSha());
        IntegrityEvent.PayloadReadStatus read = v.find(IntegrityEvent.PayloadReadStatus.class);
        assertThat(read.normalizedSha256()).containsEntry("squad-template", release.expectedNormalizedSha256());
        assertThat(read.bytesRead()).isGreaterThan(SquadArtifacts.SDK_TEMPLATE_BYTES);
    }
}
