package dev.agentwarden.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a host process runs so that it can reach nothing but the scripted model on loopback.
 *
 * <p>Preferred: a fresh network namespace ({@code unshare -n}, or {@code unshare -rn} inside a user
 * namespace when not root) whose only interface is {@code lo}. Inside it a small Node forwarder
 * listens on {@code 127.0.0.1:PORT} and pipes to a Unix socket that a {@link UnixSocketBridge} in
 * this JVM serves, so the host's only route out is the scripted model. Where namespaces, {@code ip}
 * or {@code node} are unavailable, or {@code WARDEN_E2E_NETNS=off}, the host runs unconfined and
 * reaches the model on this machine's loopback; the suite says so in its summary.
 * {@code WARDEN_E2E_NETNS=user} forces the user-namespace form, as a non-root run would get it.
 */
final class LoopbackSandbox {
    private final List<String> unshare;
    private final Path ip;
    private final Path runner;
    private final Path forwarder;
    private final String description;

    private LoopbackSandbox(List<String> unshare, Path ip, Path runner, Path forwarder, String description) {
        this.unshare = unshare;
        this.ip = ip;
        this.runner = runner;
        this.forwarder = forwarder;
        this.description = description;
    }

    /** Finds the best confinement this machine allows; helper scripts are written into {@code scratch}. */
    static LoopbackSandbox probe(Path scratch) throws IOException {
        String mode = System.getenv().getOrDefault("WARDEN_E2E_NETNS", "auto");
        if (mode.equals("off")) {
            return unconfined("WARDEN_E2E_NETNS=off");
        }
        Optional<Path> unshareBin = find("unshare");
        Optional<Path> ipBin = find("ip");
        Optional<Path> node = Command.onPath("node");
        if (unshareBin.isEmpty() || ipBin.isEmpty() || node.isEmpty()) {
            return unconfined("missing " + (unshareBin.isEmpty() ? "unshare " : "") + (ipBin.isEmpty() ? "ip " : "")
                    + (node.isEmpty() ? "node" : "").strip());
        }
        Path runner = copyResource("netns-run.sh", scratch);
        Path forwarder = copyResource("loopback-forwarder.cjs", scratch);
        String failures = "";
        String ip = ipBin.get().toString();
        List<List<String>> attempts = mode.equals("user") ? List.of(List.of("-r", "-n"))
                : List.of(List.of("-n"), List.of("-r", "-n"));
        for (List<String> flags : attempts) {
            List<String> prefix = new ArrayList<>();
            prefix.add(unshareBin.get().toString());
            prefix.addAll(flags);
            List<String> probe = new ArrayList<>(prefix);
            probe.addAll(List.of("sh", "-c", "\"$0\" link set lo up && \"$0\" -o link show", ip));
            Command.Result r = Command.run(probe, scratch, null, Duration.ofSeconds(10));
            if (r.ok()) {
                List<String> interfaces = interfaces(r.stdout());
                if (!interfaces.equals(List.of("lo"))) {
                    throw new IOException("a fresh network namespace should hold only lo, found " + interfaces);
                }
                return new LoopbackSandbox(prefix, ipBin.get(), runner, forwarder,
                        "loopback-only network namespace (unshare " + String.join(" ", flags) + "; interfaces: lo)");
            }
            failures += " unshare " + String.join(" ", flags) + ": " + r.tail().replace('\n', ' ') + ";";
        }
        return unconfined("network namespaces not permitted:" + failures);
    }

    /** Interface names from {@code ip -o link show} ("1: lo: <LOOPBACK,UP> ..." lines). */
    static List<String> interfaces(String ipOutput) {
        List<String> names = new ArrayList<>();
        for (String line : ipOutput.split("\n")) {
            String[] fields = line.split(":\\s*", 3);
            if (fields.length >= 2 && !fields[1].isBlank()) {
                names.add(fields[1].strip().replaceAll("@.*", ""));
            }
        }
        return names;
    }

    private static LoopbackSandbox unconfined(String why) {
        return new LoopbackSandbox(null, null, null, null,
                "NOT confined to loopback (" + why + "); the host still only gets 127.0.0.1 as its API base URL");
    }

    /** Whether hosts run in a loopback-only network namespace. */
    boolean confined() {
        return unshare != null;
    }

    String description() {
        return description;
    }

    /** Prepares one host launch against {@code server}; {@code socketDir} holds the bridge socket. */
    Launch launch(ScriptedModelServer server, Path socketDir) throws IOException {
        if (!confined()) {
            return new Launch(List.of(), server.baseUri(), null);
        }
        UnixSocketBridge bridge = UnixSocketBridge.start(socketDir.resolve("model.sock"), server.port());
        List<String> prefix = new ArrayList<>(unshare);
        prefix.addAll(List.of("bash", runner.toString(), ip.toString(), Integer.toString(server.port()),
                bridge.socket().toString(), forwarder.toString(), "--"));
        return new Launch(prefix, URI.create("http://127.0.0.1:" + server.port()), bridge);
    }

    /**
     * A command prefix that, run inside a {@link Launch}'s namespace, also makes {@code 127.0.0.1:port}
     * there reach {@code port} on this machine's loopback (through {@code bridge}'s Unix socket), then
     * runs its arguments; empty when hosts run unconfined (they reach the port directly).
     */
    List<String> alsoForward(int port, UnixSocketBridge bridge) {
        if (!confined()) {
            return List.of();
        }
        return List.of("bash", runner.toString(), ip.toString(), Integer.toString(port), bridge.socket().toString(),
                forwarder.toString(), "--");
    }

    /** A prepared launch: the command prefix, the base URL the host must use, and the bridge to close. */
    static final class Launch implements AutoCloseable {
        private final List<String> prefix;
        private final URI baseUri;
        private final UnixSocketBridge bridge;

        private Launch(List<String> prefix, URI baseUri, UnixSocketBridge bridge) {
            this.prefix = prefix;
            this.baseUri = baseUri;
            this.bridge = bridge;
        }

        URI baseUri() {
            return baseUri;
        }

        /** {@code command}, wrapped so that it runs confined. */
        List<String> wrap(List<String> command) {
            List<String> out = new ArrayList<>(prefix);
            out.addAll(command);
            return out;
        }

        @Override
        public void close() throws IOException {
            if (bridge != null) {
                bridge.close();
            }
        }
    }

    /** {@code name} on {@code $PATH}, else in the system directories a non-root {@code $PATH} may lack. */
    private static Optional<Path> find(String name) {
        Optional<Path> onPath = Command.onPath(name);
        if (onPath.isPresent()) {
            return onPath;
        }
        for (String dir : new String[] {"/usr/sbin", "/sbin", "/usr/bin", "/bin"}) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Copies the test resource {@code name} (beside this class) into {@code dir}, executable. */
    static Path copyResource(String name, Path dir) throws IOException {
        Path target = dir.resolve(name);
        try (InputStream in = LoopbackSandbox.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("test resource missing: " + name);
            }
            Files.copy(in, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        target.toFile().setExecutable(true);
        return target;
    }
}
