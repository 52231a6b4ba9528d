package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A throw-away project for one host session: the project root (with {@code .warden/} and
 * {@code .claude/}), a fresh {@code HOME}, and a scratch directory, all under one temp folder.
 *
 * <p>The project can carry a capture concern: an external command concern that saves every
 * envelope Warden hands it (one file per event, in {@code .warden/e2e-capture/}) and has no
 * opinion. It shows which events reached Warden's chain and with which payload.
 */
final class E2eProject {
    /** The capture concern's script path, relative to the project root, as a manifest names it. */
    static final String CAPTURE_SCRIPT = ".warden/concerns/capture.sh";

    private static final String CAPTURE_BODY = String.join("\n",
            "#!/usr/bin/env bash",
            "# e2e capture concern: keeps the envelope Warden hands it, one file per event; no opinion.",
            "dir=.warden/e2e-capture",
            "mkdir -p \"$dir\"",
            "# Written under a temporary name, then renamed: a hook the host cuts off (kilo run exits without",
            "# waiting for its idle handler) leaves a .part file, never a torn .json one.",
            "f=\"$dir/$(date +%s%N)-$$\"",
            "cat > \"$f.part\" && mv \"$f.part\" \"$f.json\"",
            "exit 0",
            "");

    private final Path dir;
    private final Path root;
    private final Path home;
    private final Path scratch;

    private E2eProject(Path dir) {
        this.dir = dir;
        this.root = dir.resolve("project");
        this.home = dir.resolve("home");
        this.scratch = dir.resolve("tmp");
    }

    /**
     * A fresh project for a scenario, or, when the suite's host is {@code unavailable}, a skip
     * recorded in the scenario's rows.
     */
    static E2eProject forScenario(Path dir, String unavailable, E2eSummary.Row... rows) throws IOException {
        if (unavailable != null) {
            for (E2eSummary.Row row : rows) {
                row.skip(unavailable);
            }
            org.junit.jupiter.api.Assumptions.abort(unavailable);
        }
        return create(dir.toRealPath());
    }

    /** The host payload inside a captured envelope. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> payloadOf(Map<String, Object> envelope) {
        return envelope.get("payload") instanceof Map<?, ?> p ? (Map<String, Object>) p : Map.of();
    }

    /** A captured event as one line: native event, tool or agent type, and agent_id ("-" when absent). */
    static String traceOf(Map<String, Object> envelope) {
        Map<String, Object> p = payloadOf(envelope);
        Object what = p.containsKey("tool_name") ? p.get("tool_name") : p.get("agent_type");
        Object agentId = p.get("agent_id");
        return envelope.get("native_event") + " " + what + " agent_id=" + (agentId == null ? "-" : agentId);
    }

    static E2eProject create(Path dir) throws IOException {
        E2eProject p = new E2eProject(dir);
        Files.createDirectories(p.root.resolve(".warden/concerns"));
        Files.createDirectories(p.root.resolve(".claude"));
        Files.createDirectories(p.home);
        Files.createDirectories(p.scratch);
        p.concern("capture.sh", CAPTURE_BODY);
        return p;
    }

    /** The temp folder holding everything of this project (also where the model socket lives). */
    Path dir() {
        return dir;
    }

    Path root() {
        return root;
    }

    Path home() {
        return home;
    }

    Path scratch() {
        return scratch;
    }

    void manifest(String yaml) throws IOException {
        Files.writeString(root.resolve(".warden/manifest.yaml"), yaml, StandardCharsets.UTF_8);
    }

