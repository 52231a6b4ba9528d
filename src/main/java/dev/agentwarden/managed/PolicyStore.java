package dev.agentwarden.managed;

import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Fields;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import dev.agentwarden.release.PolicyBundle;
import dev.agentwarden.release.Rfc3339;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code warden policy pull} and {@code status}: fetches a signed policy bundle ({@link PolicyFetch}),
 * verifies it (script files included) against the managed trust root {@code /etc/agent-warden/policy-root.json} (a fixed
 * path, like the managed layer's) with the installed version as the rollback floor, compiles it as
 * the managed layer would, and only then swaps it in ({@link CurrentBundle}): the files and scripts go into a
 * temporary directory inside {@code /etc/agent-warden/bundles}, are fsynced, the directory is renamed
 * to {@code bundles/<version>}, and the {@code current} link is replaced by one rename. Any failure
 * leaves {@code current} as it was and is recorded in {@code policy-state.json}.
 */
public final class PolicyStore {
    static final String ROOT_FILE = "policy-root.json";
    static final String STATE_FILE = "policy-state.json";
    /** Held while a pull runs, so that two pulls (a timer and a person) never install at once. */
    static final String LOCK_FILE = ".policy-pull.lock";
    private static final int MAX_STATE_BYTES = 64 * 1024;
    private static final String FILE_MODE = "rw-r--r--";
    private static final String DIR_MODE = "rwxr-xr-x";
    private static final String SCRIPT_MODE = "rwxr-xr-x";

    private final Path dir;
    private final Clock clock;

    /** The store at {@code /etc/agent-warden}. */
    public static PolicyStore managed(Clock clock) {
        return new PolicyStore(ManagedLayer.DIR, clock);
    }

    PolicyStore(Path dir, Clock clock) {
        this.dir = dir;
        this.clock = clock;
    }

    /** How a pull fetches. */
    public record PullOptions(boolean allowHttpLoopback, int maxBytes, Duration connect, Duration total) {
        public static PullOptions defaults() {
            return new PullOptions(false, PolicyFetch.DEFAULT_MAX_BYTES, Duration.ofSeconds(10), Duration.ofSeconds(60));
        }
    }

    /** A pull's outcome: {@code installed}, {@code unchanged} or {@code refused}, with a message for people. */
    public record PullResult(String result, String code, String message) {
        public boolean ok() {
            return !"refused".equals(result);
        }
    }

    public PullResult pull(String url, PullOptions options) {
        Map<String, Object> state = readState();
        PullResult result;
        try {
            result = pullOnce(url, options, state);
        } catch (PolicyBundle.Refused e) {
            result = new PullResult("refused", e.code(), e.getMessage());
        } catch (IOException | RuntimeException e) {
            result = new PullResult("refused", "pull_failed", e.getMessage());
        }
        if (!result.ok()) {
            result = new PullResult(result.result(), result.code(), result.message() + "; the installed policy"
                    + (state.get("version") == null ? " (none)" : " (version " + state.get("version") + ")")
                    + " stays in force");
        }
        Map<String, Object> last = new LinkedHashMap<>();
        last.put("at", Rfc3339.format(clock.instant()));
        last.put("url", url);
        last.put("result", result.result());
        if (result.code() != null) {
            last.put("code", result.code());
        }
        last.put("message", result.message());
        Map<String, Object> next = new LinkedHashMap<>(readState());
        next.put("last_pull", last);
        try {
            writeState(next);
        } catch (IOException e) {
            return new PullResult("refused", "state_unwritable", result.message() + "; and " + dir.resolve(STATE_FILE)
                    + " could not be written: " + e.getMessage());
        }
        return result;
    }

    private PullResult pullOnce(String url, PullOptions options, Map<String, Object> state)
            throws IOException, PolicyBundle.Refused {
        URI uri = PolicyFetch.checkUrl(url, options.allowHttpLoopback());
        requireRoot();
        try (FileChannel lockChannel = FileChannel.open(dir.resolve(LOCK_FILE), java.util.Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(FILE_MODE)));
             java.nio.channels.FileLock lock = lockChannel.tryLock()) {
            if (lock == null) {
                throw new IOException("another 'warden policy pull' is running (it holds " + dir.resolve(LOCK_FILE) + ")");
            }
            return pullLocked(uri, url, options, readState());
        }
    }

    private PullResult pullLocked(URI uri, String url, PullOptions options, Map<String, Object> state)
            throws IOException, PolicyBundle.Refused {
        Path rootFile = dir.resolve(ROOT_FILE);
        String rootProblem = RootOwned.problem(rootFile);
        if (rootProblem != null) {
            throw new IOException("managed trust root refused: " + rootProblem);
        }
        String etag = url.equals(state.get("source")) ? (String) state.get("etag") : null;
        PolicyFetch.Response response = PolicyFetch.get(uri, etag, options.maxBytes(), options.connect(), options.total());
        if (response.notModified()) {
            return new PullResult("unchanged", null, url + " is unchanged (ETag " + etag + ")");
        }
        if (dev.agentwarden.digest.Sha256.hex(response.body()).equals(state.get("sha256"))) {
            return new PullResult("unchanged", null, url + " serves the installed bundle (version "
                    + state.get("version") + ")");
        }
        PolicyBundle.Verified bundle = PolicyBundle.verify(response.body(), rootFile, number(state, "version"),
                number(state, "root_version"), clock.instant());
        requireScripts(bundle);
        // a directory stands in for the bundle's, so relative scripts anchor as they will once installed
        ManagedLayer.State compiled = ManagedLayer.compile(Path.of("bundle:", CurrentBundle.MANIFEST_NAME),
                bundle.files().get(CurrentBundle.MANIFEST_NAME), Path.of("bundle:" + CurrentBundle.SETTINGS_NAME),
                bundle.files().get(CurrentBundle.SETTINGS_NAME));
        if (compiled.refused()) {
            throw new PolicyBundle.Refused("bundle_policy_invalid", "the bundle's policy does not load: "
                    + reasonOnly(compiled.problem()));
        }
        install(bundle, response.body());
        Map<String, Object> next = new LinkedHashMap<>();
        next.put("version", bundle.version());
        next.put("root_version", bundle.rootVersion());
        next.put("root_sha256", bundle.rootSha256());
        next.put("sha256", bundle.sha256());
        next.put("signers", new ArrayList<Object>(bundle.signers()));
        next.put("expires", Rfc3339.format(bundle.expires()));
        next.put("source", url);
        if (response.etag() != null) {
            next.put("etag", response.etag());
        }
        next.put("installed_at", Rfc3339.format(clock.instant()));
        writeState(next);
        retireOld(bundle.version());
        return new PullResult("installed", null, "installed policy bundle version " + bundle.version() + " from " + url
                + " (signed by " + bundle.signers().size() + " key(s) of root version " + bundle.rootVersion() + ")");
    }

    /** Refuses a bundle whose manifest runs a relative script the bundle does not carry. */
    private static void requireScripts(PolicyBundle.Verified bundle) throws PolicyBundle.Refused {
        byte[] manifest = bundle.files().get(CurrentBundle.MANIFEST_NAME);
        if (manifest == null) {
            return;
        }
        List<String> named;
        try {
            named = BundleScripts.named(manifest);
        } catch (IllegalArgumentException e) {
            throw new PolicyBundle.Refused("bundle_policy_invalid", "the bundle's policy does not load: "
                    + e.getMessage());
        }
        for (String name : named) {
            if (!bundle.scripts().containsKey(name)) {
                throw new PolicyBundle.Refused("bundle_script_missing", "the bundle's manifest runs " + name
                        + ", which the bundle does not carry");
            }
        }
    }

    private void requireRoot() throws IOException {
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (uid != 0) {
            throw new IOException("warden policy pull writes " + dir + " and runs as root (uid is " + uid + ")");
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " does not exist; create it (root's, 0755) with " + ROOT_FILE + " in it");
        }
    }

    /** Writes the bundle directory whole and durably, then flips {@code current} to it. */
    void install(PolicyBundle.Verified bundle, byte[] envelope) throws IOException {
        Path bundles = dir.resolve(CurrentBundle.BUNDLES);
        if (!Files.isDirectory(bundles, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectory(bundles);
            Files.setPosixFilePermissions(bundles, PosixFilePermissions.fromString(DIR_MODE));
        }
        Path tmp = Files.createTempDirectory(bundles, ".incoming-");
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(DIR_MODE));
            for (Map.Entry<String, byte[]> f : bundle.files().entrySet()) {
                writeDurably(tmp.resolve(f.getKey()), f.getValue());
            }
            writeDurably(tmp.resolve("bundle.json"), envelope);
            for (Map.Entry<String, PolicyBundle.Script> script : bundle.scripts().entrySet()) {
                writeScript(tmp, script.getKey(), script.getValue());
            }
            fsyncDir(tmp);
            Path target = bundles.resolve(Long.toString(bundle.version()));
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                retire(target);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            fsyncDir(bundles);
            Path link = dir.resolve(".current.incoming");
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, Path.of(CurrentBundle.BUNDLES, Long.toString(bundle.version())));
            Files.move(link, dir.resolve(CurrentBundle.LINK), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            fsyncDir(dir);
        } finally {
            if (Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
                deleteTree(tmp);
            }
        }
    }

    /** Keeps the installed bundle and the one before it; older ones are renamed away, then deleted. */
    private void retireOld(long installed) throws IOException {
        List<Long> versions = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir.resolve(CurrentBundle.BUNDLES))) {
            for (Path p : (Iterable<Path>) list::iterator) {
                String name = p.getFileName().toString();
                if (CurrentBundle.isBundleName(CurrentBundle.BUNDLES + "/" + name)) {
                    versions.add(Long.parseLong(name));
                }
            }
        }
        versions.sort(Comparator.reverseOrder());
        for (int i = 0; i < versions.size(); i++) {
            if (i >= 2 && versions.get(i) != installed) {
                retire(dir.resolve(CurrentBundle.BUNDLES).resolve(Long.toString(versions.get(i))));
            }
        }
    }

    /** Renames {@code bundleDir} out of the readers' names first (see ManagedLayer.load), then deletes it. */
    private static void retire(Path bundleDir) throws IOException {
        Path gone = bundleDir.resolveSibling(".retired-" + bundleDir.getFileName() + "-" + System.nanoTime());
        Files.move(bundleDir, gone, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(gone);
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> all = new ArrayList<>();
            walk.forEach(all::add);
            all.sort(Comparator.reverseOrder());
            for (Path p : all) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Writes a bundle script under {@code bundleDir} (a fresh directory of ours): each directory on its
     * path is created here (a name already there that is not a plain directory is refused, so no link is
     * followed), the file is created new, 0755 when signed executable, else 0644.
     */
    private static void writeScript(Path bundleDir, String name, PolicyBundle.Script script) throws IOException {
        if (PolicyBundle.badScriptName(name) != null) {
            throw new IOException("bundle script '" + name + "' is not a plain relative path");
        }
        String[] segments = name.split("/");
        Path at = bundleDir;
        for (int i = 0; i < segments.length - 1; i++) {
            at = at.resolve(segments[i]);
            if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(at);
                Files.setPosixFilePermissions(at, PosixFilePermissions.fromString(DIR_MODE));
            } else if (!Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(at + " is not a directory");
            }
        }
        Path file = at.resolve(segments[segments.length - 1]);
        writeDurably(file, script.bytes(), script.executable() ? SCRIPT_MODE : FILE_MODE);
        fsyncDir(at);
    }

    private static void writeDurably(Path file, byte[] bytes) throws IOException {
        writeDurably(file, bytes, FILE_MODE);
    }

    private static void writeDurably(Path file, byte[] bytes, String mode) throws IOException {
        try (FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(FILE_MODE)))) {
            StateFiles.writeFully(ch, java.nio.ByteBuffer.wrap(bytes), 0);
            ch.force(true);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    }

    private static void fsyncDir(Path d) throws IOException {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** The state file as a map: empty when there is none or it cannot be read (then nothing is installed by us). */
    public Map<String, Object> readState() {
        try {
            byte[] bytes = StateFiles.readAll(dir.resolve(STATE_FILE), MAX_STATE_BYTES, false);
            return Fields.asMap(Json.parse(bytes, JsonLimits.I_JSON));
        } catch (NoSuchFileException e) {
            return Map.of();
        } catch (IOException | RuntimeException e) {
            return Map.of("state_problem", dir.resolve(STATE_FILE) + ": " + e.getMessage());
        }
    }

    private void writeState(Map<String, Object> state) throws IOException {
        AtomicWrite.write(dir.resolve(STATE_FILE), (Json.writePretty(state) + "\n").getBytes(StandardCharsets.UTF_8),
                PosixFilePermissions.fromString(FILE_MODE));
    }

    /** The cause in a {@link ManagedLayer} refusal, without what it means for dispatch (nothing: this bundle is not installed). */
    private static String reasonOnly(String problem) {
        String p = problem.replace("managed policy refused: ", "");
        int tail = p.indexOf("; events are refused");
        return tail < 0 ? p : p.substring(0, tail);
    }

    private static long number(Map<String, Object> state, String key) {
        Object v = state.get(key);
        return v instanceof Number n ? n.longValue() : 0;
    }

    /** Lines for {@code warden policy status}. */
    public List<String> status() {
        Map<String, Object> s = readState();
        List<String> out = new ArrayList<>();
        if (s.get("state_problem") != null) {
            out.add("PROBLEM: " + s.get("state_problem"));
        }
        Object version = s.get("version");
        if (version == null) {
            out.add("policy bundle: none installed under " + dir);
        } else {
            out.add("policy bundle: version " + version + " (sha256 " + s.get("sha256") + ")");
            out.add("signer: " + s.get("signers") + " of root version " + s.get("root_version"));
            out.add("source: " + s.get("source") + (s.get("etag") == null ? "" : " (ETag " + s.get("etag") + ")"));
            Object installed = s.get("installed_at");
            if (installed instanceof String at) {
                Duration age = Duration.between(Rfc3339.parse(at), clock.instant());
                out.add("installed: " + at + " (age " + age.toSeconds() + " s)");
            }
            out.add("expires: " + s.get("expires"));
        }
        if (s.get("last_pull") instanceof Map<?, ?> last) {
            out.add("last pull: " + last.get("at") + " " + last.get("result") + (last.get("code") == null ? ""
                    : " (" + last.get("code") + ")") + ": " + last.get("message"));
        }
        return out;
    }
}
