package dev.agentwarden.release;

import static dev.agentwarden.release.ReleaseFixture.NEXT_YEAR;
import static dev.agentwarden.release.ReleaseFixture.SHA_A;
import static dev.agentwarden.release.ReleaseFixture.SHA_B;
import static dev.agentwarden.release.ReleaseFixture.T0;
import static dev.agentwarden.release.ReleaseFixture.entry;
import static dev.agentwarden.release.ReleaseFixture.key;
import static dev.agentwarden.release.ReleaseFixture.rootSigned;
import static dev.agentwarden.release.ReleaseFixture.signature;
import static dev.agentwarden.release.ReleaseFixture.statement;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.io.OwnedPath;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Trust decisions, grouped like the tuf-conformance suite: unsigned metadata, wrong {@code _type},
 * expiry, thresholds, duplicate keys and signatures, key types, wrong signatures, rollback and root
 * rotation.
 */
class TrustVerificationTest {
    static final SigningKey K1 = key(1);
    static final SigningKey K2 = key(2);
    static final SigningKey K3 = key(3);
    static final SigningKey K7 = key(7);
    static final SigningKey K8 = key(8);
    static final SigningKey ATTACKER = key(9);

    @TempDir
    Path tmp;
    ReleaseFixture fx;
    Path root;
    Map<String, Object> goodStatement;

    @BeforeEach
    void setUp() {
        fx = new ReleaseFixture(tmp);
        root = fx.writeRoot("trust/root.json", rootSigned(1, NEXT_YEAR, 2, K1, K2, K3), K1, K2);
        goodStatement = statement(1, NEXT_YEAR, entry("squad", "0.13.1", SHA_A));
    }

    Verification verify(Path manifest) {
        return fx.verify(manifest, root, T0);
    }

    @Test
    void verify_rootAndManifestSignedByThreshold_isTrusted() {
        Path manifest = fx.writeManifest("rel/manifest.json", goodStatement, K1, K3);

        Verification v = verify(manifest);

        assertThat(v.trusted()).as(v.detail()).isTrue();
        assertThat(v.reason()).isNull();
        assertThat(v.signers()).containsExactlyInAnyOrder(K1.keyId(), K3.keyId());
        assertThat(v.manifestVersion()).isEqualTo(1);
        assertThat(v.rootVersion()).isEqualTo(1);
        assertThat(v.at()).isEqualTo(T0);
        assertThat(v.entries()).extracting(ManifestEntry::agentId).containsExactly("squad");
    }

    @Nested
    class Unsigned {
        @Test
        void verify_unsignedRoot_rootThresholdNotMet() {
            root = fx.writeRoot("trust/root.json", rootSigned(1, NEXT_YEAR, 2, K1, K2, K3));

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("root_signature_threshold_not_met");
        }

        @Test
        void verify_unsignedManifest_signatureThresholdNotMet() {
            Verification v = verify(fx.writeManifest("m.json", goodStatement));

            assertThat(v.trusted()).isFalse();
            assertThat(v.reason()).isEqualTo("signature_threshold_not_met");
            assertThat(v.entries()).isEmpty();
        }
    }

