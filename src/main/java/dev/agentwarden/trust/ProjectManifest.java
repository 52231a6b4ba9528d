package dev.agentwarden.trust;

import dev.agentwarden.manifest.FirstError;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The manifest in force for a dispatch, under the trust model:
 * <ul>
 *   <li>{@code --manifest FILE} is the user's own choice: used as it is, its scripts unchecked;</li>
 *   <li>the project's {@code .warden/manifest.yaml} takes effect only as the user trusted it
 *       ({@code warden trust}, or {@code warden install} in the project). While the file differs
 *       from the trusted version, or is gone, the last trusted version stays in force (from the
 *       store's private copy), and with none the built-in default; every dispatch says so on
 *       stderr;</li>
 *   <li>the scripts of a trusted manifest run only while they hash as trusted ({@link ScriptTrust}).</li>
 * </ul>
 * The project's file is read only as a regular file (a link is followed to one) of at most
 * {@link ManifestLoader#MAX_MANIFEST_BYTES}; one that is larger, a FIFO or device, or unreadable is
 * untrusted, with the reason in the note.
 *
 * <p>Cost on dispatch: the project root's real path, one small record read when one exists, and the
 * SHA-256 of the manifest bytes.
 */
public final class ProjectManifest {
    private ProjectManifest() {
    }

    /**
     * @param source  the manifest to load
     * @param scripts which process-concern files may run
     * @param notes   stderr lines saying what is not trusted and what is used instead
     */
    public record Resolution(ManifestLoader.Source source, ScriptTrust scripts, List<String> notes, String fallback) {
        public Resolution(ManifestLoader.Source source, ScriptTrust scripts, List<String> notes) {
            this(source, scripts, notes, null);
        }
    }

    /**
     * {@link Resolution#fallback}, when the project's file is not in force: what stands in
     * ({@code last_trusted} or {@code default}) and why ({@code untrusted}, or {@code does_not_compile}).
     */
    static String fallback(String inForce, String broken) {
        return inForce + (broken != null ? ":does_not_compile" : ":untrusted");
    }

    public static Resolution resolve(String explicitFile, String root, Map<String, String> env) throws ManifestException {
        List<String> notes = new ArrayList<>();
        if (explicitFile != null) {
            return new Resolution(ManifestLoader.read(Path.of(explicitFile)), ScriptTrust.ANY, notes);
        }
        Path file = Path.of(root, ".warden", "manifest.yaml");
        String realRoot = TrustStore.realRoot(root);
        TrustStore store = TrustStore.forEnv(env);
        TrustStore.Lookup trusted = store.lookup(realRoot);
        if (trusted.problem() != null) {
            notes.add("warden: ignoring trust record: " + trusted.problem());
        }
        TrustRecord record = trusted.record();
        byte[] bytes = null;
        String unusable = null;
        try {
            bytes = ManifestLoader.readBytes(file);
        } catch (NoSuchFileException absent) {
            // no project manifest
        } catch (IOException e) {
            unusable = e.getMessage();
        }
        if (bytes != null) {
            String sha = Sha256.hex(bytes);
            if (record != null && record.manifestSha256().equals(sha)) {
                return new Resolution(new ManifestLoader.Source(file.toString(), bytes, sha),
                        ScriptTrust.of(record, realRoot), notes);
            }
        } else if (record == null && unusable == null) {
            return new Resolution(ManifestLoader.builtinDefault(), ScriptTrust.ANY, notes);
        }
        String broken = bytes == null ? null
                : FirstError.of(new ManifestLoader.Source(file.toString(), bytes), env);
        if (broken != null) {
            notes.add("warden: " + TrustStore.PROJECT_MANIFEST + " does not compile, so it cannot take effect: "
                    + broken + " (run `warden manifest lint`)");
        }
        String what;
        String fix;
        if (unusable != null) {
            what = TrustStore.PROJECT_MANIFEST + " is not trusted: " + unusable;
            fix = "make it a regular file of at most " + ManifestLoader.MAX_MANIFEST_BYTES
                    + " bytes, then run `warden trust` in " + realRoot;
        } else if (bytes != null) {
            what = TrustStore.PROJECT_MANIFEST + " is not trusted";
            fix = "run `warden trust` in " + realRoot;
        } else {
            what = TrustStore.PROJECT_MANIFEST + " is gone but was trusted";
            fix = "run `warden trust --revoke` in " + realRoot + " to drop it";
        }
        if (record != null) {
            try {
                byte[] lastTrusted = store.trustedManifest(record);
                notes.add("warden: " + what + " (" + fix + "); using the last trusted version (trusted "
                        + record.trustedAt() + ")");
                return new Resolution(new ManifestLoader.Source(file + " (last trusted)", lastTrusted,
                        record.manifestSha256()),
                        ScriptTrust.of(record, realRoot), notes, fallback("last_trusted", broken));
            } catch (TrustException e) {
                notes.add("warden: ignoring trust record: " + e.getMessage());
            }
        }
        notes.add("warden: " + what + " (" + fix + "); using the default manifest");
        return new Resolution(ManifestLoader.builtinDefault(), ScriptTrust.ANY, notes, fallback("default", broken));
    }
}
