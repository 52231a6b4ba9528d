package dev.agentwarden.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The frozen version-1 files in src/test/resources/release/v1 keep verifying. */
class FormatFixturesTest {
    static final Clock AT = Clock.fixed(Instant.parse("2030-06-01T00:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path tmp;
    Path root;
    Path manifest;
    ReleaseFloor floor;

    @BeforeEach
    void copyFixtures() throws Exception {
        Path v1 = Path.of(FormatFixturesTest.class.getResource("/release/v1").toURI());
        root = Files.copy(v1.resolve("root.json"), tmp.resolve("root.json"));
        manifest = Files.copy(v1.resolve("manifest.json"), tmp.resolve("manifest.json"));
        floor = ReleaseFloor.forProject(Files.createDirectories(tmp.resolve("project")),
                Map.of("XDG_STATE_HOME", tmp.resolve("user-state").toString()));
        Files.createDirectories(floor.projectFile().getParent());
        Files.copy(v1.resolve("trusted.json"), floor.projectFile());
        Files.setPosixFilePermissions(floor.projectFile(), PosixFilePermissions.fromString("rw-r--r--"));
    }

    @Test
    void v1Files_verifyAndAnswerLookups() {
        SignedReleaseStore store = SignedReleaseStore.open(manifest, root, floor, AT);

        assertThat(store.verification().trusted()).as(store.verification().detail()).isTrue();
        assertThat(store.verification().manifestVersion()).isEqualTo(3);
        assertThat(store.verification().signers()).containsExactlyInAnyOrder(ReleaseFixture.key(1).keyId(),
                ReleaseFixture.key(2).keyId());
        ReleaseLookup squad = store.lookup(new ReleaseKey("0.13.1", "copilot-cli", "1.0.3"));
        assertThat(squad.status()).isEqualTo(ReleaseLookup.Status.FOUND);
        assertThat(squad.entry().sha256()).isEqualTo("525a919f2b8c3c2586dcb2862de3cff63c85128cd63702e96c83be83d0ed631f");
        assertThat(squad.entry().length()).isEqualTo(82919);
        assertThat(squad.entry().normalization()).isEqualTo("squad-template");
        ReleaseLookup reviewer = store.lookup(new ReleaseKey("1.2.0", "claude-code", "2.1.0"));
        assertThat(reviewer.entry().agentId()).isEqualTo("reviewer");
        assertThat(reviewer.entry().normalizedSha256()).isNull();
    }

    @Test
    void v1ProjectState_isMigratedToUserStateAndRaised() throws Exception {
        SignedReleaseStore.open(manifest, root, floor, AT);

        assertThat(Files.readString(floor.userFile())).contains("\"manifest_version\":3").contains("\"format\":2");
    }
}