    @Nested
    class WrongType {
        @Test
        void verify_rootWithTargetsType_rootWrongType() {
            Map<String, Object> signed = rootSigned(1, NEXT_YEAR, 1, K1);
            signed.put("_type", "targets");
            root = fx.writeRoot("trust/root.json", signed, K1);

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1)).reason()).isEqualTo("root_wrong_type");
        }

        @Test
        void verify_statementWithOtherType_manifestWrongType() {
            goodStatement.put("_type", "https://in-toto.io/Statement/v0.1");

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("manifest_wrong_type");
        }

        @Test
        void verify_otherPredicateType_manifestWrongType() {
            goodStatement.put("predicateType", "https://slsa.dev/provenance/v1");

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("manifest_wrong_type");
        }

        @Test
        void verify_envelopeOfOtherPayloadType_manifestWrongPayloadType() {
            Path manifest = fx.writeManifest("m.json", "application/json", Jcs.canonicalBytes(goodStatement), K1, K2);

            assertThat(verify(manifest).reason()).isEqualTo("manifest_wrong_payload_type");
        }

        @Test
        void verify_rootFileGivenAsManifest_manifestMalformed() {
            assertThat(verify(root).reason()).isEqualTo("manifest_malformed");
        }

        @Test
        void verify_signatureOverOtherPayloadType_doesNotCount() {
            byte[] payload = Jcs.canonicalBytes(goodStatement);
            byte[] otherPae = Dsse.pae("application/json", payload);
            List<Object> sigs = List.of(
                    signature(K1.keyId(), Base64.getEncoder().encodeToString(ReleaseFixture.sign(K1, otherPae))),
                    signature(K2.keyId(), Base64.getEncoder().encodeToString(ReleaseFixture.sign(K2, otherPae))));

            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, payload, sigs);

            assertThat(verify(manifest).reason()).isEqualTo("signature_threshold_not_met");
        }
    }

    @Nested
    class Expiry {
        @Test
        void verify_expiredRoot_rootExpired() {
            root = fx.writeRoot("trust/root.json", rootSigned(1, T0.minusSeconds(1), 1, K1), K1);

            Verification v = verify(fx.writeManifest("m.json", goodStatement, K1));

            assertThat(v.reason()).isEqualTo("root_expired");
            assertThat(v.detail()).contains("2026-02-28T23:59:59Z").contains("2026-03-01T00:00:00Z");
        }

        @Test
        void verify_manifestExpiringAtVerificationTime_manifestExpired() {
            Path manifest = fx.writeManifest("m.json", statement(1, T0, entry("squad", "1", SHA_A)), K1, K2);

            assertThat(verify(manifest).reason()).isEqualTo("manifest_expired");
        }

        @Test
        void verify_manifestExpiringOneSecondLater_isTrusted() {
            Path manifest = fx.writeManifest("m.json", statement(1, T0.plusSeconds(1), entry("squad", "1", SHA_A)),
                    K1, K2);

            assertThat(verify(manifest).trusted()).isTrue();
        }

        @Test
        void verify_sameManifestLaterAtItsExpiry_manifestExpired() {
            Instant expires = T0.plus(Duration.ofDays(30));
            Path manifest = fx.writeManifest("m.json", statement(1, expires, entry("squad", "1", SHA_A)), K1, K2);

            assertThat(fx.verify(manifest, root, T0).trusted()).isTrue();
            assertThat(fx.verify(manifest, root, expires).reason()).isEqualTo("manifest_expired");
        }
    }

    @Nested
    class Thresholds {
        @Test
        void verify_oneOfTwoRequiredSignatures_thresholdNotMet() {
            Verification v = verify(fx.writeManifest("m.json", goodStatement, K2));

            assertThat(v.reason()).isEqualTo("signature_threshold_not_met");
            assertThat(v.detail()).contains("1 of 2");
        }

        @Test
        void verify_sameKeySigningTwice_countsOnce() {
            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K1)).reason())
                    .isEqualTo("signature_threshold_not_met");
        }

        @Test
        void verify_sameSignatureUnderTwoKeyIdHints_countsOnce() {
            byte[] payload = Jcs.canonicalBytes(goodStatement);
            String sig = Base64.getEncoder().encodeToString(
                    ReleaseFixture.sign(K1, Dsse.pae(ReleaseManifest.PAYLOAD_TYPE, payload)));
            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, payload,
                    List.of(signature(K1.keyId(), sig), signature(K2.keyId(), sig)));

            assertThat(verify(manifest).reason()).isEqualTo("signature_threshold_not_met");
        }

        @Test
        void verify_signatureByUnknownKey_doesNotCount() {
            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, ATTACKER)).reason())
                    .isEqualTo("signature_threshold_not_met");
        }

        @Test
        void verify_wrongKeyIdHints_realSignersStillCount() {
            byte[] payload = Jcs.canonicalBytes(goodStatement);
            byte[] pae = Dsse.pae(ReleaseManifest.PAYLOAD_TYPE, payload);
            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, payload, List.of(
                    signature(K2.keyId(), Base64.getEncoder().encodeToString(ReleaseFixture.sign(K1, pae))),
                    signature("not-a-key", Base64.getEncoder().encodeToString(ReleaseFixture.sign(K3, pae)))));

            Verification v = verify(manifest);

            assertThat(v.trusted()).as(v.detail()).isTrue();
            assertThat(v.signers()).containsExactlyInAnyOrder(K1.keyId(), K3.keyId());
        }

        @Test
        void verify_urlSafeUnpaddedSignature_counts() {
            byte[] payload = Jcs.canonicalBytes(goodStatement);
            byte[] pae = Dsse.pae(ReleaseManifest.PAYLOAD_TYPE, payload);
            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, payload, List.of(
                    signature(K1.keyId(), Base64.getUrlEncoder().withoutPadding().encodeToString(ReleaseFixture.sign(K1, pae))),
                    signature(K2.keyId(), Base64.getEncoder().withoutPadding().encodeToString(ReleaseFixture.sign(K2, pae)))));

            assertThat(verify(manifest).trusted()).isTrue();
        }
    }

    @Nested
    class WrongSignatures {
        @Test
        void verify_validSignatureOverOtherManifest_doesNotCount() {
            byte[] payload = Jcs.canonicalBytes(goodStatement);
            byte[] otherPae = Dsse.pae(ReleaseManifest.PAYLOAD_TYPE,
                    Jcs.canonicalBytes(statement(2, NEXT_YEAR, entry("squad", "0.13.1", SHA_B))));
            byte[] pae = Dsse.pae(ReleaseManifest.PAYLOAD_TYPE, payload);
            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, payload, List.of(
                    signature(K1.keyId(), Base64.getEncoder().encodeToString(ReleaseFixture.sign(K1, pae))),
                    signature(K2.keyId(), Base64.getEncoder().encodeToString(ReleaseFixture.sign(K2, otherPae)))));

            Verification v = verify(manifest);

            assertThat(v.reason()).isEqualTo("signature_threshold_not_met");
            assertThat(v.signers()).containsExactly(K1.keyId());
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource({"flipped bit, flip", "truncated, truncate", "all zero, zero"})
        void verify_damagedSignature_doesNotCount(String why, String damage) {
            byte[] payload = Jcs.canonicalBytes(goodStatement);
            byte[] pae = Dsse.pae(ReleaseManifest.PAYLOAD_TYPE, payload);
            byte[] bad = ReleaseFixture.sign(K2, pae);
            switch (damage) {
                case "flip" -> bad[10] ^= 1;
                case "truncate" -> bad = java.util.Arrays.copyOf(bad, 63);
                default -> java.util.Arrays.fill(bad, (byte) 0);
            }
            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, payload, List.of(
                    signature(K1.keyId(), Base64.getEncoder().encodeToString(ReleaseFixture.sign(K1, pae))),
                    signature(K2.keyId(), Base64.getEncoder().encodeToString(bad))));

            assertThat(verify(manifest).reason()).isEqualTo("signature_threshold_not_met");
        }

        @Test
        void verify_payloadEditedAfterSigning_doesNotCount() {
            Path manifest = fx.writeManifest("m.json", goodStatement, K1, K2);
            byte[] tampered = Jcs.canonicalBytes(statement(1, NEXT_YEAR, entry("squad", "0.13.1", SHA_B)));
            String text = readString(manifest);
            String originalPayload = Base64.getEncoder().encodeToString(Jcs.canonicalBytes(goodStatement));
            fx.write("m.json", text.replace(originalPayload, Base64.getEncoder().encodeToString(tampered)));

            assertThat(verify(manifest).reason()).isEqualTo("signature_threshold_not_met");
        }

        @Test
        void verify_signatureNotBase64_manifestMalformed() {
            Path manifest = fx.writeEnvelope("m.json", ReleaseManifest.PAYLOAD_TYPE, Jcs.canonicalBytes(goodStatement),
                    List.of(signature(K1.keyId(), "not base64!")));

            assertThat(verify(manifest).reason()).isEqualTo("manifest_malformed");
        }
    }

    @Nested
    class DuplicateAndWrongKeys {
        @Test
        void verify_rootListingSameKeyTwice_rootMalformed() {
            Map<String, Object> signed = rootSigned(1, NEXT_YEAR, 1, K1);
            Map<String, Object> sameKeyOtherObject = new LinkedHashMap<>(RootKey.keyObject(K1.publicKey()));
            sameKeyOtherObject.put("x-note", "same key again");
            keys(signed).put(Jcs.sha256Hex(sameKeyOtherObject), sameKeyOtherObject);
            root = fx.writeRoot("trust/root.json", signed, K1);

            Verification v = verify(fx.writeManifest("m.json", goodStatement, K1));

            assertThat(v.reason()).isEqualTo("root_malformed");
            assertThat(v.detail()).contains("same key");
        }

        @Test
        void verify_rootWithDuplicateKeyIdProperty_rootMalformed() {
            String keyObject = "{\"keytype\":\"ed25519\",\"scheme\":\"ed25519\",\"keyval\":{\"public\":\""
                    + HexFormat.of().formatHex(K1.publicKey()) + "\"}}";
            fx.write("trust/root.json", "{\"signed\":{\"_type\":\"root\",\"version\":1,\"expires\":\"2027-03-01T00:00:00Z\","
                    + "\"keys\":{\"" + K1.keyId() + "\":" + keyObject + ",\"" + K1.keyId() + "\":" + keyObject
                    + "},\"threshold\":1},\"signatures\":[]}");

            Verification v = verify(fx.writeManifest("m.json", goodStatement, K1));

            assertThat(v.reason()).isEqualTo("root_malformed");
            assertThat(v.detail()).contains("json_duplicate_key");
        }

        @Test
        void verify_keyIdNotHashOfKeyObject_rootMalformed() {
            Map<String, Object> signed = rootSigned(1, NEXT_YEAR, 1, K1);
            Map<String, Object> keys = keys(signed);
            Object k = keys.remove(K1.keyId());
            keys.put(K2.keyId(), k);
            root = fx.writeRoot("trust/root.json", signed, K1);

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1)).reason()).isEqualTo("root_malformed");
        }

        @ParameterizedTest(name = "keytype {0}, scheme {1}")
        @CsvSource({"rsa, rsassa-pss-sha256", "ecdsa, ecdsa-sha2-nistp256", "ed25519, ed25519-sha512", "ED25519, ed25519"})
        void verify_keyOfOtherTypeOrScheme_neverCounts(String keyType, String scheme) {
            Map<String, Object> signed = rootSigned(1, NEXT_YEAR, 1, K1);
            Map<String, Object> relabelled = new LinkedHashMap<>(RootKey.keyObject(K2.publicKey()));
            relabelled.put("keytype", keyType);
            relabelled.put("scheme", scheme);
            keys(signed).put(Jcs.sha256Hex(relabelled), relabelled);
            root = fx.writeRoot("trust/root.json", signed, K1, K2);

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K2)).reason())
                    .isEqualTo("signature_threshold_not_met");
            assertThat(verify(fx.writeManifest("m2.json", goodStatement, K1)).trusted()).isTrue();
        }

        @Test
        void verify_ed25519KeyWithBadPublicHex_rootMalformed() {
            Map<String, Object> signed = rootSigned(1, NEXT_YEAR, 1, K1);
            Map<String, Object> broken = new LinkedHashMap<>(RootKey.keyObject(K2.publicKey()));
            broken.put("keyval", Map.of("public", "abcd"));
            keys(signed).put(Jcs.sha256Hex(broken), broken);
            root = fx.writeRoot("trust/root.json", signed, K1);

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1)).reason()).isEqualTo("root_malformed");
        }

        @Test
        void verify_rootThresholdZero_rootMalformed() {
            Map<String, Object> signed = rootSigned(1, NEXT_YEAR, 1, K1);
            signed.put("threshold", 0L);
            root = fx.writeRoot("trust/root.json", signed, K1);

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1)).reason()).isEqualTo("root_malformed");
        }
    }

    @Nested
    class ManifestContent {
        @Test
        void verify_subjectMissingForEntry_manifestSubjectMismatch() {
            @SuppressWarnings("unchecked")
            List<Object> subjects = (List<Object>) goodStatement.get("subject");
            subjects.clear();

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("manifest_subject_mismatch");
        }

        @Test
        void verify_twoEntriesForOneKey_manifestDuplicateEntry() {
            Map<String, Object> twice = statement(1, NEXT_YEAR, entry("squad", "0.13.1", SHA_A),
                    entry("squad", "0.13.1", SHA_B));

            assertThat(verify(fx.writeManifest("m.json", twice, K1, K2)).reason()).isEqualTo("manifest_duplicate_entry");
        }

        @Test
        void verify_missingManifest_manifestUnreadable() {
            assertThat(verify(tmp.resolve("absent.json")).reason()).isEqualTo("manifest_unreadable");
        }

        @Test
        void verify_missingRoot_rootUnreadable() {
            root = tmp.resolve("trust/absent-root.json");

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K2)).reason()).isEqualTo("root_unreadable");
        }

        @Test
        void verify_manifestNotJson_manifestMalformed() {
            assertThat(verify(fx.write("m.json", "{\"payloadType\":")).reason()).isEqualTo("manifest_malformed");
        }
    }

    @Nested
    class Rollback {
        @Test
        void verify_manifestVersionBelowRecorded_manifestRollback() {
            Path v5 = fx.writeManifest("m5.json", statement(5, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
            Path v4 = fx.writeManifest("m4.json", statement(4, NEXT_YEAR, entry("squad", "1", SHA_B)), K1, K2);

            assertThat(verify(v5).trusted()).isTrue();
            Verification v = verify(v4);

            assertThat(v.reason()).isEqualTo("manifest_rollback");
            assertThat(v.detail()).contains("4").contains("5");
            assertThat(verify(v5).trusted()).as("the same version again is not a rollback").isTrue();
        }

        @Test
        void verify_recordedVersion_survivesInStateDirectory() throws Exception {
            verify(fx.writeManifest("m3.json", statement(3, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2));

            String state = Files.readString(fx.stateFile());

            assertThat(state).contains("\"manifest_version\":3").contains("\"root_version\":1");
        }

        @Test
        void verify_untrustedHigherVersion_doesNotRaiseRecordedVersion() {
            Path forged = fx.writeManifest("m9.json", statement(9, NEXT_YEAR, entry("squad", "1", SHA_B)), ATTACKER);
            Path real = fx.writeManifest("m2.json", statement(2, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);

            assertThat(verify(forged).trusted()).isFalse();
            assertThat(verify(real).trusted()).isTrue();
        }

        @Test
        void verify_expiredHigherVersion_doesNotRaiseRecordedVersion() {
            Path expired = fx.writeManifest("m9.json", statement(9, T0, entry("squad", "1", SHA_B)), K1, K2);
            Path real = fx.writeManifest("m2.json", statement(2, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);

            assertThat(verify(expired).reason()).isEqualTo("manifest_expired");
            assertThat(verify(real).trusted()).isTrue();
        }

        @Test
        void verify_rootVersionBelowRecorded_rootRollback() throws Exception {
            Path next = fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K1, K2, K3), K1, K2);
            Path manifest = fx.writeManifest("m.json", goodStatement, K1, K2);
            assertThat(verify(manifest).rootVersion()).isEqualTo(2);

            Files.delete(next);
            Verification v = verify(manifest);

            assertThat(v.reason()).isEqualTo("root_rollback");
        }

        @Test
        void verify_symlinkedLockFile_isRefusedAndCreatesNothingOutside() throws Exception {
            Path outside = tmp.resolve("outside/created");
            Files.createDirectories(outside.getParent());
            dev.agentwarden.io.UserState.ensurePrivateDirectory(fx.stateFile().getParent(), "test");
            Files.createSymbolicLink(fx.stateFile().resolveSibling(fx.stateFile().getFileName() + ".lock"), outside);

            Verification v = verify(fx.writeManifest("m.json", goodStatement, K1, K2));

            assertThat(v.reason()).isEqualTo("release_state_unreadable");
            assertThat(outside).doesNotExist();
        }

        @Test
        void verify_corruptState_releaseStateUnreadable() {
            fx.writeUserState("{\"format\":1,");

            assertThat(verify(fx.writeManifest("m.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("release_state_unreadable");
        }
    }

    /** The floor lives in the user's state; the project cannot delete, lower or plant it. */
    @Nested
    class UserFloor {
        Path v4;
        Path v5;

        @BeforeEach
        void manifests() {
            v4 = fx.writeManifest("m4.json", statement(4, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
            v5 = fx.writeManifest("m5.json", statement(5, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
        }

        @Test
        void verify_projectFloorDeleted_rollbackStillRefused() throws Exception {
            assertThat(verify(v5).trusted()).isTrue();
            deleteTree(tmp.resolve("project/.warden"));

            Verification v = verify(v4);

            assertThat(v.reason()).isEqualTo("manifest_rollback");
            assertThat(v.detail()).contains(fx.stateFile().toString());
            assertThat(fx.projectStateFile()).doesNotExist();
        }

        @Test
        void verify_plantedProjectFloorLower_ignored() {
            assertThat(verify(v5).trusted()).isTrue();
            fx.writeProjectState("{\"format\":2,\"root_version\":1,\"manifest_version\":1}");

            assertThat(verify(v4).reason()).isEqualTo("manifest_rollback");
        }

        @Test
        void verify_plantedProjectFloorHigherOrForeignRoot_ignoredOnceUserFloorExists() {
            assertThat(verify(v4).trusted()).isTrue();
            fx.writeProjectState("{\"format\":2,\"root_version\":99,\"root_sha256\":\"" + "f".repeat(64)
                    + "\",\"manifest_version\":1000000}");

            Verification v = verify(v5);

            assertThat(v.trusted()).as(v.detail()).isTrue();
        }

        @Test
        void verify_projectFloorBeforeUserState_migratedOnceAndOnlyRaises() throws Exception {
            fx.writeProjectState("{\"format\":2,\"root_version\":1,\"root_sha256\":\"" + "f".repeat(64)
                    + "\",\"manifest_version\":5}");

            assertThat(verify(v4).reason()).as("the old floor is kept").isEqualTo("manifest_rollback");
            assertThat(Files.readString(fx.stateFile())).contains("\"manifest_version\":5")
                    .doesNotContain("f".repeat(64));
            assertThat(verify(v5).trusted()).as("a planted root hash is not taken over").isTrue();
            fx.writeProjectState("{\"format\":2,\"root_version\":1,\"manifest_version\":9}");
            Path v6 = fx.writeManifest("m6.json", statement(6, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
            assertThat(verify(v6).trusted()).as("read once: the user floor is authoritative after").isTrue();
        }

        @Test
        void verify_unsafeProjectFloorBeforeUserState_notMigrated() throws Exception {
            Path planted = fx.writeProjectState("{\"format\":2,\"root_version\":1,\"manifest_version\":5}");
            Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-rw-rw-"));

            Verification v = verify(v4);

            assertThat(v.trusted()).as(v.detail()).isTrue();
        }

        @Test
        void verify_newUserFloor_isPrivate() throws Exception {
            assertThat(verify(v4).trusted()).isTrue();

            assertThat(Files.getPosixFilePermissions(fx.stateFile())).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(Files.getPosixFilePermissions(fx.stateFile().getParent()))
                    .isEqualTo(PosixFilePermissions.fromString("rwx------"));
            assertThat(fx.stateFile().getParent()).isEqualTo(tmp.resolve("user-state/agent-warden/release"));
        }

        /** A group write bit counts only for a group other than the user's private one (OwnedPath): give it such a group. */
        private void giveSharedGroup(Path target) throws Exception {
            int privateGid = OwnedPath.privateGroup();
            if ((Integer) Files.getAttribute(target, "unix:gid", LinkOption.NOFOLLOW_LINKS) != privateGid) {
                return;
            }
            Assumptions.assumeTrue(OwnedPath.currentUid() == 0,
                    "new files get this user's private group and only root can give them another");
            Files.setAttribute(target, "unix:gid", privateGid == 1 ? 2 : 1, LinkOption.NOFOLLOW_LINKS);
        }

        @ParameterizedTest
        @CsvSource({"file,rw-rw-rw-", "file,rw--w----", "directory,rwxrwxrwx", "directory,rwx-w----"})
        void verify_userFloorWritableByOthers_refusedAsUntrusted(String which, String mode) throws Exception {
            assertThat(verify(v5).trusted()).isTrue();
            Path target = which.equals("file") ? fx.stateFile() : fx.stateFile().getParent();
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(mode));
            if (mode.charAt(7) != 'w') {
                giveSharedGroup(target);
            }

            Verification v = verify(v4);

            assertThat(v.reason()).isEqualTo("release_state_untrusted");
            assertThat(v.detail()).contains("release_state_writable_by_others").contains(target.toString());
            assertThat(verify(v5).reason()).as("not even the newest manifest").isEqualTo("release_state_untrusted");
        }

        @Test
        void verify_userFloorSymlink_refused() throws Exception {
            Path elsewhere = fx.write("elsewhere/floor.json", "{\"format\":2,\"root_version\":1,\"manifest_version\":0}");
            dev.agentwarden.io.UserState.ensurePrivateDirectory(fx.stateFile().getParent(), "test");
            Files.createSymbolicLink(fx.stateFile(), elsewhere);

            Verification v = verify(v5);

            assertThat(v.reason()).isEqualTo("release_state_untrusted");
            assertThat(v.detail()).contains("state_symlink_refused");
        }

        @Test
        void verify_userFloorDirectorySymlink_refused() throws Exception {
            Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere/release"));
            Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
            dev.agentwarden.io.UserState.ensurePrivateDirectory(fx.stateFile().getParent().getParent(), "test");
            Files.createSymbolicLink(fx.stateFile().getParent(), elsewhere);

            Verification v = verify(v5);

            assertThat(v.reason()).isEqualTo("release_state_untrusted");
            assertThat(v.detail()).contains("state_symlink_refused");
            try (var created = Files.list(elsewhere)) {
                assertThat(created).as("nothing written through the link").isEmpty();
            }
        }

        @ParameterizedTest
        @CsvSource({"file", "directory"})
        void verify_userFloorOwnedByAnotherUid_refusedAsUntrusted(String which) throws Exception {
            Assumptions.assumeTrue(dev.agentwarden.io.OwnedPath.currentUid() == 0,
                    "needs root to give the floor file to another uid");
            assertThat(verify(v5).trusted()).isTrue();
            Path target = which.equals("file") ? fx.stateFile() : fx.stateFile().getParent();
            Files.setAttribute(target, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

            Verification v = verify(v4);

            assertThat(v.reason()).isEqualTo("release_state_untrusted");
            assertThat(v.detail()).contains("release_state_not_owned").contains("65534");
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Nested
    class Rotation {
        Path manifestByNewKeys;

        @BeforeEach
        void newKeysSignManifest() {
            manifestByNewKeys = fx.writeManifest("rel/m.json", goodStatement, K7, K8);
        }

        @Test
        void rotate_signedByOldAndNewThresholds_newKeysTrusted() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K7, K8), K1, K2, K7, K8);

            Verification v = verify(manifestByNewKeys);

            assertThat(v.trusted()).as(v.detail()).isTrue();
            assertThat(v.rootVersion()).isEqualTo(2);
        }

        @Test
        void rotate_manifestSignedByOldKeysAfterRotation_thresholdNotMet() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K7, K8), K1, K2, K7, K8);

            assertThat(verify(fx.writeManifest("rel/old.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("signature_threshold_not_met");
        }

        @Test
        void rotate_newRootNotSignedByOldKeys_rootRotationOldThresholdNotMet() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K7, K8), K7, K8);

            assertThat(verify(manifestByNewKeys).reason()).isEqualTo("root_rotation_old_threshold_not_met");
        }

        @Test
        void rotate_newRootSignedByOneOfTwoOldKeys_rootRotationOldThresholdNotMet() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K7, K8), K1, K7, K8);

            assertThat(verify(manifestByNewKeys).reason()).isEqualTo("root_rotation_old_threshold_not_met");
        }

        @Test
        void rotate_newRootNotSignedByItsOwnKeys_rootRotationNewThresholdNotMet() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K7, K8), K1, K2, K7);

            assertThat(verify(manifestByNewKeys).reason()).isEqualTo("root_rotation_new_threshold_not_met");
        }

        @Test
        void rotate_attackerRootSignedByAttackerOnly_isRejected() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 1, ATTACKER), ATTACKER);

            assertThat(verify(fx.writeManifest("rel/evil.json", goodStatement, ATTACKER)).reason())
                    .isEqualTo("root_rotation_old_threshold_not_met");
        }

        @Test
        void rotate_fileHoldingOtherVersion_rootRotationVersionMismatch() {
            fx.writeRoot("trust/2.root.json", rootSigned(3, NEXT_YEAR, 2, K7, K8), K1, K2, K7, K8);

            assertThat(verify(manifestByNewKeys).reason()).isEqualTo("root_rotation_version_mismatch");
        }

        @Test
        void rotate_throughExpiredIntermediateRoot_isTrusted() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, T0.minus(Duration.ofDays(1)), 1, K3), K1, K2, K3);
            fx.writeRoot("trust/3.root.json", rootSigned(3, NEXT_YEAR, 2, K7, K8), K3, K7, K8);

            Verification v = verify(manifestByNewKeys);

            assertThat(v.trusted()).as(v.detail()).isTrue();
            assertThat(v.rootVersion()).isEqualTo(3);
        }

        @Test
        void rotate_toExpiredFinalRoot_rootExpired() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, T0, 2, K7, K8), K1, K2, K7, K8);

            assertThat(verify(manifestByNewKeys).reason()).isEqualTo("root_expired");
        }

        @Test
        void rotate_newRootBesideManifest_isFollowed() {
            fx.writeRoot("rel/2.root.json", rootSigned(2, NEXT_YEAR, 2, K7, K8), K1, K2, K7, K8);

            assertThat(verify(manifestByNewKeys).rootVersion()).isEqualTo(2);
            assertThat(verify(manifestByNewKeys).trusted()).isTrue();
        }

        @Test
        void rotate_thresholdRaised_appliesToManifest() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 3, K1, K2, K3), K1, K2, K3);

            assertThat(verify(fx.writeManifest("rel/two.json", goodStatement, K1, K2)).reason())
                    .isEqualTo("signature_threshold_not_met");
            assertThat(verify(fx.writeManifest("rel/three.json", goodStatement, K1, K2, K3)).trusted()).isTrue();
        }

        @Test
        void rotate_removingAKeyThatNeverSigned_keepsTheManifestFloor() {
            Path v2 = fx.writeManifest("rel/m2.json", statement(2, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
            Path v1 = fx.writeManifest("rel/m1.json", statement(1, NEXT_YEAR, entry("squad", "1", SHA_B)), K1, K2);
            assertThat(verify(v2).trusted()).isTrue();

            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K1, K2), K1, K2);

            Verification rolledBack = verify(v1);

            assertThat(rolledBack.rootVersion()).isEqualTo(2);
            assertThat(rolledBack.reason()).as("K3 never signed; its removal is no reason to forget v2")
                    .isEqualTo("manifest_rollback");
        }

        @Test
        void rotate_removingASignerOfTheFloor_keepsTheManifestFloor() {
            Path v2 = fx.writeManifest("rel/m2.json", statement(2, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
            Path v1 = fx.writeManifest("rel/m1.json", statement(1, NEXT_YEAR, entry("squad", "1", SHA_B)), K2, K3);
            assertThat(verify(v2).trusted()).isTrue();

            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K2, K3), K1, K2, K3);

            assertThat(verify(v1).reason()).isEqualTo("manifest_rollback");
        }

        @Test
        void rotate_removingCompromisedKey_keepsTheFloorUntilPublishedAboveOrStateDeletedOnPurpose() throws Exception {
            root = fx.writeRoot("trust/root.json", rootSigned(1, NEXT_YEAR, 1, K1), K1);
            Path forgedHighVersion = fx.writeManifest("rel/forged.json",
                    statement(1000, NEXT_YEAR, entry("squad", "1", SHA_B)), K1);
            assertThat(verify(forgedHighVersion).trusted()).isTrue();

            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 1, K7), K1, K7);
            Path real = fx.writeManifest("rel/real.json", statement(2, NEXT_YEAR, entry("squad", "1", SHA_A)), K7);

            assertThat(verify(real).reason()).isEqualTo("manifest_rollback");
            assertThat(verify(forgedHighVersion).reason()).isEqualTo("signature_threshold_not_met");
            assertThat(verify(fx.writeManifest("rel/above.json", statement(1001, NEXT_YEAR, entry("squad", "1", SHA_A)),
                    K7)).trusted()).as("published above the forged version").isTrue();
            Files.delete(fx.stateFile());
            assertThat(verify(real).trusted()).as("the operator forgot the floor on purpose").isTrue();
        }

        @Test
        void rotate_onlyAddingKeys_keepsManifestVersion() {
            root = fx.writeRoot("trust/root.json", rootSigned(1, NEXT_YEAR, 1, K1), K1);
            assertThat(verify(fx.writeManifest("rel/m5.json", statement(5, NEXT_YEAR, entry("squad", "1", SHA_A)), K1))
                    .trusted()).isTrue();

            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 1, K1, K7), K1, K7);

            assertThat(verify(fx.writeManifest("rel/m4.json", statement(4, NEXT_YEAR, entry("squad", "1", SHA_A)), K7))
                    .reason()).isEqualTo("manifest_rollback");
        }
    }

    @Nested
    class Lineage {
        @Test
        void reinitialisedRoot_atTheTrustedVersion_rootReplacedUntilStateDeletedOnPurpose() throws Exception {
            Path v2 = fx.writeManifest("rel/m2.json", statement(2, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2);
            assertThat(verify(v2).trusted()).isTrue();

            root = fx.writeRoot("trust/root.json", rootSigned(1, NEXT_YEAR, 1, K1), K1);
            Path v1 = fx.writeManifest("rel/m1.json", statement(1, NEXT_YEAR, entry("squad", "1", SHA_B)), K1);
            Verification replaced = verify(v1);

            assertThat(replaced.reason()).isEqualTo("root_replaced");
            assertThat(replaced.detail()).contains("release root rotate").contains(fx.stateFile().toString());
            Files.delete(fx.stateFile());
            assertThat(verify(v1).trusted()).isTrue();
        }

        @Test
        void reinitialisedRoot_rotatedPastTheTrustedVersion_rootReplaced() {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K1, K2, K3), K1, K2);
            assertThat(verify(fx.writeManifest("rel/m2.json", goodStatement, K1, K2)).rootVersion()).isEqualTo(2);

            root = fx.writeRoot("other/root.json", rootSigned(1, NEXT_YEAR, 1, K7), K7);
            fx.writeRoot("other/2.root.json", rootSigned(2, NEXT_YEAR, 1, K7, K8), K7, K8);
            fx.writeRoot("other/3.root.json", rootSigned(3, NEXT_YEAR, 1, K8), K7, K8);

            assertThat(verify(fx.writeManifest("rel/m9.json", statement(9, NEXT_YEAR, entry("squad", "1", SHA_B)), K8))
                    .reason()).isEqualTo("root_replaced");
        }

        @Test
        void rotatedRoot_recordsItsHash_andTheNextRunContinuesIt() throws Exception {
            fx.writeRoot("trust/2.root.json", rootSigned(2, NEXT_YEAR, 2, K1, K2), K1, K2);
            Path manifest = fx.writeManifest("rel/m.json", goodStatement, K1, K2);

            assertThat(verify(manifest).trusted()).isTrue();
            assertThat(verify(manifest).trusted()).isTrue();
            assertThat(Files.readString(fx.stateFile())).contains("\"format\":2")
                    .contains("\"root_version\":2").contains("\"root_sha256\":\"");
        }

        @Test
        void formatOneState_keepsItsFloorAndLearnsTheRootHash() throws Exception {
            fx.writeProjectState(
                    "{\"format\":1,\"root_version\":1,\"root_keyids\":[],\"manifest_version\":5}");

            assertThat(verify(fx.writeManifest("m4.json", statement(4, NEXT_YEAR, entry("squad", "1", SHA_A)), K1, K2))
                    .reason()).isEqualTo("manifest_rollback");
            assertThat(Files.readString(fx.stateFile())).contains("\"root_sha256\":\"")
                    .contains("\"manifest_version\":5");
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> keys(Map<String, Object> signed) {
        return (Map<String, Object>) signed.get("keys");
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
