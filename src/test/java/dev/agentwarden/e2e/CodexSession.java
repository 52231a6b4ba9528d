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
 * Runs the real Codex CLI headless against a scripted model:
 * {@code codex exec --json --skip-git-repo-check --dangerously-bypass-hook-trust PROMPT} in the
 * project root, inside the {@link LoopbackSandbox}, with a fresh {@code CODEX_HOME} whose
 * {@code config.toml} names a custom Responses-API provider on 127.0.0.1, an unknown model slug,
 * {@code approval_policy = "never"}, analytics off and the project trusted. Hooks come from the
 * project's {@code .codex/hooks.json} (written by {@code warden install --host codex}).
 *
 * <p>The environment is exact, as for Claude Code ({@link ClaudeCodeSession#baseEnv}), plus
 * {@code CODEX_HOME}, {@code HOME} and the provider's dummy key; {@code SHELL} is {@code /bin/sh}
 * so that the hooks' {@code $SHELL -lc} reads no user profile.
 */
final class CodexSession {
    static final Duration LIMIT = HostSuite.SESSION_LIMIT;
    static final String MODEL = "e2e-scripted-model";
    private static final String KEY_VAR = "WARDEN_E2E_MODEL_KEY";

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    CodexSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt) throws IOException {
        return run(project, server, prompt, Map.of(), List.of());
    }

    /**
     * One {@code codex exec} session with {@code extraEnv} on top of the usual environment, started
     * through {@code inside} (a command prefix that runs within the sandbox and ends by running its
     * arguments).
     */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv,
                       List<String> inside) throws IOException {
        Path codexHome = Files.createDirectories(project.home().resolve(".codex"));
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Files.writeString(codexHome.resolve("config.toml"), config(launch.baseUri() + "/v1", project.root()),
                    StandardCharsets.UTF_8);
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("CODEX_HOME", codexHome.toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("SHELL", "/bin/sh");
            env.put(KEY_VAR, "test");
            env.putAll(extraEnv);
            List<String> host = new ArrayList<>(inside);
            host.addAll(List.of(binary.toString(), "exec", "--json", "--skip-git-repo-check",
                    "--dangerously-bypass-hook-trust", prompt));
            List<String> command = launch.wrap(host);
            return Command.run(command, project.root(), env, LIMIT);
        }
    }

    static String config(String baseUrl, Path projectRoot) {
        return """
                model = "%s"
                model_provider = "scripted"
                approval_policy = "never"
                sandbox_mode = "danger-full-access"

                [model_providers.scripted]
                name = "scripted"
                base_url = "%s"
                wire_api = "responses"
                env_key = "%s"
                request_max_retries = 0
                stream_max_retries = 0

                [analytics]
                enabled = false

                [projects."%s"]
                trust_level = "trusted"
                """.formatted(MODEL, baseUrl, KEY_VAR, projectRoot);
    }
}
