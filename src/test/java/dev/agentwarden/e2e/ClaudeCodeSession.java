package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real Claude Code CLI headless against a scripted model:
 * {@code claude -p PROMPT --output-format json} in the project root, with a fresh {@code HOME}
 * whose {@code ~/.claude.json} marks onboarding done and the project trusted (so the project's
 * settings, hooks and permission rules apply), inside the {@link LoopbackSandbox}.
 *
 * <p>The environment is exact, not inherited: {@code PATH} (with this Warden's {@code bin/} first) (and {@code JAVA_HOME} when set, for
 * {@code bin/warden}), the API base URL and a dummy key, the switches that turn off non-essential
 * traffic, telemetry and the auto-updater, and {@code WARDEN_CACHE_DIR} so that every session
 * reuses one compiled-manifest cache. Nothing else of the test's environment (API keys, proxies)
 * reaches the host.
 */
final class ClaudeCodeSession {
    static final Duration LIMIT = HostSuite.SESSION_LIMIT;

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    ClaudeCodeSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = baseEnv(wardenCacheDir);
    }

    /** The environment every host and Warden process of the suite gets, before per-run entries. */
    static Map<String, String> baseEnv(Path wardenCacheDir) {
        Map<String, String> env = new LinkedHashMap<>();
        // this Warden's bin/ first: a project-scope install commits hooks that run `warden` from PATH
        env.put("PATH", wardenBin() + ":" + System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isEmpty()) {
            env.put("JAVA_HOME", javaHome);
        }
        env.put("LANG", "C.UTF-8");
        env.put("WARDEN_CACHE_DIR", wardenCacheDir.toString());
        // Each event in its own JVM, as these scenarios were written; a run that turns the
        // resident server on sets this to auto and stops the resident afterwards.
        env.put("WARDEN_RESIDENT", "off");
        return env;
    }

    /** The directory holding this Warden's launcher, {@code bin/warden}. */
    static Path wardenBin() {
        String home = System.getProperty("warden.home");
        return (home != null ? Path.of(home) : Path.of("")).toAbsolutePath().resolve("bin");
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    ClaudeRun run(E2eProject project, ScriptedModelServer server, String prompt) throws IOException {
        return run(project, server, prompt, Map.of(), List.of());
    }

    /**
     * One {@code claude -p} session with {@code extraEnv} on top of the usual environment, started
     * through {@code inside} (a command prefix that runs within the sandbox and ends by running its
     * arguments).
     */
    ClaudeRun run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv,
                  List<String> inside) throws IOException {
        return run(project, server, prompt, extraEnv, inside, List.of());
    }

    /** {@link #run(E2eProject, ScriptedModelServer, String, Map, List)} with {@code hostArgs} after the prompt ({@code --resume ID}). */
    ClaudeRun run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv,
                  List<String> inside, List<String> hostArgs) throws IOException {
        seedHome(project);
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("ANTHROPIC_BASE_URL", launch.baseUri().toString());
            env.put("ANTHROPIC_API_KEY", "test");
            env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
            env.put("DISABLE_TELEMETRY", "1");
            env.put("DISABLE_AUTOUPDATER", "1");
            env.putAll(extraEnv);
            // a null in extraEnv takes the variable away (DISABLE_TELEMETRY for a run that exports)
            env.values().removeIf(java.util.Objects::isNull);
            List<String> host = new ArrayList<>(inside);
            host.addAll(List.of(binary.toString(), "-p", prompt, "--output-format", "json"));
            host.addAll(hostArgs);
            List<String> command = launch.wrap(host);
            Command.Result result = Command.run(command, project.root(), env, LIMIT);
            return new ClaudeRun(result, project, server);
        }
    }

    /** {@code ~/.claude.json}: onboarding done, and the project's trust dialog accepted. */
    private static void seedHome(E2eProject project) throws IOException {
        Map<String, Object> trust = new LinkedHashMap<>();
        trust.put("hasTrustDialogAccepted", Boolean.TRUE);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("hasCompletedOnboarding", Boolean.TRUE);
        config.put("projects", Map.of(project.root().toString(), trust));
        Files.writeString(project.home().resolve(".claude.json"), Json.writePretty(config), StandardCharsets.UTF_8);
    }
}
