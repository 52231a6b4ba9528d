package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the real OpenCode CLI, or a fork that loads the same plugins (Kilo Code; the
 * {@link PluginHostFlavor} says which), headless against a scripted model: {@code opencode run
 * --format json PROMPT} in the project root, inside the {@link LoopbackSandbox}, with a fresh
 * {@code HOME}. The project's {@code opencode.json} (which Kilo reads too) names a custom provider
 * ({@code @ai-sdk/anthropic}, which both bundle) whose {@code baseURL} is the scripted model on
 * 127.0.0.1, and allows bash and edits without asking. Warden's bridge comes from
 * {@code warden install --host <id>} ({@code .opencode/plugin/warden-bridge.js}, {@code .kilo/plugin/…}).
 *
 * <p>Both hosts install their plugin SDK ({@code @opencode-ai/plugin}, {@code @kilocode/plugin})
 * into every config directory they read plugins from ({@code ~/.config/<host>}, the project's
 * {@code .opencode} or {@code .kilo}) unless that directory already has {@code node_modules} and a
 * lock file naming it; offline, that install waits about 80 s before it fails. Both directories are
 * seeded from the e2e cache's SDK prefix (fetched once by {@code .ci/run}): its {@code package.json}
 * and lock are copied, its {@code node_modules} linked. The {@code <PREFIX>DISABLE_*} variables keep
 * the host from fetching model lists, updates, default plugins and LSP servers.
 */
final class OpenCodeSession {
    static final String MODEL = "mock-model";

    private final PluginHostFlavor flavor;
    private final Path binary;
    private final Path pluginSdk;
    private final LoopbackSandbox sandbox;
    private final Map<String, String> baseEnv;

    /**
     * @param pluginSdk an npm prefix holding the flavor's plugin SDK ({@code package.json},
     *                  {@code package-lock.json}, {@code node_modules})
     */
    OpenCodeSession(PluginHostFlavor flavor, Path binary, Path pluginSdk, LoopbackSandbox sandbox, Path wardenCacheDir) {
        this.flavor = flavor;
        this.binary = binary;
        this.pluginSdk = pluginSdk;
        this.sandbox = sandbox;
        this.baseEnv = ClaudeCodeSession.baseEnv(wardenCacheDir);
    }

    Map<String, String> baseEnv() {
        return baseEnv;
    }

    /** Why the plugin SDK prefix cannot seed a config directory, or {@code null} when it can. */
    static String sdkProblem(PluginHostFlavor flavor, Path pluginSdk) {
        for (String name : new String[] {"package.json", "package-lock.json", "node_modules/" + flavor.sdkPackage()}) {
            if (!Files.exists(pluginSdk.resolve(name))) {
                return pluginSdk.resolve(name) + " is missing (npm install --prefix " + pluginSdk
                        + " " + flavor.sdkPackage() + ", the version .ci/run installs)";
            }
        }
        return null;
    }

    /** Seeds the project's config directory and the user's; call before install. */
    void seed(E2eProject project) throws IOException {
        for (Path dir : List.of(project.root().resolve(flavor.projectDir()), project.home().resolve(flavor.userConfigDir()))) {
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
            Files.writeString(project.root().resolve("opencode.json"), config(launch.baseUri() + "/v1",
                    flavor.extraConfig()), StandardCharsets.UTF_8);
            Map<String, String> env = new LinkedHashMap<>(baseEnv);
            env.put("HOME", project.home().toString());
            env.put("TMPDIR", project.scratch().toString());
            env.put("SHELL", "/bin/sh");
            for (String flag : new String[] {"DISABLE_MODELS_FETCH", "DISABLE_AUTOUPDATE", "DISABLE_DEFAULT_PLUGINS",
                    "DISABLE_LSP_DOWNLOAD", "DISABLE_SHARE"}) {
                env.put(flavor.envPrefix() + flag, "1");
            }
            env.putAll(flavor.extraEnv());
            env.putAll(extraEnv);
            List<String> host = new ArrayList<>(List.of(binary.toString(), "run", "--format", "json", prompt));
            return Command.run(launch.wrap(host), project.root(), env, flavor.limit());
        }
    }

    static String config(String baseUrl, Map<String, Object> extra) {
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
        config.putAll(extra);
        return Json.writePretty(config);
    }
}
