package dev.agentwarden.trust;

import dev.agentwarden.concern.ConcernSpec;
import java.nio.file.Path;
import java.util.Map;

/**
 * Which process-concern files may run: those of a trusted project manifest, each still with the
 * SHA-256 it had when trusted. A manifest the user named ({@code --manifest}) or the built-in
 * default needs no trust ({@link #ANY}).
 *
 * <p>The check hashes the files just before the concern starts; a file swapped between that and
 * the start is not caught (the window is the time to fork the child).
 */
public final class ScriptTrust {
    /** No restriction: the manifest in force is the user's own choice. */
    public static final ScriptTrust ANY = new ScriptTrust(null, null);

    private final Map<String, String> files;
    private final String root;

    private ScriptTrust(Map<String, String> files, String root) {
        this.files = files;
        this.root = root;
    }

    /** The files a trust record names, for the project at {@code root}. */
    public static ScriptTrust of(TrustRecord record, String root) {
        return new ScriptTrust(record.files(), root);
    }

    /**
     * Why this concern may not run (a file it names changed, appeared or vanished since it was
     * trusted), or {@code null} when it may.
     */
    public String refusal(ConcernSpec spec, Path workspaceRoot) {
        if (files == null) {
            return null;
        }
        String problem = changed(spec.script(), workspaceRoot, true);
        if (problem != null) {
            return problem;
        }
        for (String arg : spec.args()) {
            problem = changed(arg, workspaceRoot, false);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private String changed(String name, Path workspaceRoot, boolean script) {
        String trusted = files.get(name);
        String now = NamedFiles.hashOrAbsent(workspaceRoot, name);
        if (NamedFiles.unhashable(now)) {
            return "script_untrusted: " + name + (now.equals(NamedFiles.TOO_LARGE)
                    ? " is over " + NamedFiles.MAX_BYTES + " bytes, more than Warden hashes, so it cannot be trusted"
                    : " cannot be hashed (" + now + ")") + "; it does not run";
        }
        if (trusted == null) {
            if (!script && now.equals(TrustRecord.ABSENT)) {
                return null;
            }
            return "script_untrusted: " + name + (script ? " is not named by the trusted manifest"
                    : " appeared since it was trusted") + " (run `warden trust` in " + root + ")";
        }
        if (trusted.equals(now)) {
            return null;
        }
        return "script_untrusted: " + name + " changed since it was trusted (run `warden trust` in " + root + ")";
    }
}
