package dev.agentwarden.inventory;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.toml.MiniToml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP servers each host is configured with, read from the host's own files:
 * <ul>
 * <li>claude: {@code <project>/.mcp.json}, {@code ~/.claude.json} ({@code mcpServers} and
 *     {@code projects[<project>].mcpServers});
 * <li>codex: {@code <project>/.codex/config.toml}, {@code $CODEX_HOME/config.toml} ({@code [mcp_servers.*]});
 * <li>gemini: {@code <project>/.gemini/settings.json}, {@code ~/.gemini/settings.json} ({@code mcpServers});
 * <li>copilot: {@code $COPILOT_HOME/mcp-config.json} (default {@code ~/.copilot}), {@code <project>/.vscode/mcp.json} ({@code servers});
 * <li>cursor: {@code <project>/.cursor/mcp.json}, {@code ~/.cursor/mcp.json}.
 * </ul>
 * A file that cannot be read is a problem, reported with its path; it never stops the others.
 */
public final class HostMcpConfigs {
    public static final List<String> HOSTS = List.of("claude", "codex", "gemini", "copilot", "cursor");
    /** Largest configuration file read. */
    static final long MAX_FILE_BYTES = 4L * 1024 * 1024;

    private final Path project;
    private final Path home;
    private final Map<String, String> env;
    private final List<McpServerConfig> servers = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    private HostMcpConfigs(Path project, Path home, Map<String, String> env) {
        this.project = project;
        this.home = home;
        this.env = env;
    }

    /** @param host one of {@link #HOSTS}, or {@code null} for all */
    public static HostMcpConfigs read(Path project, Path home, Map<String, String> env, String host) {
        HostMcpConfigs c = new HostMcpConfigs(project, home, env);
        for (String h : HOSTS) {
            if (host == null || host.equals(h)) {
                c.readHost(h);
            }
        }
        return c;
    }

    /** The files {@link #read} looks at for {@code host} ({@code null}: all), present or not. */
    public static List<Path> files(Path project, Path home, Map<String, String> env, String host) {
        List<Path> out = new ArrayList<>();
        for (String h : HOSTS) {
            if (host != null && !host.equals(h)) {
                continue;
            }
            switch (h) {
                case "claude" -> {
                    out.add(project.resolve(".mcp.json"));
                    out.add(home.resolve(".claude.json"));
                }
                case "codex" -> {
                    out.add(project.resolve(".codex").resolve("config.toml"));
                    out.add(codexHome(home, env).resolve("config.toml"));
                }
                case "gemini" -> {
                    out.add(project.resolve(".gemini").resolve("settings.json"));
                    out.add(home.resolve(".gemini").resolve("settings.json"));
                }
                case "copilot" -> {
                    out.add(copilotHome(home, env).resolve("mcp-config.json"));
                    out.add(project.resolve(".vscode").resolve("mcp.json"));
                }
                default -> {
                    out.add(project.resolve(".cursor").resolve("mcp.json"));
                    out.add(home.resolve(".cursor").resolve("mcp.json"));
                }
            }
        }
        return out;
    }

    private static Path codexHome(Path home, Map<String, String> env) {
        String codexHome = env.get("CODEX_HOME");
        return codexHome == null ? home.resolve(".codex") : Path.of(codexHome);
    }

    private static Path copilotHome(Path home, Map<String, String> env) {
        String copilotHome = env.get("COPILOT_HOME");
        return copilotHome == null ? home.resolve(".copilot") : Path.of(copilotHome);
    }

    public List<McpServerConfig> servers() {
        return servers;
    }

    public List<String> problems() {
        return problems;
    }

