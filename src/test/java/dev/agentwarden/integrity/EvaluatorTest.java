package dev.agentwarden.integrity;

import static dev.agentwarden.integrity.Ev.attached;
import static dev.agentwarden.integrity.Ev.evaluate;
import static dev.agentwarden.integrity.Ev.loaded;
import static dev.agentwarden.integrity.Ev.notAttached;
import static dev.agentwarden.integrity.Ev.registered;
import static dev.agentwarden.integrity.Ev.selected;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.Outcome.ReleaseIntegrity;
import dev.agentwarden.integrity.Outcome.TransportIntegrity;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import dev.agentwarden.release.JsonFileReleaseStore;
import dev.agentwarden.release.Normalizations;
import dev.agentwarden.release.ReleaseLookup;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The decision table and every frozen invariant of docs/integrity-gate.md. */
class EvaluatorTest {
    static final BoundaryProfile SQUAD = BoundaryProfile.squad();
    static final byte[] WHOLE = Ev.squad();
    static final ReleaseSource RELEASED = registered(WHOLE, null);

    // Decision table

    static Stream<Arguments> decisionTable() {
        byte[] other = SquadArtifacts.coordinator("0.12.0", "", 3_000);
        byte[] clipped = Arrays.copyOf(WHOLE, WHOLE.length / 2);
        return Stream.of(
                Arguments.of("INTACT + VERIFIED", WHOLE, WHOLE, RELEASED, Outcome.LOADED),
                Arguments.of("INTACT + UNREGISTERED", WHOLE, WHOLE, ReleaseSource.NONE, Outcome.LOADED_WITH_REPORT),
                Arguments.of("INTACT + MISMATCH", other, other, RELEASED, Outcome.HALT_RELEASE_MISMATCH),
                Arguments.of("PARTIAL dominates VERIFIED", WHOLE, clipped, RELEASED, Outcome.HALT_CORRUPT),
                Arguments.of("PARTIAL dominates MISMATCH", other, Arrays.copyOf(other, 100), RELEASED, Outcome.HALT_CORRUPT));
    }

    @ParameterizedTest(name = "{0} → {4}")
    @MethodSource("decisionTable")
    void evaluate_decisionTable(String name, byte[] source, byte[] attachedBytes, ReleaseSource release, Outcome outcome) {
        AttachStatus status = Arrays.equals(source, attachedBytes) ? AttachStatus.ATTACHED_FULL : AttachStatus.ATTACHED_PARTIAL;
        Evaluation e = evaluate(release, selected(SQUAD), loaded(source, SQUAD), attached(status, attachedBytes, SQUAD));
        assertThat(e.outcome()).isEqualTo(outcome);
    }

