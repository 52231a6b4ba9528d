package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real OpenCode CLI headless against a scripted model: {@code opencode run --format json
 * PROMPT} in the project root, inside the {@link LoopbackSandbox}, with a fresh {@code HOME}. The
 * project's {@code opencode.json} names a custom provider ({@code @ai-sdk/anthropic}, which OpenCode
 * bundles) whose {@code baseURL} is the scripted model on 127.0.0.1, and allows bash and edits
 * without asking. Warden's bridge comes from {@code warden install --host opencode}
 * ({@code .opencode/plugin/warden-bridge.js}).
 *
 * <p>OpenCode installs {@code @opencode-ai/plugin} into every config directory it reads
 * ({@code ~/.config/opencode}, the project's {@code .opencode}) unless that directory already has
 * {@code node_modules} and a lock file naming it; offline, that install waits about 80 s before it
 * fails. Both directories are seeded from the e2e cache's {@code opencode-plugin} prefix (fetched
 * once by {@code .ci/run}): its {@code package.json} and lock are copied, its {@code node_modules}
 * linked. The {@code OPENCODE_DISABLE_*} variables keep it from fetching model lists, updates,
 * default plugins and LSP servers.
 */
final class OpenCodeSession {
    static final Duration LIMIT = Duration.ofSeconds(180);
    static final String MODEL = "mock-model";

    private final Path binary;
    private final Path pluginSdk;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    /**
     * @param pluginSdk an npm prefix holding {@code @opencode-ai/plugin} ({@code package.json},
     *                  {@code package-lock.json}, {@code node_modules})
     */
    OpenCodeSession(Path binary, Path pluginSdk, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.binary = binary;
        this.pluginSdk = pluginSdk;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** Why the plugin SDK prefix cannot seed a config directory, or {@code null} when it can. */
    static String sdkProblem(Path pluginSdk) {
        for (String name : new String[] {"package.json", "package-lock.json", "node_modules/@opencode-ai/plugin"}) {
            if (!Files.exists(pluginSdk.resolve(name))) {
                return pluginSdk.resolve(name) + " is missing (npm install --prefix " + pluginSdk
                        + " @opencode-ai/plugin@<opencode version>)";
            }
        }
        return null;
    }

    /** Seeds the project's {@code .opencode} and the user's config directory; call before install. */
    void seed(E2eProject project) throws IOException {
        for (Path dir : List.of(project.root().resolve(".opencode"), project.home().resolve(".config/opencode"))) {
            Files.createDirectories(dir);
            Files.copy(pluginSdk.resolve("package.json"), dir.resolve("package.json"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(pluginSdk.resolve("package-lock.json"), dir.resolve("package-lock.json"),
                    StandardCopyOption.REPLACE_EXISTING);
            if (!Files.exists(dir.resolve("node_modules"))) {
                Files.createSymbolicLink(dir.resolve("node_modules"), pluginSdk.resolve("node_modules"));
            }
        }
    }

    /** One {@code opencode run} with {@code extraEnv} on top of the usual environment. */
    Command.Result run(E2eProject project, ScriptedModelServer server, String prompt, Map<String, String> extraEnv)
            throws IOException {
        try (LoopbackSandbox.Launch launch = sandbox.launch(server, project.dir())) {
            Files.writeString(project.root().resolve("opencode.json"), config(launch.baseUri() + "/v1"),
                    StandardCharsets.UTF_8);
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("SHELL", "/bin/sh");
            env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
            env.put("OPENCODE_DISABLE_AUTOUPDATE", "1");
            env.put("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1");
            env.put("OPENCODE_DISABLE_LSP_DOWNLOAD", "1");
            env.put("OPENCODE_DISABLE_SHARE", "1");
            env.putAll(extraEnv);
            List<String> host = new ArrayList<>(List.of(binary.toString(), "run", "--format", "json", prompt));
            return Command.run(launch.wrap(host), project.root(), env, LIMIT);
        }
    }

    static String config(String baseUrl) {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("baseURL", baseUrl);
        options.put("apiKey", "test");
        Map<String, Object> provider = new LinkedHashMap<>();
        provider.put("npm", "@ai-sdk/anthropic");
        provider.put("name", "scripted");
        provider.put("options", options);
        provider.put("models", Map.of(MODEL, Map.of("name", MODEL)));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("$schema", "https://opencode.ai/config.json");
        config.put("provider", Map.of("mock", provider));
        config.put("model", "mock/" + MODEL);
        config.put("permission", Map.of("bash", "allow", "edit", "allow"));
        return Json.writePretty(config);
    }
}
