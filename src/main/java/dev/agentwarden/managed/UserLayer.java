package dev.agentwarden.managed;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The user's own policy layer: {@code $HOME/.config/agent-warden/manifest.yaml}, same schema as a
 * project manifest, laid under the project's (and over the managed layer) on every project the user
 * opens. {@code $XDG_CONFIG_HOME} is not honoured: the file needs no {@code warden trust} (it is the
 * user's own), so a variable a project can set for its hooks (a host's project {@code env} setting,
 * direnv) must not be able to point it at a file of the repository's. {@code $HOME} is read as the
 * trust store and the cache read it.
 *
 * <p>The file must be the user's alone ({@link OwnedPath}, the OpenSSH rule: owned by this user, no
 * group or other write bit, in directories nobody else can write), checked on every load; a file that
 * fails, or does not compile, makes the layer {@link Status#REFUSED}: dispatch says so loudly, records
 * it, and the fail mode decides. Compiled through the user's manifest cache (the user's own, as the
 * file is), so dispatch parses no YAML once it has been seen. Without the file the cost is one {@code stat}.
 */
public final class UserLayer {
    /** Where the file is under the home directory. */
    static final String UNDER_HOME = ".config/agent-warden/manifest.yaml";
    /** The prefix of the user manifest's source name, as {@code manifest show} and the decision log print it. */
    static final String SOURCE_PREFIX = "user:";

    public enum Status { ABSENT, LOADED, REFUSED }

    /**
     * The layer as found on one load.
     *
     * @param manifest the compiled user manifest (scripts anchored under its directory), when {@link Status#LOADED}
     * @param problem  why it is refused, when {@link Status#REFUSED}
     */
    public record State(Status status, Path file, Manifest manifest, String problem) {
        public boolean refused() {
            return status == Status.REFUSED;
        }

        /** {@code project} with the user's manifest laid under it; {@code project} itself when there is none. */
        public Manifest over(Manifest project, List<String> notes) {
            return manifest == null ? project : LayeredManifest.USER.under(manifest, project, ManagedSettings.NONE, notes);
        }
    }

    private static volatile Anchored last;

    private record Anchored(Manifest compiled, Manifest anchored) {
    }

    private UserLayer() {
    }

    /** The user manifest's path under {@code env}'s {@code $HOME} (absolute), else the JVM's {@code user.home}. */
    public static Path file(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(home != null && home.startsWith("/") ? home : System.getProperty("user.home"), UNDER_HOME);
    }

    /** The layer as it is on disk now; a note of the manifest cache goes to {@code notes}. */
    public static State load(Map<String, String> env, List<String> notes) {
        Path file = file(env);
        if (!file.toFile().exists() && !java.nio.file.Files.isSymbolicLink(file)) {
            return new State(Status.ABSENT, file, null, null);
        }
        String problem = OwnedPath.problem(file);
        if (problem != null) {
            return refused(file, problem);
        }
        byte[] bytes;
        try {
            bytes = StateFiles.readAll(file, ManifestLoader.MAX_MANIFEST_BYTES, false);
        } catch (NoSuchFileException gone) {
            return new State(Status.ABSENT, file, null, null);
        } catch (IOException e) {
            return refused(file, file + ": " + e.getMessage());
        }
        Manifest compiled;
        try {
            compiled = ManifestLoader.load(new ManifestLoader.Source(SOURCE_PREFIX + file, bytes), env, notes);
        } catch (ManifestException e) {
            return refused(file, file + " has errors (" + (e.problems().isEmpty() ? e.getMessage() : e.problems().get(0))
                    + "); run `warden manifest lint " + file + "`");
        }
        Anchored known = last;
        if (known != null && known.compiled == compiled) {
            return new State(Status.LOADED, file, known.anchored, null);
        }
        Manifest anchored;
        try {
            anchored = LayerScripts.anchored(compiled, file.getParent());
        } catch (IllegalArgumentException e) {
            return refused(file, file + ": " + e.getMessage());
        }
        if (anchored == null) {
            anchored = compiled;
        }
        last = new Anchored(compiled, anchored);
        return new State(Status.LOADED, file, anchored, null);
    }

    private static State refused(Path file, String problem) {
        return new State(Status.REFUSED, file, null, "user policy refused: " + problem + "; the user layer ("
                + file + ") is not in force (it must be this user's, not writable by group or others)");
    }
}
