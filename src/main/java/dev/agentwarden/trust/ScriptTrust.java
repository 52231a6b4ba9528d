package dev.agentwarden.trust;

import dev.agentwarden.concern.ConcernSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
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
    public static final ScriptTrust ANY = new ScriptTrust(null, null, Map.of());

    private final Map<String, String> files;
    private final String root;
    /** Concerns of a layer under the project (user, managed) by name, each judged by its layer's owner rule. */
    private final Map<String, ScriptOwner> layered;

    private ScriptTrust(Map<String, String> files, String root, Map<String, ScriptOwner> layered) {
        this.files = files;
        this.root = root;
        this.layered = layered;
    }

    /**
     * Who may have written the script of a concern from a layer under the project (the user's own
     * manifest, the administrator's): such a script needs no {@code warden trust}, but runs only
     * while its file passes the layer's owner rule, checked just before it starts.
     */
    public interface ScriptOwner {
        /** The layer's name, as the decision log says it ({@code user}, {@code managed}). */
        String layer();

        /** Why {@code script} is not the layer owner's alone, or {@code null} when it is. */
        String problem(Path script) throws IOException;
    }

    /** This rule for the project's concerns, with {@code concerns} (name to owner) judged by their layer's owner instead. */
    public ScriptTrust withLayers(Map<String, ScriptOwner> concerns) {
        if (concerns.isEmpty()) {
            return this;
        }
        Map<String, ScriptOwner> all = new HashMap<>(layered);
        all.putAll(concerns);
        return new ScriptTrust(files, root, all);
    }

    /** The files a trust record names, for the project at {@code root}. */
    public static ScriptTrust of(TrustRecord record, String root) {
        return new ScriptTrust(record.files(), root, Map.of());
    }

    /**
     * Why this concern may not run (a file it names changed, appeared or vanished since it was
     * trusted), or {@code null} when it may.
     */
    public String refusal(ConcernSpec spec, Path workspaceRoot) {
        ScriptOwner owner = layered.isEmpty() ? null : layered.get(spec.name());
        if (owner != null) {
            return layerRefusal(owner, spec.script());
        }
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

    private static String layerRefusal(ScriptOwner owner, String script) {
        Path file = Path.of(script);
        if (!file.isAbsolute()) {
            return "script_untrusted: " + owner.layer() + " script " + script + " is not an absolute path; it does not run";
        }
        String problem;
        try {
            problem = owner.problem(file);
        } catch (java.nio.file.NoSuchFileException absent) {
            return "script_not_found: " + file;
        } catch (IOException | RuntimeException e) {
            problem = file + " cannot be checked (" + e.getMessage() + ")";
        }
        return problem == null ? null : "script_untrusted: " + owner.layer() + " script refused: " + problem + "; it does not run";
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