    /**
     * Manifest text for one host: the given concerns, that host's chains, and an alias for each of
     * its native events ({@code PreToolUse} → {@code pre_tool_use}).
     */
    static String manifestText(String host, String concerns, String chains, String... nativeEvents) {
        StringBuilder aliases = new StringBuilder();
        for (String nativeEvent : nativeEvents) {
            aliases.append("    ").append(nativeEvent).append(": ")
                    .append(nativeEvent.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT)).append('\n');
        }
        return "schema_version: 1\nconcerns:\n" + concerns.indent(2) + "platforms:\n  " + host + ":\n" + chains.indent(4)
                + "native_event_aliases:\n  " + host + ":\n" + aliases;
    }

    /**
     * The host's own permission rules: {@code Bash(<command>)} allow rules in
     * {@code .claude/settings.local.json} (Warden's install owns {@code settings.json}).
     */
    void allowBash(String... commands) throws IOException {
        List<String> allow = new ArrayList<>();
        for (String c : commands) {
            allow.add("Bash(" + c + ")");
        }
        claudeLocalSettings(allow, false);
    }

    /**
     * {@code .claude/settings.local.json}: the host's own allow rules as Claude Code spells them
     * ({@code Bash(touch x)}, {@code mcp__everything__echo}), and, with {@code projectMcpServers}, the
     * project's {@code .mcp.json} servers approved ({@code enableAllProjectMcpServers}).
     */
    void claudeLocalSettings(List<String> allow, boolean projectMcpServers) throws IOException {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("permissions", Map.of("allow", List.copyOf(allow)));
        if (projectMcpServers) {
            settings.put("enableAllProjectMcpServers", Boolean.TRUE);
        }
        Files.writeString(root.resolve(".claude/settings.local.json"), Json.writePretty(settings), StandardCharsets.UTF_8);
    }

    /** Writes an executable concern script into {@code .warden/concerns/}. */
    Path concern(String name, String body) throws IOException {
        Path script = root.resolve(".warden/concerns").resolve(name);
        Files.writeString(script, body, StandardCharsets.UTF_8);
        if (!script.toFile().setExecutable(true)) {
            throw new IOException("cannot make " + script + " executable");
        }
        return script;
    }

    /** Runs {@code <launcher> install --host claude --no-train} in the project, with this project's HOME. */
    Command.Result installWarden(Path launcher, Map<String, String> env) throws IOException {
        return installWarden(launcher, env, "claude");
    }

    /** Runs {@code <launcher> install --host HOST --no-train} in the project, with this project's HOME. */
    Command.Result installWarden(Path launcher, Map<String, String> env, String host) throws IOException {
        Map<String, String> installEnv = new LinkedHashMap<>(env);
        installEnv.put("HOME", home.toString());
        return Command.run(List.of(launcher.toString(), "install", "--host", host, "--no-train"), root, installEnv,
                Duration.ofSeconds(60));
    }

    /** {@code <launcher> install --host claude --no-train} followed by {@code extraArgs} ({@code --transport http}). */
    Command.Result installWarden(Path launcher, Map<String, String> env, List<String> extraArgs) throws IOException {
        Map<String, String> installEnv = new LinkedHashMap<>(env);
        installEnv.put("HOME", home.toString());
        List<String> command = new java.util.ArrayList<>(List.of(launcher.toString(), "install", "--host", "claude",
                "--no-train"));
        command.addAll(extraArgs);
        return Command.run(command, root, installEnv, Duration.ofSeconds(60));
    }

    /** The hook entries Warden's install wrote, as Claude Code will read them. */
    Map<String, Object> claudeSettings() throws IOException {
        return Json.parseObject(Files.readString(root.resolve(".claude/settings.json"), StandardCharsets.UTF_8));
    }

    /** Every envelope the capture concern saw and saved whole, oldest first. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> captured() throws IOException {
        Path captureDir = root.resolve(".warden/e2e-capture");
        if (!Files.isDirectory(captureDir)) {
            return List.of();
        }
        List<Map<String, Object>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(captureDir)) {
            for (Path f : files.sorted().toList()) {
                if (!f.getFileName().toString().endsWith(".json")) {
                    continue;
                }
                out.add((Map<String, Object>) Json.parse(Files.readString(f, StandardCharsets.UTF_8), JsonLimits.LENIENT));
            }
        }
        return out;
    }

    boolean exists(String relative) {
        return Files.exists(root.resolve(relative));
    }
}
