package dev.agentwarden.dispatch;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.ScratchTree;
import dev.agentwarden.manifest.ManifestLoader;
import dev.agentwarden.manifest.ManifestException;
import dev.agentwarden.trust.TrustException;
import dev.agentwarden.trust.TrustStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The workload a class-data archive is trained on: each host's representative events
 * ({@link Host#training}) dispatched in-process against the default manifest, so the archive holds exactly the dispatch path's
 * classes. The launcher runs it twice with one {@code WARDEN_TRAIN_CACHE}: once to compile the
 * manifest cache, then recorded, so YAML classes stay out of the archive. Run by {@code bin/warden train-archive} under {@code -XX:ArchiveClassesAtExit} (JDK
 * 17–24) or {@code -XX:AOTCacheOutput} (JDK 25+).
 */
public final class Training {
    private static final int ROUNDS = 40;

    private Training() {
    }

    public static void main(String[] args) throws IOException {
        Path project = scratchDir("warden-train-");
        String given = System.getenv("WARDEN_TRAIN_CACHE");
        Path cache = given != null ? Path.of(given) : scratchDir("warden-train-cache-");
        try {
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("WARDEN_CACHE_DIR", cache.toString());
            // Each event's cwd names its project, not the host's variables: training must not write
            // the user's decision log or ledger.
            env.remove("WARDEN_PROJECT_DIR");
            for (String var : Hosts.projectDirVariables()) {
                env.remove(var);
            }
            env.put("XDG_STATE_HOME", cache.resolve("state").toString());
            String trusted = trustedProject(cache.resolve("trusted-project"), env);
            PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
            for (int round = 0; round < ROUNDS; round++) {
                for (Host host : Hosts.ALL) {
                    if (host.training() == null) {
                        continue;
                    }
                    for (String[] e : host.training().payloads(trusted, project.toString())) {
                        // a payload without a cwd (not JSON) would otherwise record into the directory training ran in
                        String[] argv = e[1].startsWith("{")
                                ? new String[] {"dispatch", "--host", host.id(), "--native-event", e[0]}
                                : new String[] {"dispatch", "--host", host.id(), "--native-event", e[0],
                                        "--project-dir", project.toString()};
                        // printed as main prints it, so the archive holds what writing the answer loads
                        HostResponse r = DispatchMain.oneShot(argv,
                                new ByteArrayInputStream(e[1].getBytes(StandardCharsets.UTF_8)), env, Clock.systemUTC());
                        sink.print(r.stdout());
                        sink.println(r.stderr());
                    }
                }
            }
        } finally {
            ScratchTree.delete(project);
            if (given == null) {
                ScratchTree.delete(cache);
            }
        }
    }

    /**
     * A project whose {@code .warden/manifest.yaml} (the default's text, so its compiled form is the
     * default's) is trusted, so the archive holds the trusted-project path too. Trusting compiles
     * YAML: it happens in the launcher's first, unrecorded run; the recorded run finds the record.
     */
    private static String trustedProject(Path dir, Map<String, String> env) throws IOException {
        Path manifest = dir.resolve(".warden").resolve("manifest.yaml");
        if (!java.nio.file.Files.isRegularFile(manifest)) {
            OwnedPath.createPrivateDirectories(manifest.getParent());
            java.nio.file.Files.write(manifest, ManifestLoader.builtinDefault().bytes());
        }
        TrustStore store = TrustStore.forEnv(env);
        if (store.lookup(TrustStore.realRoot(dir.toString())).record() == null) {
            try {
                store.trust(dir, Clock.systemUTC());
            } catch (TrustException | ManifestException e) {
                throw new IOException("cannot trust the training project: " + e.getMessage(), e);
            }
        }
        return dir.toString();
    }

    /**
     * A fresh directory under java.io.tmpdir, named by the clock. Neither
     * {@code Files.createTempDirectory} (SecureRandom) nor a pid (ProcessHandle): both pull the
     * security providers or the lambda machinery into the archive, which a JDK 25 AOT cache then
     * loads on every dispatch.
     */
    private static Path scratchDir(String prefix) throws IOException {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), prefix + System.nanoTime());
        // private, or the manifest cache in it is refused and YAML would be recorded into the archive
        OwnedPath.createPrivateDirectories(dir);
        return dir;
    }
}
