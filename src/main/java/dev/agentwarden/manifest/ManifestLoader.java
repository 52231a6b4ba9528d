package dev.agentwarden.manifest;

import dev.agentwarden.digest.Sha256;
import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.CacheDir;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the manifest in force and returns it compiled, through a cache keyed by the source's
 * content hash so the dispatch path never parses YAML once a manifest has been seen.
 *
 * <p>Precedence: an explicit {@code --manifest FILE}, then {@code <root>/.warden/manifest.yaml},
 * then the default shipped in the jar. Compiled forms live in {@code $WARDEN_CACHE_DIR/manifests}
 * (default {@code ~/.cache/agent-warden/manifests}); an unwritable cache only costs speed.
 *
 * <p>A compiled form is trusted only when {@link OwnedPath} finds it private (owned by this user,
 * not writable by group or others, in directories with the same property), since it decides what
 * runs. Otherwise it is ignored with a note, the manifest is compiled in memory, and nothing is
 * written to the unsafe directory: speed is lost, never policy.
 */
public final class ManifestLoader {
    public static final String DEFAULT_SOURCE = "builtin:default-manifest.yaml";
    /** Largest manifest read (1 MiB): a larger file, or one that is not a regular file, is refused unread. */
    public static final int MAX_MANIFEST_BYTES = 1024 * 1024;
    /** Largest compiled form read from the cache; a larger one is recompiled. */
    static final int MAX_COMPILED_BYTES = 16 * 1024 * 1024;

    private ManifestLoader() {
    }

    /**
     * Where the manifest in force comes from and its bytes.
     *
     * @param sha256 hex SHA-256 of {@code bytes} when the caller has it already, else {@code null}
     */
    public record Source(String name, byte[] bytes, String sha256) {
        public Source(String name, byte[] bytes) {
            this(name, bytes, null);
        }

        /** Hex SHA-256 of the bytes, the compiled cache's key. */
        public String sha() {
            return sha256 != null ? sha256 : ManifestLoader.sha256(bytes);
        }
    }

    /** The manifest in force for a project root. */
    public static Source locate(String explicitFile, String root) throws ManifestException {
        if (explicitFile != null) {
            return read(Path.of(explicitFile));
        }
        Path project = Path.of(root, ".warden", "manifest.yaml");
        if (Files.isRegularFile(project)) {
            return read(project);
        }
        return builtinDefault();
    }

    /** The manifest shipped with Warden ({@link DefaultManifest}, kept in source, not as a jar resource). */
    public static Source builtinDefault() {
        return BuiltinDefault.SOURCE;
    }

    /** The built-in source with its digest: the one written beside the text while it still matches, else computed once per process. */
    private static final class BuiltinDefault {
        static final Source SOURCE;

        static {
            byte[] bytes = DefaultManifest.YAML.getBytes(StandardCharsets.UTF_8);
            SOURCE = new Source(DEFAULT_SOURCE, bytes, DefaultManifest.YAML.hashCode() == DefaultManifest.YAML_HASH
                    ? DefaultManifest.SHA256 : sha256(bytes));
        }
    }

    /**
     * Manifests this process has read from (or written to) a private cache file, by source name and
     * SHA-256: a compiled manifest is a function of its source, so a long-lived server (the resident,
     * {@code warden serve}) reads and parses each cache file once. The file is still checked on every
     * load, so a cache that stopped being private is noted as by a process of its own.
     */
    private static final ConcurrentHashMap<String, Manifest> LOADED = new ConcurrentHashMap<>();
    private static final int LOADED_MAX = 64;

    private static Manifest remember(String key, Manifest manifest) {
        if (LOADED.size() >= LOADED_MAX) {
            LOADED.clear();
        }
        LOADED.put(key, manifest);
        return manifest;
    }

    /**
     * A manifest file's bytes: a regular file (a link is followed to one) of at most
     * {@link #MAX_MANIFEST_BYTES}; a FIFO, device or directory is refused before it is opened.
     *
     * @throws IOException {@link dev.agentwarden.io.UnsafeFileException} when it is too large or not a regular file
     */
    public static byte[] readBytes(Path file) throws IOException {
        return StateFiles.readAll(file, MAX_MANIFEST_BYTES, true);
    }

