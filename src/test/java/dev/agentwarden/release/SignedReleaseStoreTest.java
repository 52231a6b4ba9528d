package dev.agentwarden.release;

import static dev.agentwarden.release.ReleaseFixture.NEXT_YEAR;
import static dev.agentwarden.release.ReleaseFixture.SHA_A;
import static dev.agentwarden.release.ReleaseFixture.T0;
import static dev.agentwarden.release.ReleaseFixture.entry;
import static dev.agentwarden.release.ReleaseFixture.key;
import static dev.agentwarden.release.ReleaseFixture.rootSigned;
import static dev.agentwarden.release.ReleaseFixture.statement;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignedReleaseStoreTest {
    static final SigningKey K1 = key(1);
    static final ReleaseKey KEY = new ReleaseKey("0.13.1", "copilot-cli", "1.0.3");

    @TempDir
    Path tmp;
    ReleaseFixture fx;
    Path root;
    ReleaseFloor floor;

    @BeforeEach
    void setUp() {
        fx = new ReleaseFixture(tmp);
        root = fx.writeRoot("trust/root.json", rootSigned(1, NEXT_YEAR, 1, K1), K1);
        floor = fx.floor();
    }

    @Test
    void lookup_registeredKey_found() {
        ManifestEntry squad = new ManifestEntry("squad", "0.13.1", "copilot-cli", "1.0.3", SHA_A, 82919,
                "c".repeat(64), Normalizations.SQUAD_TEMPLATE);
        Path manifest = fx.writeManifest("m.json", statement(1, NEXT_YEAR, squad), K1);

        ReleaseLookup lookup = SignedReleaseStore.open(manifest, root, floor, fixed(T0)).lookup(KEY);

        assertThat(lookup.status()).isEqualTo(ReleaseLookup.Status.FOUND);
        assertThat(lookup.entry()).isEqualTo(new ReleaseEntry("squad", SHA_A, 82919, "c".repeat(64), "squad-template"));
    }

    @Test
    void lookup_unknownKey_notRegistered() {
        Path manifest = fx.writeManifest("m.json", statement(1, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);

        ReleaseLookup lookup = SignedReleaseStore.open(manifest, root, floor, fixed(T0))
                .lookup(new ReleaseKey("0.13.2", "copilot-cli", "1.0.3"));

        assertThat(lookup.status()).isEqualTo(ReleaseLookup.Status.NOT_REGISTERED);
        assertThat(lookup.entry()).isNull();
        assertThat(lookup.reason()).isEqualTo("release_not_registered");
    }

    @Test
    void lookup_untrustedManifest_answersUntrustedForRegisteredKeyToo() {
        Path manifest = fx.writeManifest("m.json", statement(1, T0, entry("squad", "0.13.1", SHA_A)), K1);

        SignedReleaseStore store = SignedReleaseStore.open(manifest, root, floor, fixed(T0));

        assertThat(store.lookup(KEY)).isEqualTo(ReleaseLookup.untrusted("manifest_expired"));
        assertThat(store.verification().detail()).contains("expired");
    }

    @Test
    void lookup_missingFiles_untrustedNotThrown() {
        SignedReleaseStore store = SignedReleaseStore.open(tmp.resolve("nope.json"), tmp.resolve("nope-root.json"),
                floor, fixed(T0));

        assertThat(store.lookup(KEY)).isEqualTo(ReleaseLookup.untrusted("root_unreadable"));
    }

    @Test
    void open_readsClockOnce() {
        Path manifest = fx.writeManifest("m.json", statement(1, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);
        fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 1, K1), K1);
        AtomicInteger reads = new AtomicInteger();
        Clock counting = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                reads.incrementAndGet();
                return T0;
            }
        };

        SignedReleaseStore store = SignedReleaseStore.open(manifest, root, floor, counting);

        assertThat(store.verification().trusted()).isTrue();
        assertThat(reads).hasValue(1);
    }

    @Test
    void open_recordsTrustedVersionsInUserState() {
        Path manifest = fx.writeManifest("m.json", statement(4, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);

        SignedReleaseStore.open(manifest, root, floor, fixed(T0));

        assertThat(floor.userFile().getParent()).isEqualTo(tmp.resolve("user-state/agent-warden/release"));
        assertThat(floor.userFile()).content().contains("\"manifest_version\":4");
    }

    @Test
    void open_withoutRecording_checksButLeavesStateAlone() throws Exception {
        Path v4 = fx.writeManifest("m4.json", statement(4, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);
        Path v3 = fx.writeManifest("m3.json", statement(3, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);
        Path v5 = fx.writeManifest("m5.json", statement(5, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);
        SignedReleaseStore.open(v4, root, floor, fixed(T0));
        String recorded = Files.readString(floor.userFile());

        assertThat(SignedReleaseStore.open(v3, root, floor, false, fixed(T0)).verification().reason())
                .isEqualTo("manifest_rollback");
        assertThat(SignedReleaseStore.open(v5, root, floor, false, fixed(T0)).verification().trusted()).isTrue();
        assertThat(Files.readString(floor.userFile())).isEqualTo(recorded);
    }

    @Test
    void open_withoutStateDir_hasNoMemoryAcrossOpens() {
        Path v4 = fx.writeManifest("m4.json", statement(4, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);
        Path v3 = fx.writeManifest("m3.json", statement(3, NEXT_YEAR, entry("squad", "0.13.1", SHA_A)), K1);

        SignedReleaseStore.open(v4, root, null, fixed(T0));

        assertThat(SignedReleaseStore.open(v3, root, null, fixed(T0)).verification().trusted()).isTrue();
    }

    private static Clock fixed(Instant at) {
        return Clock.fixed(at, ZoneOffset.UTC);
    }
}
