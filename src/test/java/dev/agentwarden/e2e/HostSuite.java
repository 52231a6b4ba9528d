package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The set-up every host suite does once, before its scenarios: Warden's launcher (with the packaged
 * jar beside it), the host from the e2e cache ({@link HostInstall}; where there is none the summary
 * says why and {@link #unavailable} is the suite's skip reason), and the {@link LoopbackSandbox} its
 * sessions run in, noted in the summary. Each suite keeps its own instance in a static field, so
 * suites run side by side: a host suite is {@code @Execution(CONCURRENT)} (its own sandbox, temp
 * dirs and model port) with a {@code @ResourceLock} of {@link #LOCK_PREFIX} and its host's id.
 */
final class HostSuite {
    /**
     * What a host suite's {@code @ResourceLock} starts with, before its host's id. In the default
     * {@code READ_WRITE} mode, suites of one host (one npm prefix, one host cache) run one at a time,
     * their scenarios in order; suites of different hosts run side by side. A suite whose sessions
     * only read the install (each its own project, {@code HOME}, scratch and data folders, model and
     * sandbox launch; no cache shared between sessions) takes it in {@code READ} mode: its scenarios
     * run side by side, never beside a {@code READ_WRITE} suite of the host;
     * a host has at most one {@code READ} suite ({@link HostSuiteConcurrencyTest}), since two
     * {@code READ} holders do not exclude each other. {@link HostInstall#ensureOrAnnounce} checks or
     * installs one host at a time either way.
     */
    static final String LOCK_PREFIX = "e2e-host:";

    /**
     * How long one host session may take before it is killed and fails: only a guard against a hang.
     * A session takes 5 to 20 s on an idle 2-core box; with suites side by side on a loaded one it
     * has been seen past 120 s.
     */
    static final Duration SESSION_LIMIT = Duration.ofSeconds(300);

    private final Path launcher;
    private final String label;
    private final HostInstall.Outcome outcome;
    private final LoopbackSandbox sandbox;
    private final Path wardenCache;

    private HostSuite(Path launcher, String label, HostInstall.Outcome outcome, LoopbackSandbox sandbox, Path wardenCache) {
        this.launcher = launcher;
        this.label = label;
        this.outcome = outcome;
        this.sandbox = sandbox;
        this.wardenCache = wardenCache;
    }

    /**
     * Finds everything for {@code host} ({@code name} as a person calls it), labelling its summary
     * rows {@code label} and the host's version; sandbox helpers and the suite's Warden cache go
     * under {@code suiteDir}.
     */
    static HostSuite open(HostInstall.Host host, String name, String label, E2eSummary summary, Path suiteDir)
            throws IOException {
        Path launcher = launcher();
        HostInstall.Outcome outcome = HostInstall.ensureOrAnnounce(host, name, summary);
        if (!outcome.available()) {
            return new HostSuite(launcher, label, outcome, null, null);
        }
        LoopbackSandbox sandbox = LoopbackSandbox.probe(Files.createDirectories(suiteDir.resolve("sandbox")));
        summary.note("network: " + sandbox.description());
        return new HostSuite(launcher, label + " " + outcome.version(), outcome, sandbox, suiteDir.resolve("warden-cache"));
    }

    /** Warden's checkout ({@code -Dwarden.home}, set by failsafe). */
    static Path wardenHome() {
        return Path.of(System.getProperty("warden.home", ".")).toAbsolutePath().normalize();
    }

    /** {@code bin/warden}, once the packaged jar it runs is known to exist. */
    static Path launcher() {
        Path jar = Path.of(System.getProperty("warden.jar", wardenHome().resolve("target/warden.jar").toString()));
        assertThat(jar).as("Warden's jar (run through failsafe after package)").exists();
        return wardenHome().resolve("bin/warden");
    }

    Path wardenLauncher() {
        return launcher;
    }

    /** The summary rows' host: the label and, when the host is available, its version. */
    String host() {
        return label;
    }

    /** Why the host cannot run (the scenarios skip with it), or null when it can. */
    String unavailable() {
        return outcome.unavailable();
    }

    boolean available() {
        return outcome.available();
    }

    Path binary() {
        return outcome.binary();
    }

    /** The host's {@code --version}, or null when it is unavailable. */
    String version() {
        return outcome.version();
    }

    LoopbackSandbox sandbox() {
        return sandbox;
    }

    /** The suite's {@code WARDEN_CACHE_DIR}: one compiled-manifest cache for all its sessions. */
    Path wardenCache() {
        return wardenCache;
    }

    /**
     * {@code warden install --host hostId} into {@code project}, which must exit 0 and write
     * {@code configFile} (relative to the project); returns what it printed.
     */
    Command.Result install(E2eProject project, Map<String, String> env, String hostId, String configFile) throws IOException {
        Command.Result r = project.installWarden(launcher, env, hostId);
        assertThat(r.exitCode()).as("warden install --host " + hostId + ": " + r.stdout() + r.stderr()).isZero();
        assertThat(project.root().resolve(configFile)).exists();
        return r;
    }

    /** Every line of the project's ledger ({@code .warden/state/ledger/*.jsonl}), oldest segment first. */
    static List<Map<String, Object>> ledgerLines(E2eProject project) throws IOException {
        Path dir = project.root().resolve(".warden/state/ledger");
        List<Map<String, Object>> lines = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return lines;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    lines.add(Json.parseObject(line));
                }
            }
        }
        return lines;
    }
}
