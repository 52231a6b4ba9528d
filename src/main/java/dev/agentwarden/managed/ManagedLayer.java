package dev.agentwarden.managed;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The administrator's layer: {@code /etc/agent-warden/manifest.yaml} (same schema as a project
 * manifest) and {@code /etc/agent-warden/settings.json}. The location is fixed here and by the OS:
 * no environment variable, flag or project file moves it (tests bind-mount over it in a mount
 * namespace). Both files must be root's and writable by root alone, with every directory above them
 * ({@link RootOwned}), checked on every load; a file that fails the check, or does not compile, makes
 * the layer {@link Status#REFUSED}, which dispatch answers fail-closed, loudly.
 *
 * <p>The managed manifest is compiled in memory (never through the user's manifest cache, which the
 * user and the governed agent can write) and kept per process by content: the resident compiles it
 * once, a one-event JVM once per event. Without a directory the cost is one {@code lstat}.
 */
public final class ManagedLayer {
    public static final Path DIR = Path.of("/etc/agent-warden");
    public static final Path MANIFEST = DIR.resolve("manifest.yaml");
    static final Path SETTINGS = DIR.resolve("settings.json");
    /** Source name of the managed manifest, as {@code manifest show} and the decision log print it. */
    static final String SOURCE = "managed:" + MANIFEST;
    private static final int MAX_SETTINGS_BYTES = 64 * 1024;

    public enum Status { ABSENT, LOADED, REFUSED }

    /**
     * The layer as found on one load.
     *
     * @param manifest the compiled managed manifest, or {@code null} when there is none (settings alone may exist)
     * @param problem  why the layer is refused ({@link Status#REFUSED}), else {@code null}
     */
    public record State(Status status, Manifest manifest, ManagedSettings settings, String problem) {
        static final State ABSENT = new State(Status.ABSENT, null, ManagedSettings.NONE, null);

        public boolean refused() {
            return status == Status.REFUSED;
        }

        /** {@code manifest} with this layer laid under it, or {@code manifest} itself when there is no managed manifest. */
        public Manifest over(Manifest project, List<String> notes) {
            if (status != Status.LOADED || (manifest == null && settings.projectScripts() && settings.reasons() == null)) {
                return project;
            }
            return LayeredManifest.compose(manifest, project, settings, notes);
        }
    }

    private static volatile Loaded last;

    private record Loaded(String sha, State state) {
    }

    private ManagedLayer() {
    }

    /**
     * The managed layer as it is on disk now. When {@code /etc/agent-warden/current} exists (a
     * pulled policy bundle, see {@link CurrentBundle}), the pair is read from the bundle directory it
     * names, which is never changed once in place: a pull flips the link, so a reader sees the old
     * pair or the new pair, never one file of each. The flat files beside it are then not read.
     */
    public static State load() {
        if (!Files.exists(DIR, LinkOption.NOFOLLOW_LINKS)) {
            return State.ABSENT;
        }
        for (int attempt = 0; attempt < 4; attempt++) {
            Path bundle;
            try {
                bundle = CurrentBundle.resolve(DIR);
            } catch (IOException e) {
                return refused(e.getMessage());
            }
            if (bundle == null) {
                return load(MANIFEST, SETTINGS);
            }
            State state = load(bundle.resolve(CurrentBundle.MANIFEST_NAME), bundle.resolve(CurrentBundle.SETTINGS_NAME));
            // a pull retires a bundle by renaming its directory before deleting anything in it: when the
            // directory is still in place after both reads, both files came from it
            if (Files.isDirectory(bundle, LinkOption.NOFOLLOW_LINKS)) {
                return state.status == Status.ABSENT
                        ? refused(DIR.resolve(CurrentBundle.LINK) + " names " + bundle + ", which holds no policy")
                        : state;
            }
        }
        return refused("the policy bundle changed under every read of " + DIR.resolve(CurrentBundle.LINK));
    }

    /** {@link #load()} from other paths: for tests of the rules only, never reachable from configuration. */
    static State load(Path manifestFile, Path settingsFile) {
        if (!Files.exists(manifestFile.getParent(), LinkOption.NOFOLLOW_LINKS)) {
            return State.ABSENT;
        }
        byte[] manifestBytes;
        byte[] settingsBytes;
        try {
            manifestBytes = readChecked(manifestFile, ManifestLoader.MAX_MANIFEST_BYTES);
            settingsBytes = readChecked(settingsFile, MAX_SETTINGS_BYTES);
        } catch (Refused e) {
            return refused(e.getMessage());
        }
        if (manifestBytes == null && settingsBytes == null) {
            return State.ABSENT;
        }
        // keyed by the directory too: relative scripts are anchored under it, and a pull changes it
        String sha = manifestFile + "|" + (manifestBytes == null ? "-" : Sha256.hex(manifestBytes)) + "/"
                + (settingsBytes == null ? "-" : Sha256.hex(settingsBytes));
        Loaded known = last;
        if (known != null && known.sha.equals(sha)) {
            return known.state;
        }
        State state = versionGate(compile(manifestFile, manifestBytes, settingsFile, settingsBytes), settingsFile);
        last = new Loaded(sha, state);
        return state;
    }

    static State compile(Path manifestFile, byte[] manifestBytes, Path settingsFile, byte[] settingsBytes) {
        ManagedSettings settings = ManagedSettings.NONE;
        if (settingsBytes != null) {
            try {
                settings = ManagedSettings.parse(new String(settingsBytes, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                return refused(settingsFile + ": " + e.getMessage());
            }
        }
        Manifest manifest = null;
        if (manifestBytes != null) {
            String text = new String(manifestBytes, StandardCharsets.UTF_8);
            ManifestCompiler.Result r;
            try {
                r = ManifestCompiler.compile("managed:" + manifestFile, text, Sha256.hex(manifestBytes));
            } catch (RuntimeException | dev.agentwarden.manifest.ManifestException e) {
                return refused(manifestFile + ": " + e.getMessage());
            }
            if (r.manifest() == null) {
                return refused(manifestFile + " has errors (" + (r.problems().isEmpty() ? "?" : r.problems().get(0))
                        + "); run `warden manifest lint " + manifestFile + "`");
            }
            manifest = r.manifest();
            try {
                Manifest anchored = LayerScripts.anchored(manifest, manifestFile.getParent());
                if (anchored != null) {
                    manifest = anchored;
                }
            } catch (IllegalArgumentException e) {
                return refused(manifestFile + ": " + e.getMessage());
            }
        }
        return new State(Status.LOADED, manifest, settings, null);
    }

    /**
     * {@code state}, or refused when its {@code min_version} is newer than this Warden: fail closed,
     * whatever the fail mode. Applied where the layer is put in force, not where a bundle is verified,
     * so a pulled bundle can raise the minimum on machines still running an older Warden.
     */
    static State versionGate(State state, Path settingsFile) {
        String min = state.settings().minVersion();
        if (min == null) {
            return state;
        }
        String running = WardenVersion.current();
        if (!WardenVersion.older(running, min)) {
            return state;
        }
        return new State(Status.REFUSED, null, ManagedSettings.NONE, "managed policy requires Warden " + min
                + " or newer (min_version in " + settingsFile + "); this is "
                + (running == null ? "a build that does not know its version" : "Warden " + running)
                + ": upgrade Warden; events are refused until then");
    }

    private static State refused(String problem) {
        return new State(Status.REFUSED, null, ManagedSettings.NONE, "managed policy refused: " + problem
                + "; events are refused until an administrator fixes it (files under " + DIR
                + " must be root's and writable by root alone)");
    }

    /** The file's bytes, {@code null} when it does not exist; refused when it is not root's alone or too large. */
    private static byte[] readChecked(Path file, int maxBytes) throws Refused {
        try {
            String problem = RootOwned.problem(file);
            if (problem != null) {
                throw new Refused(problem);
            }
            return StateFiles.readAll(file, maxBytes, false);
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw new Refused(file + ": " + e.getMessage());
        }
    }

    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }
}
