package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real Factory Droid CLI headless against a scripted model speaking the Anthropic Messages
 * API: {@code droid exec -m custom:Mock-0 --auto high -o json PROMPT} in the project root, inside
 * the {@link LoopbackSandbox}, with a fresh {@code HOME} whose {@code ~/.factory/settings.json}
 * names a bring-your-own-key model ({@code provider: "anthropic"}, {@code baseUrl} on 127.0.0.1),
 * so that no Factory login is needed. Hooks come from the project's {@code .factory/hooks.json}
 * (written by {@code warden install --host droid}). Droid's telemetry, cloud sync and
 * organisation-settings look-ups fail on DNS inside the sandbox and are ignored.
 */
final class DroidSession implements CommandHookSuite.Sessions {
    /** {@code custom:<displayName>-<index>}: the first custom model. */
    static final String MODEL = "custom:Mock-0";

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    DroidSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    @Override
    public Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** One {@code droid exec} session with {@code extraEnv} on top of the usual environment; the process result. */
    @Override
    public Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
            throws IOException {
        Path factoryHome = Files.createDirectories(project.home().resolve(".factory"));
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Map<String, Object> model = new LinkedHashMap<>();
            model.put("model", "mock-model");
            model.put("displayName", "Mock");
            model.put("baseUrl", launch.baseUri().toString());
            model.put("apiKey", "test");
            model.put("provider", "anthropic");
            model.put("maxOutputTokens", 4096L);
            Files.writeString(factoryHome.resolve("settings.json"), Json.writePretty(Map.of("customModels", List.of(model))),
                    StandardCharsets.UTF_8);
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("NO_COLOR", "1");
            env.putAll(extraEnv);
            List<String> host = List.of(binary.toString(), "exec", "-m", MODEL, "--auto", "high", "-o", "json", prompt);
            return Command.run(launch.wrap(host), project.root(), env, HostSuite.SESSION_LIMIT);
        }
    }
}
