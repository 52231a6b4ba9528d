package dev.agentwarden.trust;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.manifest.ManifestCompiler;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.digest.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import java.util.Set;

/**
 * The user's record of which project manifests, and which concern scripts, may run: one record per
 * project real path in {@code ${XDG_STATE_HOME:-~/.local/state}/agent-warden/trust/} (0700), as
 * {@code <key>.json} (the {@link TrustRecord}) beside {@code <key>.manifest.yaml}, a private copy
 * of the manifest as trusted, so the last trusted version can be compiled and kept in force after
 * the project's file changed. {@code <key>} is the SHA-256 of the real path in hex (records named by the 64-bit FNV-1a key
 * used before are not read: those projects must be trusted again).
 *
 * <p>A record or copy is read only when {@link OwnedPath} finds it private; the copy must still
 * hash to the record's manifest SHA-256.
 */
public final class TrustStore {
    /** The project manifest, relative to the project root: the one file that needs trust. */
    public static final String PROJECT_MANIFEST = ".warden/manifest.yaml";
    /** Largest record or manifest copy read. */
    static final int MAX_FILE_BYTES = 4 * 1024 * 1024;

    private final Path dir;

    public TrustStore(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /** The store the user's environment names: {@code $XDG_STATE_HOME} (absolute), else {@code $HOME/.local/state}. */
    public static TrustStore forEnv(Map<String, String> env) {
        return new TrustStore(dir(env));
    }

    static Path dir(Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        Path state;
        if (xdg != null && xdg.startsWith("/")) {
            state = Path.of(xdg);
        } else {
            String home = env.get("HOME");
            state = Path.of(home != null && home.startsWith("/") ? home : System.getProperty("user.home"),
                    ".local", "state");
        }
        return state.resolve("agent-warden").resolve("trust");
    }

    public Path dir() {
        return dir;
    }

    /** A project root as records name it: its real path, or its absolute normalized path when that cannot be had. */
    public static String realRoot(String root) {
        Path p = Path.of(root);
        try {
            return p.toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize().toString();
        }
    }

    Path recordFile(String realRoot) {
        return dir.resolve(key(realRoot) + ".json");
    }

    Path copyFile(String realRoot) {
        return dir.resolve(key(realRoot) + ".manifest.yaml");
    }

    /**
     * SHA-256 of the path's UTF-8 bytes, in hex: no other path can be made to share a project's
     * file names (the record still names its project, and a record for another path is not used).
     */
    private static String key(String realRoot) {
        return Sha256.hex(realRoot.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * What the store holds for a project.
     *
     * @param record  the record, or {@code null}
     * @param problem why a record that exists was not used, or {@code null}
     */
    public record Lookup(TrustRecord record, String problem) {
        static final Lookup NONE = new Lookup(null, null);
    }

    /** The record for {@code realRoot}; a missing one is {@link Lookup#NONE}, an unsafe or damaged one carries its problem. */
    public Lookup lookup(String realRoot) {
        Path recordFile = recordFile(realRoot);
        if (!Files.exists(recordFile, LinkOption.NOFOLLOW_LINKS)) {
            return Lookup.NONE;
        }
        try {
            TrustRecord record = TrustRecord.fromJson(new String(readPrivate(recordFile), StandardCharsets.UTF_8));
            if (!record.project().equals(realRoot)) {
                return new Lookup(null, recordFile + " is for " + record.project() + ", not " + realRoot);
            }
            return new Lookup(record, null);
        } catch (TrustException e) {
            return new Lookup(null, e.getMessage());
        } catch (RuntimeException e) {
            return new Lookup(null, recordFile + " is not a trust record: " + e.getMessage());
        }
    }

    /**
     * The private copy of the manifest as {@code record} trusted it, read only when the project's
     * file no longer matches.
     *
     * @throws TrustException when the copy is missing, not private, or does not hash as recorded
     */
    public byte[] trustedManifest(TrustRecord record) throws TrustException {
        Path copy = copyFile(record.project());
        byte[] manifest = readPrivate(copy);
        if (!Sha256.hex(manifest).equals(record.manifestSha256())) {
            throw new TrustException(copy + " does not hash to the trusted manifest_sha256");
        }
        return manifest;
    }

    private static byte[] readPrivate(Path file) throws TrustException {
        String problem = OwnedPath.problem(file);
        if (problem != null) {
            throw new TrustException(problem);
        }
        try {
            return StateFiles.readAll(file, MAX_FILE_BYTES, false);
        } catch (IOException e) {
            throw new TrustException(file + " cannot be read: " + e.getMessage());
        }
    }

    /**
     * Trusts the project manifest under {@code root} as it is now, and every file its process
     * concerns name; the previous record for the project is replaced.
     *
     * @throws TrustException    when there is no project manifest or the store is not private
     * @throws ManifestException when the manifest does not compile (nothing is trusted)
     */
    public TrustRecord trust(Path root, Clock clock) throws TrustException, ManifestException {
        String realRoot = realRoot(root.toString());
        Path manifestFile = Path.of(realRoot).resolve(PROJECT_MANIFEST);
        byte[] bytes;
        try {
            bytes = ManifestLoader.readBytes(manifestFile);
        } catch (NoSuchFileException absent) {
            throw new TrustException("no " + PROJECT_MANIFEST + " in " + realRoot + ": nothing to trust");
        } catch (IOException e) {
            throw new TrustException(manifestFile + " cannot be trusted: " + e.getMessage()
                    + " (a manifest must be a regular file of at most " + ManifestLoader.MAX_MANIFEST_BYTES + " bytes)");
        }
        String sha = Sha256.hex(bytes);
        ManifestCompiler.Result compiled = ManifestCompiler.compile(manifestFile.toString(),
                new String(bytes, StandardCharsets.UTF_8), sha);
        if (compiled.manifest() == null) {
            throw new ManifestException(manifestFile + ": manifest has errors, not trusted; run `warden manifest lint`",
                    compiled.problems(), false);
        }
        TrustRecord record = new TrustRecord(realRoot, sha, clock.instant().toString(),
                NamedFiles.of(compiled.manifest(), Path.of(realRoot)));
        try {
            OwnedPath.createPrivateDirectories(dir);
        } catch (IOException e) {
            throw new TrustException("cannot create the trust store " + dir + ": " + e.getMessage());
        }
        String problem = OwnedPath.problem(dir);
        if (problem != null) {
            throw new TrustException("the trust store is not private: " + problem
                    + " (make it yours and not group/world-writable, or set XDG_STATE_HOME)");
        }
        // built here, not in a static field: an EnumSet costs reflection at class load, on dispatch
        Set<PosixFilePermission> privateFile = PosixFilePermissions.fromString("rw-------");
        try {
            AtomicWrite.write(copyFile(realRoot), bytes, privateFile);
            AtomicWrite.write(recordFile(realRoot), record.toJson().getBytes(StandardCharsets.UTF_8), privateFile);
        } catch (IOException e) {
            throw new TrustException("cannot write to the trust store " + dir + ": " + e.getMessage());
        }
        return record;
    }

    /** Every file {@code manifest}'s process concerns name under {@code root}, hashed as a trust record keeps them. */
    public static java.util.Map<String, String> namedFiles(dev.agentwarden.manifest.Manifest manifest, Path root) {
        return NamedFiles.of(manifest, root);
    }

    /**
     * The SHA-256 a trust record would give {@code root/name} now: hex, or {@link TrustRecord#ABSENT}
     * when it is not a regular file.
     */
    public static String currentHash(Path root, String name) {
        return NamedFiles.hashOrAbsent(root, name);
    }

    /** Forgets the project's record; returns whether there was one. */
    public boolean revoke(Path root) throws TrustException {
        String realRoot = realRoot(root.toString());
        try {
            boolean had = Files.deleteIfExists(recordFile(realRoot));
            Files.deleteIfExists(copyFile(realRoot));
            return had;
        } catch (IOException e) {
            throw new TrustException("cannot remove the trust record for " + realRoot + ": " + e.getMessage());
        }
    }
}
