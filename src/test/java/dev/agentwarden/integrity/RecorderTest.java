package dev.agentwarden.integrity;

import static dev.agentwarden.integrity.Ev.attached;
import static dev.agentwarden.integrity.Ev.loaded;
import static dev.agentwarden.integrity.Ev.selected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.IntegrityGate.IntegrityException;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RecorderTest {
    static final BoundaryProfile SQUAD = BoundaryProfile.squad();
    static final byte[] WHOLE = Ev.squad();
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-07-21T10:00:00Z"), ZoneOffset.UTC);
    static final IntegrityEvent.TransportVerdict TRANSPORT =
            new IntegrityEvent.TransportVerdict(TransportIntegrity.INTACT, List.of());
    static final IntegrityEvent.ReleaseVerdict RELEASE =
            new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.UNREGISTERED, null, null, null, null, null, null);
    static final IntegrityEvent.Decision DECISION = new IntegrityEvent.Decision(Outcome.LOADED_WITH_REPORT, List.of());

    @Test
    void record_stampsContiguousSequenceAndClockTime_andFeedsTheSink() throws IOException {
        List<Recorded> sunk = new ArrayList<>();
        Recorder r = new Recorder("s1", CLOCK, sunk::add);
        r.record(selected(SQUAD));
        r.record(loaded(WHOLE, SQUAD));
        r.record(attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        r.record(TRANSPORT);
        r.record(RELEASE);
        r.record(DECISION);
        assertThat(sunk).extracting(Recorded::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(sunk).extracting(Recorded::at).containsOnly(Instant.parse("2026-07-21T10:00:00Z"));
        assertThat(r.events()).isEqualTo(sunk);
    }

    static Stream<Arguments> outOfOrder() {
        return Stream.of(
                Arguments.of("read before selection is fine, selection after read is not",
                        List.of(loaded(WHOLE, SQUAD), selected(SQUAD)), "event_out_of_order"),
                Arguments.of("read after attach", List.of(selected(SQUAD), attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD),
                        loaded(WHOLE, SQUAD)), "event_out_of_order"),
                Arguments.of("attach after transport", List.of(selected(SQUAD), loaded(WHOLE, SQUAD), TRANSPORT,
                        attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD)), "event_out_of_order"),
                Arguments.of("transport after release", List.of(selected(SQUAD), RELEASE, TRANSPORT), "event_out_of_order"),
                Arguments.of("second selection", List.of(selected(SQUAD), selected(SQUAD)), "event_duplicate"),
                Arguments.of("second read", List.of(selected(SQUAD), loaded(WHOLE, SQUAD), loaded(WHOLE, SQUAD)),
                        "event_duplicate"),
                Arguments.of("second attach", List.of(selected(SQUAD), loaded(WHOLE, SQUAD),
                        attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD), Ev.notAttached()), "event_duplicate"),
                Arguments.of("not-selected then selected", List.of(Ev.notSelected(), selected(SQUAD)),
                        "event_after_not_selected"),
                Arguments.of("selected then not-selected", List.of(selected(SQUAD), Ev.notSelected()), "event_duplicate"),
                Arguments.of("payload after not-selected", List.of(Ev.notSelected(), loaded(WHOLE, SQUAD)),
                        "event_after_not_selected"),
                Arguments.of("anything after the decision", List.of(selected(SQUAD), DECISION, DECISION), "event_after_decision"));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("outOfOrder")
    void record_outOfOrderOrDuplicate_isRefusedWithCode(String name, List<IntegrityEvent> events, String code) {
        Recorder r = new Recorder("s", CLOCK, null);
        int accepted = 0;
        IntegrityException refused = null;
        for (IntegrityEvent e : events) {
            try {
                r.record(e);
                accepted++;
            } catch (IntegrityException ex) {
                refused = ex;
                break;
            } catch (IOException ex) {
                throw new AssertionError(ex);
            }
        }
        assertThat(refused).as("refusal").isNotNull();
        assertThat(refused.code()).isEqualTo(code);
        assertThat(accepted).isEqualTo(events.size() - 1);
        assertThat(r.events()).hasSize(accepted);
    }

    @Test
    void record_skippedSlots_areAcceptedSoTheyCanResolveToUnknown() throws IOException {
        Recorder r = new Recorder("s", CLOCK, null);
        r.record(selected(SQUAD));
        r.record(attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        r.record(DECISION);
        assertThat(r.events()).hasSize(3);
    }

    @Test
    void record_sinkFailure_keepsTheEventAndReportsIt() {
        Recorder r = new Recorder("s", CLOCK, rec -> {
            throw new IOException("read-only file system");
        });
        assertThatThrownBy(() -> r.record(selected(SQUAD))).isInstanceOf(IOException.class);
        assertThat(r.events()).hasSize(1);
    }

    @Test
    void accept_requiresContiguousSequenceFromOne() {
        Instant t = Instant.parse("2026-07-21T10:00:00Z");
        Recorder gap = Recorder.replay("s");
        assertThatThrownBy(() -> gap.accept(new Recorded("s", 2, t, selected(SQUAD))))
                .isInstanceOfSatisfying(IntegrityException.class, e -> assertThat(e.code()).isEqualTo("sequence_gap"));
        Recorder back = Recorder.replay("s");
        back.accept(new Recorded("s", 1, t, selected(SQUAD)));
        assertThatThrownBy(() -> back.accept(new Recorded("s", 1, t, loaded(WHOLE, SQUAD))))
                .isInstanceOfSatisfying(IntegrityException.class, e -> assertThat(e.code()).isEqualTo("sequence_not_monotonic"));
        assertThatThrownBy(() -> back.accept(new Recorded("other", 2, t, loaded(WHOLE, SQUAD))))
                .isInstanceOfSatisfying(IntegrityException.class, e -> assertThat(e.code()).isEqualTo("session_mismatch"));
    }

    static Stream<Arguments> invalidEvidence() {
        return Stream.of(
                Arguments.of(new IntegrityEvent.PayloadReadStatus(ReadStatus.TRUNCATED, Sha256.hex(WHOLE), Map.of(),
                        WHOLE.length, WHOLE.length, true, true, null, null, null, null), "truncated_without_proof"),
                Arguments.of(new IntegrityEvent.PayloadReadStatus(ReadStatus.TRUNCATED, Sha256.hex(WHOLE), Map.of(),
                        WHOLE.length, -1, false, false, null, null, null, null), "truncated_without_proof"),
                Arguments.of(new IntegrityEvent.PayloadReadStatus(ReadStatus.LOADED, null, Map.of(), 10, 10, true, true,
                        null, null, null, null), "read_without_sha"),
                Arguments.of(new IntegrityEvent.PayloadReadStatus(ReadStatus.EMPTY, Sha256.hex(WHOLE), Map.of(), 3, 3, true, true,
                        null, null, null, null), "event_field_invalid"),
                Arguments.of(new IntegrityEvent.PromptAttachStatus(AttachStatus.ATTACHED_PARTIAL, null, 10, null, "x", true,
                        null), "attach_without_sha"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalidEvidence")
    void record_evidenceWithoutProof_isRefused(IntegrityEvent event, String code) throws IOException {
        Recorder r = new Recorder("s", CLOCK, null);
        r.record(selected(SQUAD));
        assertThatThrownBy(() -> r.record(event))
                .isInstanceOfSatisfying(IntegrityException.class, e -> assertThat(e.code()).isEqualTo(code));
    }
}
