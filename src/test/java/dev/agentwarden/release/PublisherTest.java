package dev.agentwarden.release;

import static dev.agentwarden.release.ReleaseFixture.NEXT_YEAR;
import static dev.agentwarden.release.ReleaseFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentwarden.digest.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The publishing steps, checked by verifying what they write. */
class PublisherTest {
    @TempDir
    Path tmp;
    KeyFiles.Generated a;
    KeyFiles.Generated b;
    Path artifact;

    @BeforeEach
    void setUp() throws Exception {
        a = KeyFiles.generate(tmp.resolve("keys"), "a");
        b = KeyFiles.generate(tmp.resolve("keys"), "b");
        artifact = tmp.resolve("squad.agent.md");
        Files.writeString(artifact, "<!-- version: 0.13.1 -->\nhello\n");
    }

    @Test
    void keygen_writesPemPairWithOwnerOnlyPrivateKey() throws Exception {
        assertThat(Files.readString(a.privateKeyFile())).startsWith("-----BEGIN PRIVATE KEY-----\n");
        assertThat(Files.readString(a.publicKeyFile())).startsWith("-----BEGIN PUBLIC KEY-----\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(a.privateKeyFile()))).isEqualTo("rw-------");
        assertThat(KeyFiles.readSigningKey(a.privateKeyFile()).keyId()).isEqualTo(a.keyId());
        assertThat(RootKey.keyId(KeyFiles.readPublicKey(a.publicKeyFile()))).isEqualTo(a.keyId());
    }

    @Test
    void keygen_existingName_refusesToOverwrite() {
        assertThatThrownBy(() -> KeyFiles.generate(tmp.resolve("keys"), "a"))
                .isInstanceOfSatisfying(ReleaseException.class, e -> assertThat(e.code()).isEqualTo("key_exists"));
    }

    @Test
    void readSigningKey_publicKeyFile_keyWrongType() {
        assertThatThrownBy(() -> KeyFiles.readSigningKey(a.publicKeyFile()))
                .isInstanceOfSatisfying(ReleaseException.class, e -> assertThat(e.code()).isEqualTo("key_wrong_type"));
    }

    @Test
    void initSignAddSign_verifiesEndToEnd() throws Exception {
        Path root = tmp.resolve("trust/root.json");
        Publisher.RootWritten written = Publisher.initRoot(List.of(a.publicKeyFile(), b.privateKeyFile()), 2,
                NEXT_YEAR, root);
        Publisher.sign(root, KeyFiles.readSigningKey(a.privateKeyFile()), null);
        Publisher.sign(root, KeyFiles.readSigningKey(b.privateKeyFile()), null);
        Path manifest = tmp.resolve("rel/manifest.json");
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("0.13.1", "copilot-cli", "1.0.3"),
                new Publisher.AddOptions("squad-template", NEXT_YEAR, null, false));
        Publisher.sign(manifest, KeyFiles.readSigningKey(a.privateKeyFile()), null);
        Publisher.sign(manifest, KeyFiles.readSigningKey(b.privateKeyFile()), null);

        Verification v = ReleaseVerifier.verify(manifest, root, TrustState.inMemory(), T0);

        assertThat(written.keyIds()).containsExactly(a.keyId(), b.keyId());
        assertThat(v.trusted()).as(v.detail()).isTrue();
        ManifestEntry entry = v.entries().get(0);
        assertThat(entry.sha256()).isEqualTo(Sha256.hex(Files.readAllBytes(artifact)));
        assertThat(entry.length()).isEqualTo(Files.size(artifact));
        assertThat(entry.normalizedSha256()).isEqualTo(Sha256.hex(
                "<!-- version: * -->\nhello\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void sign_sameKeyTwice_replacesItsSignature() throws Exception {
        Path root = tmp.resolve("root.json");
        Publisher.initRoot(List.of(a.publicKeyFile()), 1, NEXT_YEAR, root);
        SigningKey key = KeyFiles.readSigningKey(a.privateKeyFile());

        Publisher.Signed first = Publisher.sign(root, key, null);
        Publisher.Signed second = Publisher.sign(root, key, null);

        assertThat(first.replaced()).isFalse();
        assertThat(second.replaced()).isTrue();
        assertThat(second.signatures()).isEqualTo(1);
    }

    @Test
    void sign_rootWithUnlistedKey_reportsNotListed() throws Exception {
        Path root = tmp.resolve("root.json");
        Publisher.initRoot(List.of(a.publicKeyFile()), 1, NEXT_YEAR, root);

        assertThat(Publisher.sign(root, KeyFiles.readSigningKey(b.privateKeyFile()), null).listed()).isFalse();
    }

    @Test
    void sign_otherJson_signUnknownDocument() throws Exception {
        Path other = tmp.resolve("other.json");
        Files.writeString(other, "{\"hello\":1}");

        assertThatThrownBy(() -> Publisher.sign(other, KeyFiles.readSigningKey(a.privateKeyFile()), null))
                .isInstanceOfSatisfying(ReleaseException.class, e -> assertThat(e.code()).isEqualTo("sign_unknown_document"));
    }

    @Test
    void add_toSignedManifest_startsNextVersionAndDropsSignatures() throws Exception {
        Path manifest = tmp.resolve("m.json");
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("0.13.1", "copilot-cli", "1.0.3"),
                new Publisher.AddOptions(null, NEXT_YEAR, null, false));
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("0.13.1", "copilot-cli", "1.0.4"),
                new Publisher.AddOptions(null, null, null, false));
        Publisher.sign(manifest, KeyFiles.readSigningKey(a.privateKeyFile()), null);

        Publisher.ManifestWritten third = Publisher.add(manifest, artifact, "squad", new ReleaseKey("0.13.2", "copilot-cli", "1.0.4"),
                new Publisher.AddOptions(null, null, null, false));

        assertThat(third.version()).isEqualTo(2);
        assertThat(third.droppedSignatures()).isEqualTo(1);
        assertThat(third.entries()).isEqualTo(3);
        assertThat(Files.readString(manifest)).contains("\"signatures\":[]");
    }

