package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real Auggie CLI headless against {@link AugmentBackendApi}, a mock of Augment's tenant
 * backend: {@code auggie --print PROMPT} in the project root (a git repository, as Auggie expects a
 * workspace to be), inside the {@link LoopbackSandbox}, with a fresh {@code HOME} and
 * {@code AUGMENT_SESSION_AUTH} naming the mock as the tenant (no login). Hooks come from the
 * project's {@code .augment/settings.json} (written by {@code warden install --host augment}).
 */
final class AuggieSession implements CommandHookSuite.Sessions {
    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    AuggieSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    @Override
    public Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** One {@code auggie --print} session with {@code extraEnv} on top of the usual environment; the process result. */
    @Override
    public Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
            throws IOException {
        if (!Files.isDirectory(project.root().resolve(".git"))) {
            Command.Result git = Command.run(List.of("git", "init", "-q"), project.root(), null, Duration.ofSeconds(30));
            if (!git.ok()) {
                throw new IOException("git init in " + project.root() + " failed: " + git.tail());
            }
        }
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Map<String, Object> auth = new LinkedHashMap<>();
            auth.put("accessToken", "test");
            auth.put("tenantURL", launch.baseUri() + "/");
            auth.put("scopes", List.of("email"));
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("NO_COLOR", "1");
            env.put("AUGMENT_SESSION_AUTH", Json.write(auth));
            env.put("AUGMENT_DISABLE_AUTO_UPDATE", "1");
            env.putAll(extraEnv);
            return Command.run(launch.wrap(List.of(binary.toString(), "--print", prompt)), project.root(), env,
                    HostSuite.SESSION_LIMIT);
        }
    }
}
