package dev.agentwarden.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real Gemini CLI headless against a scripted model, as hosts.md measured it:
 * {@code gemini -p PROMPT -m gemini-2.5-flash --yolo --output-format json} in the project root,
 * inside the {@link LoopbackSandbox}, with {@code GEMINI_API_KEY=test},
 * {@code GOOGLE_GEMINI_BASE_URL} on 127.0.0.1, {@code GEMINI_CLI_TRUST_WORKSPACE=true} (headless
 * Gemini exits 55 in an untrusted folder, and skips project hooks there) and
 * {@code GEMINI_CLI_NO_RELAUNCH=true}. Hooks come from the project's {@code .gemini/settings.json}
 * (written by {@code warden install --host gemini}); the user's {@code ~/.gemini/settings.json}
 * selects the API-key auth (else: "Invalid auth method selected", exit 41) and turns usage
 * statistics and update checks off.
 */
final class GeminiSession {
    static final Duration LIMIT = HostSuite.SESSION_LIMIT;

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    GeminiSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt) throws IOException {
        return run(project, server, prompt, Map.of());
    }

    /** {@link #run(E2eProject, ScriptedModelServer, String)} with {@code extraEnv} on top ({@code PATH} without Warden). */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
            throws IOException {
        return run(project, server, prompt, extraEnv, List.of());
    }

    /** {@link #run(E2eProject, ScriptedModelServer, String, Map)} started through {@code inside} (a command prefix). */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv,
                       List<String> inside) throws IOException {
        Path geminiHome = Files.createDirectories(project.home().resolve(".gemini"));
        Files.writeString(geminiHome.resolve("settings.json"), """
                {"security": {"auth": {"selectedType": "gemini-api-key"}},
                 "privacy": {"usageStatisticsEnabled": false},
                 "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}}
                """, StandardCharsets.UTF_8);
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("SHELL", "/bin/bash");
            env.put("GEMINI_API_KEY", "test");
            env.put("GOOGLE_GEMINI_BASE_URL", launch.baseUri().toString());
            env.put("GEMINI_CLI_TRUST_WORKSPACE", "true");
            env.put("GEMINI_CLI_NO_RELAUNCH", "true");
            env.putAll(extraEnv);
            List<String> host = new java.util.ArrayList<>(inside);
            host.addAll(List.of(binary.toString(), "-p", prompt, "-m",
                    GeminiGenerateContentApi.MODEL, "--yolo", "--output-format", "json"));
            List<String> command = launch.wrap(host);
            return Command.run(command, project.root(), env, LIMIT);
        }
    }
}
