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
 * Runs the real Qwen Code CLI headless against a scripted model speaking the Anthropic Messages
 * API: {@code qwen -p PROMPT --output-format json --approval-mode yolo} in the project root, inside
 * the {@link LoopbackSandbox}, with a fresh {@code HOME} whose {@code ~/.qwen/settings.json} selects
 * the {@code anthropic} auth type, and {@code ANTHROPIC_BASE_URL} on 127.0.0.1. Hooks come from the
 * project's {@code .qwen/settings.json} (written by {@code warden install --host qwen}).
 *
 * <p>The environment is exact, as for Claude Code ({@link ClaudeCodeSession#baseEnv}), plus the
 * provider's dummy key and model and the switches that turn off telemetry and update checks.
 */
final class QwenSession implements CommandHookSuite.Sessions {
    static final Duration LIMIT = HostSuite.SESSION_LIMIT;
    static final String MODEL = "mock-model";

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    QwenSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    @Override
    public Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** One {@code qwen -p} session with {@code extraEnv} on top ({@code PATH} without Warden); the process result. */
    @Override
    public Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
            throws IOException {
        Path qwenHome = Files.createDirectories(project.home().resolve(".qwen"));
        Map<String, Object> auth = new LinkedHashMap<>();
        auth.put("selectedType", "anthropic");
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("security", Map.of("auth", auth));
        settings.put("privacy", Map.of("usageStatisticsEnabled", Boolean.FALSE));
        settings.put("general", Map.of("disableAutoUpdate", Boolean.TRUE, "disableUpdateNag", Boolean.TRUE));
        Files.writeString(qwenHome.resolve("settings.json"), Json.writePretty(settings), StandardCharsets.UTF_8);
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("ANTHROPIC_BASE_URL", launch.baseUri().toString());
            env.put("ANTHROPIC_API_KEY", "test");
            env.put("ANTHROPIC_MODEL", MODEL);
            env.put("QWEN_TELEMETRY_ENABLED", "false");
            env.put("NO_COLOR", "1");
            // One node process instead of a launcher that starts a second one: ~10 s less per session.
            env.put("QWEN_CODE_NO_RELAUNCH", "true");
            env.put("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1");
            env.putAll(extraEnv);
            List<String> host = new ArrayList<>(List.of(binary.toString(), "-p", prompt, "--output-format", "json",
                    "--approval-mode", "yolo"));
            return Command.run(launch.wrap(host), project.root(), env, LIMIT);
        }
    }
}
