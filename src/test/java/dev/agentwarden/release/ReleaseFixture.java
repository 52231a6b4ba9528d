package dev.agentwarden.release;

import dev.agentwarden.canonical.Jcs;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds trust roots and release manifests for tests, from deterministic keys, with every knob a
 * test needs to make them wrong on purpose.
 */
final class ReleaseFixture {
    static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    static final Instant NEXT_YEAR = Instant.parse("2027-03-01T00:00:00Z");
    static final String SHA_A = "a".repeat(64);
    static final String SHA_B = "b".repeat(64);

    private static final byte[] PKCS8_PREFIX = HexFormat.of().parseHex("302e020100300506032b657004220420");

    final Path dir;

    ReleaseFixture(Path dir) {
        this.dir = dir;
    }

    /** A deterministic key: the seed is 32 bytes of {@code n}. */
    static SigningKey key(int n) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) n);
        byte[] pkcs8 = Arrays.copyOf(PKCS8_PREFIX, PKCS8_PREFIX.length + 32);
        System.arraycopy(seed, 0, pkcs8, PKCS8_PREFIX.length, 32);
        try {
            return SigningKey.of(Ed25519.privateKey(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code signed} part of a root listing {@code keys}. */
    static Map<String, Object> rootSigned(long version, Instant expires, int threshold, SigningKey... keys) {
        List<byte[]> raw = new ArrayList<>();
        for (SigningKey k : keys) {
            raw.add(k.publicKey());
        }
        return TrustRoot.newSigned(version, expires, raw, threshold);
    }

    /** Writes a root signed (hex, over the RFC 8785 form of {@code signed}) by {@code signers}. */
    Path writeRoot(String name, Map<String, Object> signed, SigningKey... signers) {
        List<Object> signatures = new ArrayList<>();
        for (SigningKey k : signers) {
            signatures.add(signature(k.keyId(), HexFormat.of().formatHex(sign(k, Jcs.canonicalBytes(signed)))));
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("signed", signed);
        document.put("signatures", signatures);
        return write(name, Json.write(document));
    }

    static ManifestEntry entry(String agentId, String agentVersion, String sha) {
        return new ManifestEntry(agentId, agentVersion, "copilot-cli", "1.0.3", sha, 1234, null, null);
    }

    static Map<String, Object> statement(long version, Instant expires, ManifestEntry... entries) {
        return new ReleaseManifest(version, expires, List.of(entries)).toStatement();
    }

    /** Writes a DSSE manifest envelope signed (base64, over PAE) by {@code signers}. */
    Path writeManifest(String name, String payloadType, byte[] payload, SigningKey... signers) {
        List<Object> signatures = new ArrayList<>();
        for (SigningKey k : signers) {
            signatures.add(signature(k.keyId(),
                    java.util.Base64.getEncoder().encodeToString(sign(k, Dsse.pae(payloadType, payload)))));
        }
        return writeEnvelope(name, payloadType, payload, signatures);
    }

    Path writeManifest(String name, Map<String, Object> statement, SigningKey... signers) {
        return writeManifest(name, ReleaseManifest.PAYLOAD_TYPE, Jcs.canonicalBytes(statement), signers);
    }

    Path writeEnvelope(String name, String payloadType, byte[] payload, List<Object> signatures) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("payloadType", payloadType);
        document.put("payload", java.util.Base64.getEncoder().encodeToString(payload));
        document.put("signatures", signatures);
        return write(name, Json.write(document));
    }

    static Map<String, Object> signature(String keyId, String sig) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("keyid", keyId);
        s.put("sig", sig);
        return s;
    }

    static byte[] sign(SigningKey key, byte[] message) {
        try {
            return key.sign(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The test's user state ({@code XDG_STATE_HOME}), never the real one. */
    Map<String, String> env() {
        return Map.of("XDG_STATE_HOME", dir.resolve("user-state").toString());
    }

    /** The floor of {@code <dir>/project} in {@link #env()}. */
    ReleaseFloor floor() {
        try {
            return ReleaseFloor.forProject(Files.createDirectories(dir.resolve("project")), env());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The user's floor file, authoritative. */
    Path stateFile() {
        return floor().userFile();
    }

    /** The project's pre-user-state floor file ({@code .warden/state/release/trusted.json}). */
    Path projectStateFile() {
        return floor().projectFile();
    }

    /** Writes {@code text} as the user's floor file, in a 0700 directory, the file 0600. */
    Path writeUserState(String text) {
        try {
            Path file = stateFile();
            dev.agentwarden.io.UserState.ensurePrivateDirectory(file.getParent(), "test");
            dev.agentwarden.io.AtomicWrite.write(file, text.getBytes(StandardCharsets.UTF_8),
                    dev.agentwarden.io.UserState.FILE_MODE);
            return file;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code text} as the project's old floor file, mode 0644 (owned by this user, not writable by others). */
    Path writeProjectState(String text) {
        try {
            Path file = projectStateFile();
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            return file;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    Verification verify(Path manifest, Path root, Instant at) {
        return ReleaseVerifier.verify(manifest, root, TrustState.at(floor()), at);
    }

    Path write(String name, String text) {
        Path file = dir.resolve(name);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return file;
    }
}