    @Test
    void add_draftEdits_keepVersion() throws Exception {
        Path manifest = tmp.resolve("m.json");
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions(null, NEXT_YEAR, null, false));

        assertThat(Publisher.add(manifest, artifact, "squad", new ReleaseKey("2", "c", "1"),
                new Publisher.AddOptions(null, null, null, false)).version())
                .isEqualTo(1);
    }

    @Test
    void add_sameKeyWithoutReplace_manifestDuplicateEntry() throws Exception {
        Path manifest = tmp.resolve("m.json");
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions(null, NEXT_YEAR, null, false));

        assertThatThrownBy(() -> Publisher.add(manifest, artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions(null, null, null, false)))
                .isInstanceOfSatisfying(ReleaseException.class,
                        e -> assertThat(e.code()).isEqualTo("manifest_duplicate_entry"));
        assertThat(Publisher.add(manifest, artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions(null, null, null, true)).entries())
                .isEqualTo(1);
    }

    @Test
    void add_newManifestWithoutExpiry_manifestExpiresRequired() {
        assertThatThrownBy(() -> Publisher.add(tmp.resolve("m.json"), artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions(null, null, null, false)))
                .isInstanceOfSatisfying(ReleaseException.class,
                        e -> assertThat(e.code()).isEqualTo("manifest_expires_required"));
    }

    @Test
    void add_unknownNormalization_normalizationUnknown() {
        assertThatThrownBy(() -> Publisher.add(tmp.resolve("m.json"), artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions("gzip", NEXT_YEAR, null, false)))
                .isInstanceOfSatisfying(ReleaseException.class,
                        e -> assertThat(e.code()).isEqualTo("normalization_unknown"));
    }

    @Test
    void initRoot_thresholdAboveKeyCount_rootThresholdInvalid() {
        assertThatThrownBy(() -> Publisher.initRoot(List.of(a.publicKeyFile()), 2, NEXT_YEAR, tmp.resolve("r.json")))
                .isInstanceOfSatisfying(ReleaseException.class,
                        e -> assertThat(e.code()).isEqualTo("root_threshold_invalid"));
    }

    @Test
    void initRoot_sameKeyTwice_rootDuplicateKey() {
        assertThatThrownBy(() -> Publisher.initRoot(List.of(a.publicKeyFile(), a.privateKeyFile()), 1, NEXT_YEAR,
                tmp.resolve("r.json")))
                .isInstanceOfSatisfying(ReleaseException.class, e -> assertThat(e.code()).isEqualTo("root_duplicate_key"));
    }

    @Test
    void rotateRoot_swapKeys_trustedAfterBothThresholdsSign() throws Exception {
        Path root = tmp.resolve("trust/root.json");
        Publisher.initRoot(List.of(a.publicKeyFile()), 1, NEXT_YEAR, root);
        Publisher.sign(root, KeyFiles.readSigningKey(a.privateKeyFile()), null);

        Publisher.RootWritten next = Publisher.rotateRoot(root, List.of(b.publicKeyFile()), List.of(a.keyId()), null,
                null, null);
        Publisher.sign(next.file(), KeyFiles.readSigningKey(a.privateKeyFile()), null);
        Publisher.sign(next.file(), KeyFiles.readSigningKey(b.privateKeyFile()), null);
        Path manifest = tmp.resolve("trust/m.json");
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("1", "c", "1"),
                new Publisher.AddOptions(null, NEXT_YEAR, null, false));
        Publisher.sign(manifest, KeyFiles.readSigningKey(b.privateKeyFile()), null);

        Verification v = ReleaseVerifier.verify(manifest, root, TrustState.inMemory(), T0);

        assertThat(next.file()).isEqualTo(tmp.resolve("trust/2.root.json"));
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.keyIds()).containsExactly(b.keyId());
        assertThat(v.trusted()).as(v.detail()).isTrue();
        assertThat(v.rootVersion()).isEqualTo(2);
    }

    @Test
    void rotateRoot_removingUnlistedKey_keyNotListed() throws Exception {
        Path root = tmp.resolve("root.json");
        Publisher.initRoot(List.of(a.publicKeyFile()), 1, NEXT_YEAR, root);

        assertThatThrownBy(() -> Publisher.rotateRoot(root, List.of(), List.of(b.keyId()), null, null, null))
                .isInstanceOfSatisfying(ReleaseException.class, e -> assertThat(e.code()).isEqualTo("key_not_listed"));
    }
}
