package dev.agentwarden.managed;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.release.PolicyBundle;
import dev.agentwarden.release.ReleaseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The script files of a policy bundle: the relative {@code script:} paths of the managed manifest's
 * process concerns, each read from under the manifest's directory at {@code warden policy sign}
 * (a regular file reached through no symlink, at most {@link PolicyBundle#MAX_SCRIPT_BYTES}) and
 * each required in the bundle at {@code warden policy pull}.
 */
public final class BundleScripts {
    private BundleScripts() {
    }

    /**
     * The bundle paths of the relative scripts {@code manifestBytes} names, normalized ({@code ./a.sh}
     * is {@code a.sh}), in manifest order.
     *
     * @throws IllegalArgumentException when the manifest does not compile or a path leads out of its directory
     */
    static List<String> named(byte[] manifestBytes) {
        ManifestCompiler.Result r;
        try {
            r = ManifestCompiler.compile("bundle:" + CurrentBundle.MANIFEST_NAME,
                    new String(manifestBytes, StandardCharsets.UTF_8), Sha256.hex(manifestBytes));
        } catch (ManifestException | RuntimeException e) {
            throw new IllegalArgumentException("manifest.yaml: " + e.getMessage());
        }
        if (r.manifest() == null) {
            throw new IllegalArgumentException("manifest.yaml has errors ("
                    + (r.problems().isEmpty() ? "?" : r.problems().get(0)) + ")");
        }
        List<String> out = new ArrayList<>();
        for (ConcernSpec c : r.manifest().concerns().values()) {
            if (c.isBuiltin() || Path.of(c.script()).isAbsolute()) {
                continue;
            }
            String name = Path.of(c.script()).normalize().toString();
            String bad = PolicyBundle.badScriptName(name);
            if (bad != null) {
                throw new IllegalArgumentException("concern '" + c.name() + "' runs " + c.script()
                        + ", which cannot be a bundle script: " + (name.startsWith("..") ? "it leads out of the"
                        + " manifest's directory" : bad));
            }
            if (!out.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /** The scripts {@code manifestBytes} names, read from under {@code dir}, for {@link PolicyBundle#sign}. */
    public static Map<String, PolicyBundle.Script> read(Path dir, byte[] manifestBytes) throws ReleaseException {
        List<String> names;
        try {
            names = named(manifestBytes);
        } catch (IllegalArgumentException e) {
            throw new ReleaseException("bundle_policy_invalid", dir.resolve(CurrentBundle.MANIFEST_NAME) + ": "
                    + e.getMessage());
        }
        Map<String, PolicyBundle.Script> out = new LinkedHashMap<>();
        long total = 0;
        for (String name : names) {
            PolicyBundle.Script script = readOne(dir, name);
            total += script.bytes().length;
            if (total > PolicyBundle.MAX_SCRIPTS_TOTAL_BYTES) {
                throw new ReleaseException("bundle_scripts_too_large", "the scripts under " + dir
                        + " together are larger than " + PolicyBundle.MAX_SCRIPTS_TOTAL_BYTES + " bytes");
            }
            out.put(name, script);
        }
        return out;
    }

    private static PolicyBundle.Script readOne(Path dir, String name) throws ReleaseException {
        Path at = dir;
        String[] segments = name.split("/");
        try {
            for (int i = 0; i < segments.length; i++) {
                at = at.resolve(segments[i]);
                if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                    throw new ReleaseException("bundle_script_missing", "the manifest runs " + name + ", and " + at
                            + " does not exist");
                }
                PosixFileAttributes a = Files.readAttributes(at, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                boolean last = i == segments.length - 1;
                if (a.isSymbolicLink()) {
                    throw new ReleaseException("bundle_script_refused", at + " is a symlink; a bundle carries"
                            + " regular files only");
                }
                if (!last && !a.isDirectory()) {
                    throw new ReleaseException("bundle_script_refused", at + " is not a directory");
                }
                if (last && !a.isRegularFile()) {
                    throw new ReleaseException("bundle_script_refused", at + " is not a regular file");
                }
                if (last && a.size() > PolicyBundle.MAX_SCRIPT_BYTES) {
                    throw new ReleaseException("bundle_script_too_large", at + " is larger than "
                            + PolicyBundle.MAX_SCRIPT_BYTES + " bytes");
                }
            }
            byte[] bytes = StateFiles.readAll(at, PolicyBundle.MAX_SCRIPT_BYTES, false);
            boolean executable = Files.getPosixFilePermissions(at, LinkOption.NOFOLLOW_LINKS)
                    .contains(PosixFilePermission.OWNER_EXECUTE);
            return new PolicyBundle.Script(bytes, executable);
        } catch (IOException e) {
            throw new ReleaseException("bundle_script_unreadable", at + ": " + e.getMessage());
        }
    }
}