    private void readHost(String host) {
        switch (host) {
            case "claude" -> {
                jsonServers(host, project.resolve(".mcp.json"), true, "mcpServers", null);
                jsonServers(host, home.resolve(".claude.json"), false, "mcpServers", null);
                jsonServers(host, home.resolve(".claude.json"), false, "mcpServers", project.toString());
            }
            case "codex" -> {
                tomlServers(host, project.resolve(".codex").resolve("config.toml"), true);
                tomlServers(host, codexHome(home, env).resolve("config.toml"), false);
            }
            case "gemini" -> {
                jsonServers(host, project.resolve(".gemini").resolve("settings.json"), true, "mcpServers", null);
                jsonServers(host, home.resolve(".gemini").resolve("settings.json"), false, "mcpServers", null);
            }
            case "copilot" -> {
                jsonServers(host, copilotHome(home, env).resolve("mcp-config.json"), false, "mcpServers", null);
                jsonServers(host, project.resolve(".vscode").resolve("mcp.json"), true, "servers", null);
            }
            case "cursor" -> {
                jsonServers(host, project.resolve(".cursor").resolve("mcp.json"), true, "mcpServers", null);
                jsonServers(host, home.resolve(".cursor").resolve("mcp.json"), false, "mcpServers", null);
            }
            default -> problems.add("unknown host " + host);
        }
    }

    private String readText(Path file) {
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                problems.add(file + ": larger than " + MAX_FILE_BYTES + " bytes; not read");
                return null;
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            problems.add(file + ": cannot read: " + e.getMessage());
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private void jsonServers(String host, Path file, boolean projectScoped, String field, String projectKey) {
        String text = readText(file);
        if (text == null) {
            return;
        }
        Map<String, Object> root;
        try {
            root = Json.parseObject(text);
        } catch (JsonException e) {
            problems.add(file + ": not JSON: " + e.getMessage());
            return;
        }
        String source = file.toString();
        if (projectKey != null) {
            if (!(root.get("projects") instanceof Map<?, ?> projects)
                    || !(projects.get(projectKey) instanceof Map<?, ?> entry)) {
                return;
            }
            root = (Map<String, Object>) entry;
            source = file + "#projects[" + projectKey + "]";
        }
        Object block = root.get(field);
        if (block == null) {
            return;
        }
        if (!(block instanceof Map<?, ?> map)) {
            problems.add(source + ": " + field + " is not an object");
            return;
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> spec) {
                add(host, String.valueOf(e.getKey()), source, projectScoped, (Map<String, Object>) spec);
            } else {
                problems.add(source + ": server " + e.getKey() + " is not an object");
            }
        }
    }

    private void tomlServers(String host, Path file, boolean projectScoped) {
        String text = readText(file);
        if (text == null) {
            return;
        }
        Map<String, Object> root;
        try {
            root = MiniToml.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(file + ": " + e.getMessage());
            return;
        }
        if (root.get("mcp_servers") instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> spec) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> s = (Map<String, Object>) spec;
                    add(host, String.valueOf(e.getKey()), file.toString(), projectScoped, s);
                }
            }
        }
    }

    /** One server entry; the field names of all five hosts are accepted. */
    private void add(String host, String name, String source, boolean projectScoped, Map<String, Object> spec) {
        String type = spec.get("type") instanceof String t ? t : null;
        String url = firstString(spec, "httpUrl", "url", "serverUrl");
        String transport;
        if (spec.get("command") instanceof String) {
            transport = McpServerConfig.STDIO;
        } else if (url != null) {
            boolean sse = "sse".equals(type) || (host.equals("gemini") && spec.get("httpUrl") == null);
            transport = sse ? "sse" : McpServerConfig.HTTP;
        } else {
            problems.add(source + ": server " + name + " has neither command nor url");
            return;
        }
        List<String> args = new ArrayList<>();
        if (spec.get("args") instanceof List<?> list) {
            for (Object a : list) {
                args.add(String.valueOf(a));
            }
        }
        servers.add(new McpServerConfig(host, name, source, projectScoped, transport,
                spec.get("command") instanceof String c ? c : null, args, strings(spec, "env"),
                spec.get("cwd") instanceof String d ? d : null, url,
                strings(spec, host.equals("codex") ? "http_headers" : "headers")));
    }

    private static String firstString(Map<String, Object> spec, String... keys) {
        for (String k : keys) {
            if (spec.get(k) instanceof String s && !s.isEmpty()) {
                return s;
            }
        }
        return null;
    }

    private static Map<String, String> strings(Map<String, Object> spec, String key) {
        Map<String, String> out = new LinkedHashMap<>();
        if (spec.get(key) instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getValue() instanceof String || e.getValue() instanceof Number || e.getValue() instanceof Boolean) {
                    out.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
                }
            }
        }
        return out;
    }
}
