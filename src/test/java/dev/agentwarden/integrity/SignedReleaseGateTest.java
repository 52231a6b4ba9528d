package dev.agentwarden.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.release.KeyFiles;
import dev.agentwarden.release.Publisher;
import dev.agentwarden.release.ReleaseFloor;
import dev.agentwarden.release.ReleaseSource;
import dev.agentwarden.release.ReleaseSources;
import dev.agentwarden.release.SigningKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate judging release integrity against a signed manifest ({@code --trust-root}). */
class SignedReleaseGateTest {
    static final Instant NOW = Instant.parse("2026-07-21T10:00:00Z");
    static final Instant EXPIRES = Instant.parse("2026-10-01T00:00:00Z");
    static final byte[] WHOLE = Ev.squad();

    @TempDir
    Path dir;

    Path root;
    Path manifest;
    Path agentFile;

    @BeforeEach
    void publish() throws Exception {
        KeyFiles.Generated alice = KeyFiles.generate(dir.resolve("keys"), "alice");
        SigningKey key = KeyFiles.readSigningKey(alice.privateKeyFile());
        root = dir.resolve("root.json");
        Publisher.initRoot(List.of(alice.publicKeyFile()), 1, Instant.parse("2027-07-01T00:00:00Z"), root);
        Publisher.sign(root, key, null);
        agentFile = Files.write(dir.resolve("squad.agent.md"), WHOLE);
        manifest = dir.resolve("manifest.json");
        Publisher.add(manifest, agentFile, "squad", new dev.agentwarden.release.ReleaseKey(Ev.VERSION, "copilot-cli", "1.0.3"),
                new Publisher.AddOptions("squad-template", EXPIRES, null, false));
        Publisher.sign(manifest, key, null);
    }

    private GateVerdict run(Instant at, boolean requireTrusted, EvidenceLog log) {
        Clock clock = Clock.fixed(at, ZoneOffset.UTC);
        ReleaseSource source = ReleaseSources.open(manifest, root,
                ReleaseFloor.forProject(dir, Map.of("XDG_STATE_HOME", dir.resolve("user-state").toString())), clock);
        GateSession s = IntegrityGate.builder().clock(clock).release(source).evidenceLog(log)
                .requireTrustedManifest(requireTrusted).build()
                .select(AgentSelection.of("squad", agentFile).withAgentVersion(Ev.VERSION).withClient("copilot-cli", "1.0.3"));
        s.attach(s.read(), "test");
        return s.verdict();
    }

    @Test
    void trustedSignedManifest_verifiesAndTheReplayAgreesAtTheRecordedTime() {
        EvidenceLog log = EvidenceLog.under(dir.resolve(".warden"));
        GateVerdict v = run(NOW, false, log);
        assertThat(v.outcome()).isEqualTo(Outcome.LOADED);
        IntegrityEvent.ReleaseVerdict release = v.find(IntegrityEvent.ReleaseVerdict.class);
        assertThat(release.manifest()).containsKeys("path", "sha256", "trust_root");
        EvidenceReplay.SessionResult replayed = EvidenceReplay.replay(log.file(), null).sessions().get(0);
        assertThat(replayed.recomputed().outcome()).isEqualTo(Outcome.LOADED);
        assertThat(replayed.disagreements()).isEmpty();
        assertThat(replayed.notes()).isEmpty();
    }

    @Test
    void expiredSignedManifest_isUnregisteredWithTheReasonAndHaltsOnlyWhenRequired() {
        Instant late = Instant.parse("2026-12-01T00:00:00Z");
        GateVerdict reported = run(late, false, null);
        assertThat(reported.outcome()).isEqualTo(Outcome.LOADED_WITH_REPORT);
        IntegrityEvent.ReleaseVerdict release = reported.find(IntegrityEvent.ReleaseVerdict.class);
        assertThat(release.lookup()).isEqualTo("UNTRUSTED");
        assertThat(release.reason()).isEqualTo("release_manifest_untrusted: manifest_expired");
        assertThat(run(late, true, null).outcome()).isEqualTo(Outcome.UNKNOWN_HALT);
        assertThat(ReleaseSources.untrustedDetail(ReleaseSources.open(manifest, root, null, Clock.fixed(late, ZoneOffset.UTC))))
                .startsWith("manifest_expired");
    }
}
