package dev.agentwarden.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host CLI installed from npm into a cache folder outside the repository
 * ({@code $WARDEN_E2E_CACHE}, default {@code ~/.cache/agent-warden-e2e}), one npm prefix per host,
 * reused between runs. The version comes from {@code hosts.properties} (what {@code .ci/run} installs
 * too), or {@code WARDEN_E2E_<ID>_VERSION}; {@code latest} reuses whatever the cache holds.
 */
final class HostInstall {
    /**
     * An installable host: cache id (its key in {@code hosts.properties}), npm package and the command
     * it provides; {@code dirStem}, when set, names the cache folder {@code <dirStem>-<version>}
     * instead of {@code <id>}, for a second version of a host kept beside the first.
     */
    record Host(String id, String npmPackage, String command, String dirStem) {
        Host(String id, String npmPackage, String command) {
            this(id, npmPackage, command, null);
        }

        /** The npm prefix this host's {@code version} lives in under {@code cacheRoot}. */
        Path prefix(Path cacheRoot, String version) {
            return cacheRoot.resolve(dirStem == null ? id : dirStem + "-" + version);
        }
    }

    static final Host CLAUDE_CODE = new Host("claude-code", "@anthropic-ai/claude-code", "claude");
    /** Claude Code as it ships today (npm latest when last measured), in {@code claude-code-<version>}. */
    static final Host CLAUDE_CODE_CURRENT = new Host("claude-code-current", "@anthropic-ai/claude-code", "claude",
            "claude-code");
    static final Host CODEX = new Host("codex", "@openai/codex", "codex");
    static final Host OPENCODE = new Host("opencode", "opencode-ai", "opencode");
    /** Kilo Code, OpenCode's fork; its npm package has no 7.8.x binary for linux-x64 ({@code hosts.properties}). */
    static final Host KILO = new Host("kilocode", "@kilocode/cli", "kilo");
    /** Copilot CLI: its loader unpacks a ~235 MB native package on first run, into {@link #copilotCache}. */
    static final Host COPILOT = new Host("copilot", "@github/copilot", "copilot");
    static final Host CLINE = new Host("cline", "cline", "cline");
    static final Host GEMINI_CLI = new Host("gemini-cli", "@google/gemini-cli", "gemini");
    /**
     * Factory Droid: the linux-x64 binary package by name (npm's {@code @factory/cli} 0.225.1 names a
     * platform package that was never published); its binary is {@code bin/droid} in that package.
     */
    static final Host DROID = new Host("droid", "@factory/cli-linux-x64", "droid");
    /** Augment's Auggie CLI ({@code augment.mjs}, linked as {@code auggie}). */
    static final Host AUGGIE = new Host("auggie", "@augmentcode/auggie", "auggie");

    /** The result: a runnable binary and its version, or why there is none. */
    record Outcome(Path binary, String version, String how, String unavailable) {
        boolean available() {
            return binary != null;
        }
    }

    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");
    private static final Duration INSTALL_LIMIT = Duration.ofMinutes(15);
    /** One monitor per npm prefix and version, held while {@link #ensureOrAnnounce} checks or installs it. */
    private static final ConcurrentHashMap<String, Object> INSTALLING = new ConcurrentHashMap<>();
    /** What {@link #ensureOrAnnounce} found runnable, per npm prefix and version, in this test run. */
    private static final ConcurrentHashMap<String, Outcome> CHECKED = new ConcurrentHashMap<>();

    private HostInstall() {
    }

    /** {@code COPILOT_CACHE_HOME} for every Copilot run, shared under the e2e cache so that the unpack happens once. */
    static Path copilotCache() {
        return cacheRoot().resolve("copilot-cache");
    }

    static Path cacheRoot() {
        String dir = System.getenv("WARDEN_E2E_CACHE");
        return dir != null && !dir.isEmpty() ? Path.of(dir)
                : Path.of(System.getProperty("user.home"), ".cache", "agent-warden-e2e");
    }

    /** The version to run: the environment override, else {@code hosts.properties}. */
    static String wantedVersion(Host host) throws IOException {
        String override = System.getenv("WARDEN_E2E_" + host.id().toUpperCase(Locale.ROOT).replace('-', '_') + "_VERSION");
        if (override != null && !override.isEmpty()) {
            return override;
        }
        Properties versions = new Properties();
        try (InputStream in = HostInstall.class.getResourceAsStream("hosts.properties")) {
            if (in == null) {
                throw new IOException("test resource missing: hosts.properties");
            }
            versions.load(in);
        }
        String version = versions.getProperty(host.id());
        if (version == null) {
            throw new IOException("hosts.properties names no version for " + host.id());
        }
        return version.strip();
    }

