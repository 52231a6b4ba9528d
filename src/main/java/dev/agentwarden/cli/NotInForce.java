package dev.agentwarden.cli;

import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.trust.ProjectManifest;
import dev.agentwarden.trust.TrustStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The line {@code warden test}, {@code warden replay} and {@code warden doctor} print first when the
 * project's {@code .warden/manifest.yaml} on disk is not the manifest in force (edited since it was
 * last trusted, never trusted, not compiling, or gone): what runs instead and what to run. Hooks say
 * the same on stderr ({@link ProjectManifest}).
 */
final class NotInForce {
    private NotInForce() {
    }

    /** The line, or {@code null} when the manifest on disk is the one in force (or there is none and none was trusted). */
    static String line(Path root, Map<String, String> env) {
        ProjectManifest.Resolution r;
        try {
            r = ProjectManifest.resolve(null, root.toString(), env);
        } catch (ManifestException e) {
            return null;
        }
        String fallback = r.fallback();
        if (fallback == null) {
            return null;
        }
        String file = TrustStore.PROJECT_MANIFEST;
        boolean lastTrusted = fallback.startsWith("last_trusted");
        String runs = lastTrusted ? "the last trusted version is what runs" : "the default manifest is what runs";
        if (!Files.exists(root.resolve(file))) {
            return "manifest on disk is gone: " + file + " was trusted and deleted; " + runs
                    + ": run 'warden trust --revoke' to drop it";
        }
        if (fallback.endsWith("does_not_compile")) {
            return "manifest on disk is not in force (" + file + " does not compile); " + runs
                    + ": run 'warden manifest lint', fix it, then 'warden trust'";
        }
        return "manifest on disk is not in force (" + file + (lastTrusted ? " edited since it was last trusted"
                : " never trusted") + "; " + runs + "): run 'warden trust' to put it in force";
    }
}
