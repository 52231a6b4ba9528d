package dev.agentwarden.managed;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.release.ProjectManifestSignature;
import dev.agentwarden.trust.ProjectManifest;
import dev.agentwarden.trust.ScriptTrust;
import dev.agentwarden.trust.TrustRecord;
import dev.agentwarden.trust.TrustStore;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A project manifest the administrator's signers vouch for ({@code signers} in the managed settings):
 * when {@code .warden/manifest.yaml.sig} verifies ({@link ProjectManifestSignature}) for the exact
 * bytes of {@code .warden/manifest.yaml}, that manifest is in force without {@code warden trust}, and its
 * scripts run while they hash as the signature names them. A signature that does not verify (tampered,
 * another key, other bytes) is said loudly and the normal trust rule decides.
 *
 * <p>Cost, only where both a signer and a signature file exist: one JSON parse and one Ed25519 verify
 * per dispatch (the JDK's security provider loads for it).
 */
public final class SignedProjectManifest {
    /** The signature file beside the project manifest. */
    public static final String SIGNATURE = ".warden/manifest.yaml.sig";

    private SignedProjectManifest() {
    }

    /**
     * The project's manifest as its signature puts it in force, or {@code null} (no signer, no signature
     * file, or one that does not verify: then a note in {@code notes} says why).
     */
    public static ProjectManifest.Resolution resolve(String root, ManagedSettings settings, List<String> notes) {
        if (settings.signers().isEmpty()) {
            return null;
        }
        Path sigFile = Path.of(root, SIGNATURE);
        Path manifestFile = Path.of(root, ".warden", "manifest.yaml");
        byte[] sig;
        byte[] manifest;
        try {
            sig = StateFiles.readAll(sigFile, ProjectManifestSignature.MAX_BYTES, false);
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            notes.add("warden: " + SIGNATURE + " not used: " + e.getMessage() + "; the trust rule applies");
            return null;
        }
        try {
            manifest = ManifestLoader.readBytes(manifestFile);
        } catch (IOException e) {
            notes.add("warden: " + SIGNATURE + " not used: " + TrustStore.PROJECT_MANIFEST + " unreadable ("
                    + e.getMessage() + "); the trust rule applies");
            return null;
        }
        List<byte[]> keys = new ArrayList<>();
        for (String hex : settings.signers()) {
            keys.add(HexFormat.of().parseHex(hex));
        }
        ProjectManifestSignature.Verified v;
        try {
            v = ProjectManifestSignature.verify(sig, sigFile.toString(), manifest, keys);
        } catch (ProjectManifestSignature.Refused e) {
            notes.add("warden: signature refused: " + e.getMessage() + "; the trust rule applies");
            return null;
        }
        String sha = Sha256.hex(manifest);
        String realRoot = TrustStore.realRoot(root);
        TrustRecord signed = new TrustRecord(realRoot, sha, "signed by " + v.keyId(), v.files());
        return new ProjectManifest.Resolution(new ManifestLoader.Source(manifestFile.toString(), manifest, sha),
                ScriptTrust.of(signed, realRoot), List.of());
    }
}
