package dev.agentwarden.e2e;

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
 * Runs the real Cline CLI headless against a scripted model: {@code cline --json --data-dir D -P
 * openai-compatible -m mock-model -c <project> PROMPT}, inside the {@link LoopbackSandbox}, with a
 * fresh {@code HOME}. The provider is Cline's {@code openai-compatible} one (its Anthropic provider
 * ignores a base URL): {@code cline auth -p openai-compatible -k test -m mock-model -b URL --data-dir D}
 * runs once per suite, and each session's data directory gets that provider file with its own
 * server's URL, since {@code cline auth} alone costs a Cline start (18 s on a loaded 2-core box).
 * {@code CLINE_SESSION_BACKEND_MODE=local} keeps Cline from looking for its hub daemon, and
 * {@code CLINE_NO_AUTO_UPDATE=1} from asking npm. Hooks come from the project's
 * {@code .clinerules/hooks/} (written by {@code warden install --host cline}).
 */
final class ClineSession {
    static final Duration LIMIT = Duration.ofSeconds(180);
    static final String MODEL = "mock-model";
    private static final String PLACEHOLDER = "http://127.0.0.1:9/v1";

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;
    private final String providers;

    private ClineSession(Path binary, LoopbackSandbox sandbox, Map<String, String> baseEnv, String providers) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = baseEnv;
        this.providers = providers;
    }

    /** Configures the provider once with {@code cline auth}; the result is the session factory, or an IOException saying why not. */
    static ClineSession configure(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir, Path scratch) throws IOException {
        Map<String, String> env = env(ClaudeCodeSession.baseEnv(wardenCacheDir));
        Path home = Files.createDirectories(scratch.resolve("auth-home"));
        Path data = scratch.resolve("auth-data");
        env.put("HOME", home.toString());
        Command.Result auth = Command.run(List.of(binary.toString(), "auth", "-p", "openai-compatible", "-k", "test",
                "-m", MODEL, "-b", PLACEHOLDER, "--data-dir", data.toString()), scratch, env, LIMIT);
        Path file = data.resolve("settings/providers.json");
        if (!auth.ok() || !Files.isRegularFile(file)) {
            throw new IOException("cline auth failed (exit " + auth.exitCode() + "): " + auth.tail());
        }
        String providers = Files.readString(file, StandardCharsets.UTF_8);
        if (!providers.contains(PLACEHOLDER)) {
            throw new IOException("cline auth wrote no base URL into " + file + ": " + providers);
        }
        return new ClineSession(binary, sandbox, ClaudeCodeSession.baseEnv(wardenCacheDir), providers);
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** One {@code cline --json} task in the project, with {@code extraEnv} on top of the usual environment. */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
            throws IOException {
        Path data = project.dir().resolve("cline-data");
        Files.createDirectories(data.resolve("settings"));
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Files.writeString(data.resolve("settings/providers.json"),
                    providers.replace(PLACEHOLDER, launch.baseUri() + "/v1"), StandardCharsets.UTF_8);
            Map<String, String> env = env(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.putAll(extraEnv);
            List<String> host = new ArrayList<>(List.of(binary.toString(), "--json", "--data-dir", data.toString(),
                    "-P", "openai-compatible", "-m", MODEL, "-c", project.root().toString(), prompt));
            return Command.run(launch.wrap(host), project.root(), env, LIMIT);
        }
    }

    private static Map<String, String> env(Map<String, String> base) {
        Map<String, String> env = new LinkedHashMap<>(base);
        env.put("CLINE_SESSION_BACKEND_MODE", "local");
        env.put("CLINE_NO_AUTO_UPDATE", "1");
        return env;
    }
}
