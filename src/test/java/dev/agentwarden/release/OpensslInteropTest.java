package dev.agentwarden.release;

import static dev.agentwarden.release.ReleaseFixture.NEXT_YEAR;
import static dev.agentwarden.release.ReleaseFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interoperability with OpenSSL 3: keys it generates, signatures it makes with
 * {@code openssl pkeyutl -sign -rawin} over the RFC 8785 root bytes and the DSSE PAE, and the other
 * way round. Skipped, with a message, only where {@code openssl} is not installed.
 */
class OpensslInteropTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void requireOpenssl() {
        boolean present = run(Path.of(System.getProperty("java.io.tmpdir")), "openssl", "version") != null;
        if (!present) {
            System.err.println("OpensslInteropTest SKIPPED: openssl is not on PATH");
        }
        Assumptions.assumeTrue(present, "openssl is not on PATH: Ed25519 interop skipped");
    }

    @Test
    void verify_rootAndManifestSignedByOpenssl_isTrusted() throws Exception {
        openssl("genpkey", "-algorithm", "ed25519", "-out", "k.pem");
        openssl("pkey", "-in", "k.pem", "-pubout", "-out", "k.pub.pem");
        Path root = tmp.resolve("root.json");
        Publisher.initRoot(List.of(tmp.resolve("k.pub.pem")), 1, NEXT_YEAR, root);
        String keyId = RootKey.keyId(KeyFiles.readPublicKey(tmp.resolve("k.pub.pem")));

        TrustRoot unsigned = TrustRoot.parse(Files.readAllBytes(root), "root.json");
        Files.write(tmp.resolve("root.signed.bin"), unsigned.signedBytes());
        openssl("pkeyutl", "-sign", "-inkey", "k.pem", "-rawin", "-in", "root.signed.bin", "-out", "root.sig");
        Files.writeString(root, dev.agentwarden.json.Json.write(TrustRoot.document(unsigned.signed(),
                List.of(new SignatureEntry(keyId, Files.readAllBytes(tmp.resolve("root.sig")))))));

        Path artifact = Files.writeString(tmp.resolve("squad.agent.md"), "hello\n");
        Path manifest = tmp.resolve("manifest.json");
        Publisher.add(manifest, artifact, "squad", new ReleaseKey("0.13.1", "copilot-cli", "1.0.3"),
                new Publisher.AddOptions(null, NEXT_YEAR, null, false));
        Dsse.Envelope envelope = Dsse.parse(Files.readAllBytes(manifest), "manifest.json");
        Files.write(tmp.resolve("pae.bin"), envelope.pae());
        openssl("pkeyutl", "-sign", "-inkey", "k.pem", "-rawin", "-in", "pae.bin", "-out", "manifest.sig");
        byte[] opensslSignature = Files.readAllBytes(tmp.resolve("manifest.sig"));
        Files.writeString(manifest, dev.agentwarden.json.Json.write(Dsse.document(new Dsse.Envelope(
                envelope.payloadType(), envelope.payload(), List.of(new SignatureEntry(keyId, opensslSignature))))));

        Verification v = ReleaseVerifier.verify(manifest, root, TrustState.inMemory(), T0);

        assertThat(v.trusted()).as(v.detail()).isTrue();
        assertThat(v.signers()).containsExactly(keyId);
        assertThat(opensslSignature).hasSize(64);
    }

    @Test
    void sign_withOpensslKey_givesOpensslsSignatureAndOpensslVerifiesOurs() throws Exception {
        openssl("genpkey", "-algorithm", "ed25519", "-out", "k.pem");
        openssl("pkey", "-in", "k.pem", "-pubout", "-out", "k.pub.pem");
        byte[] pae = Dsse.pae(ReleaseManifest.PAYLOAD_TYPE, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        Files.write(tmp.resolve("pae.bin"), pae);
        openssl("pkeyutl", "-sign", "-inkey", "k.pem", "-rawin", "-in", "pae.bin", "-out", "theirs.sig");

        byte[] ours = KeyFiles.readSigningKey(tmp.resolve("k.pem")).sign(pae);
        Files.write(tmp.resolve("ours.sig"), ours);

        assertThat(ours).as("Ed25519 is deterministic").isEqualTo(Files.readAllBytes(tmp.resolve("theirs.sig")));
        assertThat(openssl("pkeyutl", "-verify", "-pubin", "-inkey", "k.pub.pem", "-rawin", "-in", "pae.bin",
                "-sigfile", "ours.sig")).contains("Signature Verified Successfully");
    }

    @Test
    void keygen_filesReadByOpenssl() throws Exception {
        KeyFiles.Generated ours = KeyFiles.generate(tmp, "ours");

        String publicFromPrivate = openssl("pkey", "-in", ours.privateKeyFile().toString(), "-pubout");

        assertThat(publicFromPrivate.strip()).isEqualTo(Files.readString(ours.publicKeyFile()).strip());
    }

    private String openssl(String... args) {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        String out = run(tmp, command.toArray(String[]::new));
        assertThat(out).as("openssl %s failed", String.join(" ", args)).isNotNull();
        return out;
    }

    /** Output of a successful command, or {@code null}. */
    private static String run(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            if (p.exitValue() != 0) {
                System.err.println(String.join(" ", command) + " exited " + p.exitValue() + ": " + out);
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
