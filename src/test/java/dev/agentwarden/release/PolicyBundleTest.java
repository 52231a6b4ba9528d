package dev.agentwarden.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyBundleTest {
    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
    private static final Map<String, byte[]> FILES = Map.of("manifest.yaml",
            "schema_version: 1\n".getBytes(StandardCharsets.UTF_8));

    @TempDir
    Path tmp;

    private Path root;

    @BeforeEach
    void root() throws Exception {
        for (String n : List.of("alice", "bob", "mallory")) {
            KeyFiles.generate(tmp, n);
        }
        root = tmp.resolve("policy-root.json");
        Publisher.initRoot(List.of(tmp.resolve("alice.pub.pem"), tmp.resolve("bob.pub.pem")), 1,
                NOW.plus(Duration.ofDays(365)), root);
        Publisher.sign(root, KeyFiles.readSigningKey(tmp.resolve("alice.key.pem")), null);
    }

    private byte[] bundle(long version, Instant expires, String signer) throws Exception {
        return PolicyBundle.sign(FILES, version, expires, List.of(tmp.resolve(signer + ".key.pem")));
    }

    @Test
    void good_verifies_withItsFilesAndSigner() throws Exception {
        PolicyBundle.Verified v = PolicyBundle.verify(bundle(3, NOW.plusSeconds(60), "alice"), root, 2, 1, NOW);
        assertThat(v.version()).isEqualTo(3);
        assertThat(v.files().get("manifest.yaml")).isEqualTo(FILES.get("manifest.yaml"));
        assertThat(v.signers()).hasSize(1);
        assertThat(v.rootVersion()).isEqualTo(1);
    }

    @Test
    void notAboveTheFloor_isRollback() throws Exception {
        byte[] b = bundle(2, NOW.plusSeconds(60), "alice");
        assertThatThrownBy(() -> PolicyBundle.verify(b, root, 2, 1, NOW))
                .hasFieldOrPropertyWithValue("code", "bundle_rollback");
    }

    @Test
    void expiredAtTheVerificationInstant_isRefused() throws Exception {
        byte[] b = bundle(3, NOW, "alice");
        assertThatThrownBy(() -> PolicyBundle.verify(b, root, 0, 0, NOW))
                .hasFieldOrPropertyWithValue("code", "bundle_expired");
    }

    @Test
    void unknownKey_andTamperedPayload_failTheThreshold() throws Exception {
        byte[] unknown = bundle(3, NOW.plusSeconds(60), "mallory");
        assertThatThrownBy(() -> PolicyBundle.verify(unknown, root, 0, 0, NOW))
                .hasFieldOrPropertyWithValue("code", "signature_threshold_not_met");
        String good = new String(bundle(3, NOW.plusSeconds(60), "alice"), StandardCharsets.UTF_8);
        int at = good.indexOf("\"payload\":\"") + 12;
        char c = good.charAt(at);
        byte[] tampered = (good.substring(0, at) + (c == 'A' ? 'B' : 'A') + good.substring(at + 1))
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> PolicyBundle.verify(tampered, root, 0, 0, NOW))
                .hasFieldOrPropertyWithValue("code", "signature_threshold_not_met");
    }

    @Test
    void keyRemovedByARotation_isRevoked() throws Exception {
        Path next = Publisher.rotateRoot(root, List.of(), List.of(tmp.resolve("bob.pub.pem").toString()), null, null,
                null).file();
        Publisher.sign(next, KeyFiles.readSigningKey(tmp.resolve("alice.key.pem")), null);
        byte[] byBob = bundle(3, NOW.plusSeconds(60), "bob");
        assertThatThrownBy(() -> PolicyBundle.verify(byBob, root, 0, 0, NOW))
                .hasFieldOrPropertyWithValue("code", "signature_threshold_not_met");
        assertThat(PolicyBundle.verify(bundle(3, NOW.plusSeconds(60), "alice"), root, 0, 0, NOW).rootVersion())
                .isEqualTo(2);
        assertThatThrownBy(() -> PolicyBundle.verify(bundle(4, NOW.plusSeconds(60), "alice"), root, 0, 3, NOW))
                .hasFieldOrPropertyWithValue("code", "root_rollback");
        assertThat(Files.exists(next)).isTrue();
    }

    @Test
    void aFileOutsideTheManagedLayer_cannotBeSigned() {
        assertThatThrownBy(() -> PolicyBundle.sign(Map.of("hook.sh", new byte[1]), 1, NOW, List.of()))
                .isInstanceOf(ReleaseException.class).hasMessageContaining("hook.sh");
    }
}