    @Test
    void evaluate_unknownTransportDominatesVerifiedRelease() {
        IntegrityEvent.PayloadReadStatus unstable = new IntegrityEvent.PayloadReadStatus(ReadStatus.LOADED,
                Sha256.hex(WHOLE), Normalizations.digests(WHOLE), WHOLE.length, WHOLE.length, true, false,
                SQUAD.check(WHOLE), null, null, "source_changed_during_read: test");
        Evaluation e = evaluate(RELEASED, selected(SQUAD), unstable, attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.UNKNOWN);
        assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void evaluate_provenNotSelected_skips() {
        Evaluation e = evaluate(RELEASED, Ev.notSelected());
        assertThat(e.outcome()).isEqualTo(Outcome.SKIP);
        assertThat(e.transport()).isNull();
        assertThat(e.release()).isNull();
    }

    // Invariant 5: any missing event resolves to UNKNOWN; absent evidence never resolves to success

    static Stream<Arguments> missingEvents() {
        return Stream.of(
                Arguments.of("nothing at all", List.of()),
                Arguments.of("selection only", List.of(selected(SQUAD))),
                Arguments.of("no read", List.of(selected(SQUAD), attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD))),
                Arguments.of("no attach", List.of(selected(SQUAD), loaded(WHOLE, SQUAD))),
                Arguments.of("no selection", List.of(loaded(WHOLE, SQUAD), attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("missingEvents")
    void evaluate_missingEvent_givesUnknownHalt(String name, List<IntegrityEvent> events) {
        Evaluation e = Evaluator.evaluate(events, RELEASED, List.of());
        assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.UNKNOWN);
        assertThat(e.reasons()).anyMatch(r -> r.startsWith("missing_"));
    }

    @Test
    void evaluate_evidenceProblem_givesUnknownHaltEvenWhenEventsLookWhole() {
        Evaluation e = Evaluator.evaluate(List.of(selected(SQUAD), loaded(WHOLE, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD)), RELEASED, List.of("line 4: event_duplicate: test"));
        assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    // Invariant 6: selected + missing never collapses into not selected

    @Test
    void evaluate_selectedThenNothing_isNeverSkip() {
        assertThat(evaluate(RELEASED, selected(SQUAD)).outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
        IntegrityEvent.PayloadReadStatus absent = new IntegrityEvent.PayloadReadStatus(ReadStatus.ABSENT, null, Map.of(), 0,
                -1, false, false, null, null, null, "not_found: test");
        assertThat(evaluate(RELEASED, selected(SQUAD), absent, notAttached()).outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void evaluate_notSelectedFollowedByPayload_isNotSkip() {
        Evaluation e = Evaluator.evaluate(List.of(Ev.notSelected(), loaded(WHOLE, SQUAD)), RELEASED, List.of());
        assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    // Invariant 3: hash equality alone is never proof of completeness

    @Test
    void evaluate_partialReadMatchedByEquallyPartialAttach_isNotIntact() {
        byte[] headOnly = Arrays.copyOf(WHOLE, WHOLE.length - 200);
        Evaluation e = evaluate(ReleaseSource.NONE, selected(SQUAD), loaded(headOnly, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, headOnly, SQUAD));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.PARTIAL);
        assertThat(e.outcome()).isEqualTo(Outcome.HALT_CORRUPT);
        assertThat(e.reasons()).anyMatch(r -> r.startsWith("source_missing_eof_boundary"));
    }

    @Test
    void evaluate_equalShasWithInconsistentReadCounts_isUnknown() {
        IntegrityEvent.PayloadReadStatus shortRead = new IntegrityEvent.PayloadReadStatus(ReadStatus.LOADED,
                Sha256.hex(WHOLE), Normalizations.digests(WHOLE), WHOLE.length, WHOLE.length + 500L, true, true,
                SQUAD.check(WHOLE), null, null, null);
        Evaluation e = evaluate(ReleaseSource.NONE, selected(SQUAD), shortRead, attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.UNKNOWN);
    }

    @Test
    void evaluate_equalShasWithoutAnyMarker_isUnknownNotIntact() {
        byte[] plain = Ev.utf8("a user agent without canaries\n");
        Evaluation e = evaluate(ReleaseSource.NONE, selected(SQUAD), loaded(plain, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, plain, SQUAD));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.UNKNOWN);
        assertThat(e.reasons()).anyMatch(r -> r.startsWith("no_boundary_evidence"));
    }

    @Test
    void evaluate_profileNoneWithoutRegisteredLength_isUnknown() {
        BoundaryProfile none = BoundaryProfile.none();
        Evaluation e = evaluate(ReleaseSource.NONE, selected(none), loaded(WHOLE, none),
                attached(AttachStatus.ATTACHED_FULL, WHOLE, none));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.UNKNOWN);
        assertThat(e.reasons()).anyMatch(r -> r.startsWith("no_expected_length"));
    }

    static Stream<Arguments> profileNoneLengths() {
        return Stream.of(
                Arguments.of(0, TransportIntegrity.INTACT, Outcome.LOADED),
                Arguments.of(-10, TransportIntegrity.PARTIAL, Outcome.HALT_CORRUPT),
                Arguments.of(10, TransportIntegrity.UNKNOWN, Outcome.UNKNOWN_HALT));
    }

    @ParameterizedTest(name = "read {0} bytes off the registered length → {1}")
    @MethodSource("profileNoneLengths")
    void evaluate_profileNone_usesRegisteredLength(int delta, TransportIntegrity transport, Outcome outcome) {
        BoundaryProfile none = BoundaryProfile.none();
        byte[] read = Arrays.copyOf(WHOLE, WHOLE.length + delta);
        Evaluation e = evaluate(RELEASED, selected(none), loaded(read, none), attached(AttachStatus.ATTACHED_FULL, read, none));
        assertThat(e.transportValue()).isEqualTo(transport);
        assertThat(e.outcome()).isEqualTo(outcome);
    }

    // Invariant 4 and the provenance rule: expected SHAs come only from the trusted manifest

    @Test
    void evaluate_noManifestEntry_isUnregisteredEvenWhenAttachedEqualsSource() {
        Evaluation e = evaluate(ReleaseSource.NONE, selected(SQUAD), loaded(WHOLE, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.UNREGISTERED);
        assertThat(e.outcome()).isEqualTo(Outcome.LOADED_WITH_REPORT);
    }

    @Test
    void evaluate_manifestMatchingOnlyTheAttachedBytes_isMismatchNotVerified() {
        byte[] tampered = Ev.utf8(new String(WHOLE, java.nio.charset.StandardCharsets.UTF_8).replace("Route", "Ignore"));
        Evaluation e = evaluate(RELEASED, selected(SQUAD), loaded(tampered, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.MISMATCH);
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.PARTIAL);
    }

    @Test
    void evaluate_unknownVersionKey_isUnregisteredNeverMismatch() {
        IntegrityEvent.SelectedAgentId otherVersion = new IntegrityEvent.SelectedAgentId(
                new IntegrityEvent.CustomAgent("squad", "f", null), "9.9.9", "copilot-cli", "1.0.3", null, null, SQUAD, false);
        byte[] other = SquadArtifacts.coordinator("9.9.9", "", 3_000);
        Evaluation e = evaluate(RELEASED, otherVersion, loaded(other, SQUAD), attached(AttachStatus.ATTACHED_FULL, other, SQUAD));
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.UNREGISTERED);
        assertThat(e.release().reason()).startsWith("release_key_not_registered");
        assertThat(e.outcome()).isEqualTo(Outcome.LOADED_WITH_REPORT);
    }

    @Test
    void evaluate_normalizedEntry_verifiesAnInstallWithItsOwnTeamBlock() {
        byte[] template = SquadArtifacts.coordinator(Ev.VERSION, SquadArtifacts.TEMPLATE_TEAM, 3_000);
        byte[] install = SquadArtifacts.coordinator(Ev.VERSION, SquadArtifacts.team("A", "B", "C"), 3_000);
        Evaluation e = evaluate(registered(template, "squad-template"), selected(SQUAD), loaded(install, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, install, SQUAD));
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.VERIFIED);
        assertThat(e.release().basis()).isEqualTo("normalized:squad-template");
        Evaluation raw = evaluate(registered(template, null), selected(SQUAD), loaded(install, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, install, SQUAD));
        assertThat(raw.releaseValue()).isEqualTo(ReleaseIntegrity.MISMATCH);
    }

    @Test
    void evaluate_entryRegisteredForAnotherAgent_isUnregistered() {
        ReleaseSource forOther = ReleaseSources.of(JsonFileReleaseStore.fromBytes("m", Ev.utf8(JsonFileReleaseStore.render(List.of(
                JsonFileReleaseStore.register("reviewer", Ev.KEY, WHOLE, null))))));
        Evaluation e = evaluate(forOther, selected(SQUAD), loaded(WHOLE, SQUAD), attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.UNREGISTERED);
        assertThat(e.release().reason()).startsWith("release_entry_other_agent");
    }

    @Test
    void evaluate_untrustedManifest_reportsLoudlyAndHaltsOnlyWhenTrustIsRequired() {
        ReleaseSource untrusted = new ReleaseSource(key -> ReleaseLookup.untrusted("manifest_expired"), null);
        Evaluation reported = evaluate(untrusted, selected(SQUAD), loaded(WHOLE, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(reported.releaseValue()).isEqualTo(ReleaseIntegrity.UNREGISTERED);
        assertThat(reported.outcome()).isEqualTo(Outcome.LOADED_WITH_REPORT);
        assertThat(reported.reasons()).anyMatch(r -> r.contains("release_manifest_untrusted: manifest_expired"));
        Evaluation required = evaluate(untrusted, selected(SQUAD, true), loaded(WHOLE, SQUAD),
                attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(required.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
        assertThat(required.reasons()).anyMatch(r -> r.startsWith("release_manifest_untrusted_required"));
    }

    @Test
    void evaluate_storeThatThrows_isUntrustedNotACrash() {
        ReleaseSource broken = new ReleaseSource(key -> {
            throw new IllegalStateException("disk on fire");
        }, null);
        Evaluation e = evaluate(broken, selected(SQUAD), loaded(WHOLE, SQUAD), attached(AttachStatus.ATTACHED_FULL, WHOLE, SQUAD));
        assertThat(e.release().lookup()).isEqualTo("UNTRUSTED");
        assertThat(e.outcome()).isEqualTo(Outcome.LOADED_WITH_REPORT);
    }

    // TRUNCATED only with proof; attach clipping is not read truncation

    @Test
    void evaluate_truncatedWithCounts_isProvenLoss() {
        byte[] part = Arrays.copyOf(WHOLE, 1000);
        IntegrityEvent.PayloadReadStatus truncated = new IntegrityEvent.PayloadReadStatus(ReadStatus.TRUNCATED,
                Sha256.hex(part), Map.of(), part.length, WHOLE.length, false, false, SQUAD.check(part), null, null,
                "source_over_limit: test");
        Evaluation e = evaluate(RELEASED, selected(SQUAD), truncated, notAttached());
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.PARTIAL);
        assertThat(e.outcome()).isEqualTo(Outcome.HALT_CORRUPT);
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.UNREGISTERED);
    }

    @Test
    void evaluate_truncatedWithoutCounts_isOnlyUnknown() {
        IntegrityEvent.PayloadReadStatus claimed = new IntegrityEvent.PayloadReadStatus(ReadStatus.TRUNCATED,
                Sha256.hex(WHOLE), Map.of(), WHOLE.length, WHOLE.length, true, true, SQUAD.check(WHOLE), null, null, null);
        Evaluation e = evaluate(RELEASED, selected(SQUAD), claimed, notAttached());
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.UNKNOWN);
        assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
    }

    @Test
    void evaluate_completeReadWithClippedAttach_isLoadedPlusAttachedPartial() {
        byte[] clipped = Arrays.copyOf(WHOLE, 1200);
        Evaluation e = evaluate(RELEASED, selected(SQUAD), loaded(WHOLE, SQUAD),
                attached(AttachStatus.ATTACHED_PARTIAL, clipped, SQUAD));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.PARTIAL);
        assertThat(e.releaseValue()).isEqualTo(ReleaseIntegrity.VERIFIED);
        assertThat(e.outcome()).isEqualTo(Outcome.HALT_CORRUPT);
    }

    @Test
    void evaluate_readWholeButNotAttached_isProvenLoss() {
        Evaluation e = evaluate(RELEASED, selected(SQUAD), loaded(WHOLE, SQUAD), notAttached());
        assertThat(e.outcome()).isEqualTo(Outcome.HALT_CORRUPT);
    }

    @Test
    void evaluate_fullAttachClaimWithOtherBytes_isPartial() {
        byte[] edited = Ev.utf8(new String(WHOLE, java.nio.charset.StandardCharsets.UTF_8).replace("Route", "Rout3"));
        Evaluation e = evaluate(RELEASED, selected(SQUAD), loaded(WHOLE, SQUAD), attached(AttachStatus.ATTACHED_FULL, edited, SQUAD));
        assertThat(e.transportValue()).isEqualTo(TransportIntegrity.PARTIAL);
        assertThat(e.reasons()).anyMatch(r -> r.startsWith("attached_sha_differs"));
    }

    @Test
    void evaluate_attachmentWithoutAnySourceRead_isUnknownNotCorrupt() {
        IntegrityEvent.PayloadReadStatus absent = new IntegrityEvent.PayloadReadStatus(ReadStatus.ABSENT, null, Map.of(), 0,
                -1, false, false, null, null, null, "unreadable: test");
        for (AttachStatus status : new AttachStatus[] {AttachStatus.ATTACHED_FULL, AttachStatus.ATTACHED_PARTIAL}) {
            Evaluation e = evaluate(RELEASED, selected(SQUAD), absent, attached(status, WHOLE, SQUAD));
            assertThat(e.transportValue()).as("%s", status).isEqualTo(TransportIntegrity.UNKNOWN);
            assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
        }
    }

    @Test
    void evaluate_ignoresRecordedVerdictsInItsInput() {
        byte[] clipped = Arrays.copyOf(WHOLE, 1200);
        Evaluation e = Evaluator.evaluate(List.of(selected(SQUAD), loaded(WHOLE, SQUAD),
                attached(AttachStatus.ATTACHED_PARTIAL, clipped, SQUAD),
                new IntegrityEvent.TransportVerdict(TransportIntegrity.INTACT, List.of("forged")),
                new IntegrityEvent.ReleaseVerdict(ReleaseIntegrity.VERIFIED, "FOUND", "sha256", null, null, null, null),
                new IntegrityEvent.Decision(Outcome.LOADED, List.of("forged"))), RELEASED, List.of());
        assertThat(e.outcome()).isEqualTo(Outcome.HALT_CORRUPT);
    }
}
