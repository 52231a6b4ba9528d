package dev.agentwarden.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real Copilot CLI headless against a scripted model, as hosts.md's recipe says:
 * {@code copilot -p PROMPT --allow-all-tools [--trust-folder] --no-auto-update --output-format json}
 * in the project root, inside the {@link LoopbackSandbox}, with {@code COPILOT_OFFLINE=true}, the
 * provider on 127.0.0.1 ({@code COPILOT_PROVIDER_BASE_URL}, Chat Completions), a dummy key, a fresh
 * {@code HOME} (so {@code ~/.copilot} is the project's own) and the shared
 * {@code COPILOT_CACHE_HOME}. Hooks come from the project's {@code .github/hooks/warden.json}
 * (written by {@code warden install --host copilot}), which Copilot loads in {@code -p} mode only
 * with {@code --trust-folder}.
 */
final class CopilotSession {
    static final Duration LIMIT = HostSuite.SESSION_LIMIT;
    static final String MODEL = "gpt-4.1";

    private final Path binary;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    CopilotSession(Path binary, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** One {@code copilot -p} session; {@code trustFolder} adds {@code --trust-folder}. */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, boolean trustFolder,
                       Map<String, String> extraEnv) throws IOException {
        return run(project, server, prompt, trustFolder, extraEnv, List.of());
    }

    /** {@link #run(E2eProject, ScriptedModelServer, String, boolean, Map)} started through {@code inside} (a command prefix). */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, boolean trustFolder,
                       Map<String, String> extraEnv, List<String> inside) throws IOException {
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("SHELL", "/bin/sh");
            env.put("COPILOT_OFFLINE", "true");
            env.put("COPILOT_AUTO_UPDATE", "false");
            env.put("COPILOT_PROVIDER_BASE_URL", launch.baseUri() + "/v1");
            env.put("COPILOT_PROVIDER_API_KEY", "test");
            env.put("COPILOT_MODEL", MODEL);
            env.put("COPILOT_CACHE_HOME", HostInstall.copilotCache().toString());
            env.putAll(extraEnv);
            List<String> host = new ArrayList<>(inside);
            host.addAll(List.of(binary.toString(), "-p", prompt, "--allow-all-tools",
                    "--no-auto-update", "--output-format", "json"));
            if (trustFolder) {
                host.add("--trust-folder");
            }
            return Command.run(launch.wrap(host), project.root(), env, LIMIT);
        }
    }
}