    /**
     * {@link #ensure} for a suite: the wanted version from the default cache, with the host's path
     * noted in the summary, or, when there is none, a banner on stdout and stderr and a SKIPPED note,
     * and an outcome whose {@code unavailable} is the suite's skip reason.
     */
    static Outcome ensureOrAnnounce(Host host, String name, E2eSummary summary) throws IOException {
        String version = wantedVersion(host);
        Outcome outcome;
        String key = host.prefix(cacheRoot(), version) + "@" + version;
        // suites that only read an install may start side by side: one of them checks or installs it at a time
        synchronized (INSTALLING.computeIfAbsent(key, k -> new Object())) {
            Outcome checked = CHECKED.get(key);
            if (checked != null && Files.isExecutable(checked.binary())) {
                outcome = checked;
            } else {
                outcome = ensure(host, cacheRoot(), version);
                if (outcome.available()) {
                    // a host start for its --version is seconds of CPU: the next suite of this host reuses the answer
                    CHECKED.put(key, new Outcome(outcome.binary(), outcome.version(),
                            outcome.how() + "; checked once for this run", null));
                }
            }
        }
        if (outcome.available()) {
            summary.note("host: " + outcome.binary() + " (" + outcome.how() + ")");
            return outcome;
        }
        String why = name + " unavailable: " + outcome.unavailable().replace("\n", " / ");
        String banner = "#".repeat(100);
        String text = banner + "\n# E2E SKIPPED: " + why + "\n# Install it with: npm install --prefix "
                + host.prefix(cacheRoot(), version) + " " + host.npmPackage() + "@" + version + "\n" + banner;
        System.out.println(text);
        System.err.println(text);
        summary.note("SKIPPED: " + why);
        return new Outcome(null, null, null, why);
    }

    /** The cached binary when it runs and has the wanted version, else a fresh npm install into the cache. */
    static Outcome ensure(Host host, Path cacheRoot, String version) throws IOException {
        Path prefix = host.prefix(cacheRoot, version);
        Outcome cached = locate(host, prefix);
        if (cached.available() && (version.equals("latest") || version.equals(cached.version()))) {
            return new Outcome(cached.binary(), cached.version(), "reused " + prefix, null);
        }
        if (Command.onPath("npm").isEmpty()) {
            return new Outcome(null, null, null, "npm is not on PATH and " + prefix + " holds no "
                    + host.npmPackage() + "@" + version);
        }
        Files.createDirectories(prefix);
        Command.Result npm = Command.run(List.of("npm", "install", "--prefix", prefix.toString(), "--no-audit",
                "--no-fund", "--loglevel=error", host.npmPackage() + "@" + version), prefix, null, INSTALL_LIMIT);
        if (!npm.ok()) {
            return new Outcome(null, null, null, "npm install " + host.npmPackage() + "@" + version + " failed ("
                    + (npm.timedOut() ? "timed out" : "exit " + npm.exitCode()) + "): " + npm.tail());
        }
        Outcome installed = locate(host, prefix);
        if (!installed.available()) {
            return new Outcome(null, null, null, "npm installed " + host.npmPackage() + " into " + prefix
                    + " but no runnable binary was found: " + installed.unavailable());
        }
        return new Outcome(installed.binary(), installed.version(),
                "installed into " + prefix + " in " + npm.millis() / 1000 + " s", null);
    }

    /**
     * The first candidate that answers {@code --version}: npm's bin link (the postinstall step puts
     * the native binary there), then the platform package's binary itself (for installs whose
     * postinstall did not run).
     */
    static Outcome locate(Host host, Path prefix) throws IOException {
        List<Path> candidates = new ArrayList<>();
        candidates.add(prefix.resolve("node_modules/.bin").resolve(host.command()));
        candidates.add(prefix.resolve("node_modules").resolve(host.npmPackage()).resolve("bin").resolve(host.command()));
        Path scope = prefix.resolve("node_modules").resolve(host.npmPackage()).getParent();
        String base = host.npmPackage().substring(host.npmPackage().indexOf('/') + 1);
        if (Files.isDirectory(scope)) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(scope, base + "-*")) {
                for (Path dir : dirs) {
                    candidates.add(dir.resolve(host.command()));
                }
            }
        }
        String why = "nothing installed in " + prefix;
        for (Path candidate : candidates) {
            if (!Files.isExecutable(candidate)) {
                continue;
            }
            Map<String, String> env = null;
            if (host.equals(COPILOT)) {
                env = new java.util.HashMap<>(System.getenv());
                env.put("COPILOT_CACHE_HOME", copilotCache().toString());
                env.put("COPILOT_AUTO_UPDATE", "false");
                env.put("COPILOT_OFFLINE", "true");
            }
            Command.Result r = Command.run(List.of(candidate.toString(), "--version"), prefix, env, Duration.ofSeconds(60));
            Matcher m = VERSION.matcher(r.stdout());
            if (r.ok() && m.find()) {
                return new Outcome(candidate, m.group(), "found", null);
            }
            why = candidate + " --version failed: " + r.tail();
        }
        return new Outcome(null, null, null, why);
    }
}
