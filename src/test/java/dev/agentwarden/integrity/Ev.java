package dev.agentwarden.integrity;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.integrity.GateSession.AttachStatus;
import dev.agentwarden.integrity.GateSession.ReadStatus;
import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.agentfile.BoundaryProfile;
import dev.agentwarden.integrity.fixture.SquadArtifacts;
import dev.agentwarden.release.JsonFileReleaseStore;
import dev.agentwarden.release.Normalizations;
import dev.agentwarden.release.ReleaseKey;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Builders for integrity events in tests. */
final class Ev {
    static final String VERSION = "0.13.1";
    static final ReleaseKey KEY = new ReleaseKey(VERSION, "copilot-cli", "1.0.3");

    private Ev() {
    }

    /** A whole Squad coordinator, about 3 KB. */
    static byte[] squad() {
        return SquadArtifacts.coordinator(VERSION, SquadArtifacts.team("Lead", "Tester"), 3_000);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static IntegrityEvent.SelectedAgentId selected(BoundaryProfile profile) {
        return selected(profile, false);
    }

    static IntegrityEvent.SelectedAgentId selected(BoundaryProfile profile, boolean requireTrusted) {
        return new IntegrityEvent.SelectedAgentId(new IntegrityEvent.CustomAgent("squad", ".github/agents/squad.agent.md",
                "root-coordinator"), KEY.agentVersion(), KEY.clientId(), KEY.clientVersion(), null, null, profile,
                requireTrusted);
    }

    static IntegrityEvent.AgentNotSelected notSelected() {
        return new IntegrityEvent.AgentNotSelected("squad", "default", "test");
    }

    /** A complete, stable read of {@code bytes}. */
    static IntegrityEvent.PayloadReadStatus loaded(byte[] bytes, BoundaryProfile profile) {
        return new IntegrityEvent.PayloadReadStatus(ReadStatus.LOADED, Sha256.hex(bytes), Normalizations.digests(bytes),
                bytes.length, bytes.length, true, true, profile.check(bytes), null, null, null);
    }

    static IntegrityEvent.PromptAttachStatus attached(AttachStatus status, byte[] bytes, BoundaryProfile profile) {
        return new IntegrityEvent.PromptAttachStatus(status, Sha256.hex(bytes), bytes.length, profile.check(bytes),
                "test", true, null);
    }

    static IntegrityEvent.PromptAttachStatus notAttached() {
        return new IntegrityEvent.PromptAttachStatus(AttachStatus.NOT_ATTACHED, null, 0, null, "test", false, null);
    }

    /** A source holding exactly {@code bytes} registered under {@link #KEY}. */
    static ReleaseSource registered(byte[] bytes, String normalization) {
        JsonFileReleaseStore.Registration r = JsonFileReleaseStore.register("squad", KEY, bytes, normalization);
        return ReleaseSources.of(JsonFileReleaseStore.fromBytes("test-manifest", utf8(JsonFileReleaseStore.render(List.of(r)))));
    }

    static Evaluation evaluate(ReleaseSource release, IntegrityEvent... events) {
        return Evaluator.evaluate(List.of(events), release, List.of());
    }
}