    public static Source read(Path file) throws ManifestException {
        try {
            return new Source(file.toString(), readBytes(file));
        } catch (IOException e) {
            ManifestProblem p = new ManifestProblem(file.toString(), 0, "", "cannot read: " + e.getMessage(),
                    ManifestProblem.Kind.ERROR, true, ManifestProblem.UNREADABLE);
            throw new ManifestException(p.toString(), java.util.List.of(p), true);
        }
    }

    /**
     * The compiled manifest for a source: from the cache when present, else compiled (YAML) and
     * cached.
     *
     * @throws ManifestException when the source does not compile
     */
    public static Manifest load(Source source, Map<String, String> env) throws ManifestException {
        return load(source, env, new ArrayList<>());
    }

    /**
     * {@link #load(Source, Map)}, adding to {@code notes} one line for a cache that was not used
     * because it is not private.
     */
    public static Manifest load(Source source, Map<String, String> env, List<String> notes) throws ManifestException {
        String sha = source.sha();
        Path dir = cacheDir(env);
        Path cacheFile = cacheFile(dir, sha);
        boolean cacheUsable = true;
        String key = sha + "\0" + cacheFile + "\0" + source.name();
        if (Files.exists(cacheFile, LinkOption.NOFOLLOW_LINKS)) {
            String problem = OwnedPath.problem(cacheFile);
            if (problem == null) {
                Manifest known = LOADED.get(key);
                if (known != null) {
                    return known;
                }
                try {
                    return remember(key, ManifestCodec.read(source.name(), new String(
                            StateFiles.readAll(cacheFile, MAX_COMPILED_BYTES, false), StandardCharsets.UTF_8)));
                } catch (IOException | RuntimeException stale) {
                    // fall through to compile
                }
            } else {
                cacheUsable = false;
                notes.add(unsafeCacheNote(problem));
            }
        }
        ManifestCompiler.Result result = ManifestCompiler.compile(source.name(),
                new String(source.bytes(), StandardCharsets.UTF_8), sha);
        if (result.manifest() == null) {
            throw new ManifestException(source.name() + ": manifest has errors; run `warden manifest lint`",
                    result.problems(), false);
        }
        if (cacheUsable) {
            String problem = writePrivately(dir, cacheFile, ManifestCodec.write(result.manifest(), result.origins().base() != null));
            if (problem != null) {
                notes.add(unsafeCacheNote(problem));
            }
        }
        return result.manifest();
    }

    private static String unsafeCacheNote(String problem) {
        return "warden: manifest cache not used: " + problem + "; compiled in memory (make it yours and not"
                + " group/world-writable, or point WARDEN_CACHE_DIR at a private directory)";
    }

    static Path cacheDir(Map<String, String> env) {
        return CacheDir.root(env).resolve("manifests");
    }

    /** Where {@link #load} looks for the compiled form of {@code source} under {@code env}. */
    public static Path cacheFile(Source source, Map<String, String> env) {
        return cacheFile(cacheDir(env), source.sha());
    }

    private static Path cacheFile(Path dir, String sha) {
        return dir.resolve("manifest-" + sha + "-v" + ManifestCodec.FORMAT + ".json");
    }

    /**
     * Writes a compiled form (mode 0600, new directories 0700) when the cache directory is private;
     * returns why it is not, or {@code null}. A directory that cannot be made only costs speed.
     */
    static String writePrivately(Path dir, Path file, String text) {
        try {
            OwnedPath.createPrivateDirectories(dir);
        } catch (IOException | RuntimeException unwritable) {
            return null;
        }
        String problem = OwnedPath.problem(dir);
        if (problem != null) {
            return problem;
        }
        try {
            AtomicWrite.write(file, text.getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rw-------"));
        } catch (IOException | RuntimeException e) {
            // an unwritable cache costs speed only
        }
        return null;
    }

    /** Hex SHA-256 of the manifest bytes, the compiled cache's key ({@link Sha256}: no security providers on dispatch). */
    public static String sha256(byte[] bytes) {
        return Sha256.hex(bytes);
    }
}
