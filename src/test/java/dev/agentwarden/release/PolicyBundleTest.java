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

    private static final Map<String, PolicyBundle.Script> SCRIPTS = Map.of("concerns/deny.sh",
            new PolicyBundle.Script("#!/bin/sh\nexit 1\n".getBytes(StandardCharsets.UTF_8), true),
            "lib/words.txt", new PolicyBundle.Script(new byte[] {0, 1, 2, (byte) 0xff}, false));

    private byte[] withScripts(Map<String, PolicyBundle.Script> scripts) throws Exception {
        return PolicyBundle.sign(FILES, scripts, 3, NOW.plusSeconds(60), List.of(tmp.resolve("alice.key.pem")));
    }

    @Test
    void scripts_roundTrip_withTheirBytesAndMode() throws Exception {
        PolicyBundle.Verified v = PolicyBundle.verify(withScripts(SCRIPTS), root, 0, 0, NOW);
        assertThat(v.scripts()).containsOnlyKeys("concerns/deny.sh", "lib/words.txt");
        assertThat(v.scripts().get("concerns/deny.sh").bytes()).isEqualTo(SCRIPTS.get("concerns/deny.sh").bytes());
        assertThat(v.scripts().get("concerns/deny.sh").executable()).isTrue();
        assertThat(v.scripts().get("lib/words.txt").bytes()).containsExactly(0, 1, 2, 0xff);
        assertThat(v.scripts().get("lib/words.txt").executable()).isFalse();
        assertThat(PolicyBundle.verify(bundle(3, NOW.plusSeconds(60), "alice"), root, 0, 0, NOW).scripts()).isEmpty();
    }

    @Test
    void aTamperedScriptByte_orMode_failsTheSignature() throws Exception {
        String good = new String(withScripts(SCRIPTS), StandardCharsets.UTF_8);
        String payload = good.replaceAll("(?s).*\"payload\":\"([^\"]+)\".*", "$1");
        String decoded = new String(java.util.Base64.getDecoder().decode(payload), StandardCharsets.UTF_8);
        String script = java.util.Base64.getEncoder().encodeToString("#!/bin/sh\nexit 1\n".getBytes(StandardCharsets.UTF_8));
        String evil = java.util.Base64.getEncoder().encodeToString("#!/bin/sh\nexit 0\n".getBytes(StandardCharsets.UTF_8));
        assertThat(decoded).contains(script).contains("\"0644\"");
        for (String tampered : List.of(decoded.replace(script, evil), decoded.replace("\"0644\"", "\"0755\""))) {
            byte[] envelope = good.replace(payload, java.util.Base64.getEncoder().encodeToString(
                    tampered.getBytes(StandardCharsets.UTF_8))).getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> PolicyBundle.verify(envelope, root, 0, 0, NOW))
                    .hasFieldOrPropertyWithValue("code", "signature_threshold_not_met");
        }
    }

    @Test
    void scriptNames_leadingOut_orAbsolute_orBundleFiles_cannotBeSigned() {
        for (String bad : List.of("../x.sh", "/etc/x.sh", "a/../../x.sh", "./x.sh", "a//x.sh", "manifest.yaml",
                "bundle.json", "a\\b.sh", "")) {
            assertThatThrownBy(() -> withScripts(Map.of(bad, new PolicyBundle.Script(new byte[1], true))))
                    .as(bad).isInstanceOf(ReleaseException.class)
                    .hasFieldOrPropertyWithValue("code", "bundle_script_name_invalid");
        }
    }

    @Test
    void scriptSizes_areBounded_perFileAndInTotal() {
        byte[] big = new byte[PolicyBundle.MAX_SCRIPT_BYTES + 1];
        assertThatThrownBy(() -> withScripts(Map.of("big.sh", new PolicyBundle.Script(big, true))))
                .hasFieldOrPropertyWithValue("code", "bundle_script_too_large");
        byte[] full = new byte[PolicyBundle.MAX_SCRIPT_BYTES];
        Map<String, PolicyBundle.Script> three = Map.of("a", new PolicyBundle.Script(full, false),
                "b", new PolicyBundle.Script(full, false), "c", new PolicyBundle.Script(full, false));
        assertThatThrownBy(() -> withScripts(three)).hasFieldOrPropertyWithValue("code", "bundle_scripts_too_large");
    }

    @Test
    void scriptsAtTheTotalCap_fitInTheFetchLimit_andVerify() throws Exception {
        byte[] full = new byte[PolicyBundle.MAX_SCRIPT_BYTES];
        new java.util.Random(7).nextBytes(full);
        byte[] envelope = withScripts(Map.of("a.sh", new PolicyBundle.Script(full, true),
                "b.sh", new PolicyBundle.Script(full, false)));
        System.out.println("PolicyBundleTest: 2 x 1 MiB of scripts make a " + envelope.length + "-byte envelope");
        assertThat(envelope.length).isLessThan(4 * 1024 * 1024);
        assertThat(PolicyBundle.verify(envelope, root, 0, 0, NOW).scripts().get("b.sh").bytes()).isEqualTo(full);
    }

    @Test
    void aSignedScriptWhoseContentIsNotItsSha256_isRefused() throws Exception {
        Dsse.Envelope good = Dsse.parse(withScripts(SCRIPTS), "bundle");
        String body = new String(good.payload(), StandardCharsets.UTF_8);
        String sha = dev.agentwarden.digest.Sha256.hex(SCRIPTS.get("concerns/deny.sh").bytes());
        assertThat(body).contains(sha);
        byte[] changed = body.replace(sha, "0".repeat(64)).getBytes(StandardCharsets.UTF_8);
        SigningKey alice = KeyFiles.readSigningKey(tmp.resolve("alice.key.pem"));
        byte[] sig = Ed25519.sign(alice.privateKey(), Dsse.pae(PolicyBundle.PAYLOAD_TYPE, changed));
        byte[] envelope = dev.agentwarden.json.Json.write(Dsse.document(new Dsse.Envelope(PolicyBundle.PAYLOAD_TYPE,
                changed, List.of(new SignatureEntry(alice.keyId(), sig))))).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> PolicyBundle.verify(envelope, root, 0, 0, NOW))
                .hasFieldOrPropertyWithValue("code", "bundle_script_digest_mismatch");
    }
}
