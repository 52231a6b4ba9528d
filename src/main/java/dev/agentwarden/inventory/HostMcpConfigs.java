package dev.agentwarden.inventory;

import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.host.McpConfigLocation;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.io.UnsafeFileException;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.toml.MiniToml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP servers each host is configured with, read from the host's own files: those its record names
 * ({@link Host.InventoryFiles#mcpConfigs}), host by host in {@link #HOSTS} order, each host's files in its
 * own order. A file that cannot be read is a problem, reported with its path; it never stops the others.
 */
public final class HostMcpConfigs {
    /** The ids of the hosts whose MCP configurations are read, in the order they are read and listed. */
    public static final List<String> HOSTS = ids(readers());
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
        for (Host h : readers()) {
            if (host == null || host.equals(h.id())) {
                for (McpConfigLocation location : h.inventoryFiles().mcpConfigs()) {
                    c.readLocation(h.id(), location);
                }
            }
        }
        return c;
    }

    /** The files {@link #read} looks at for {@code host} ({@code null}: all), present or not, each once. */
    static List<Path> files(Path project, Path home, Map<String, String> env, String host) {
        List<Path> out = new ArrayList<>();
        for (Host h : readers()) {
            if (host != null && !host.equals(h.id())) {
                continue;
            }
            List<Path> own = new ArrayList<>();
            for (McpConfigLocation location : h.inventoryFiles().mcpConfigs()) {
                Path file = location.path(project, home, env);
                if (!own.contains(file)) {
                    own.add(file);
                }
            }
            out.addAll(own);
        }
        return out;
    }

    /** The hosts of {@link Hosts#ALL} that name MCP configuration files, by {@link Host.InventoryFiles#mcpListPosition}. */
    static List<Host> readers() {
        List<Host> out = new ArrayList<>();
        for (Host h : Hosts.ALL) {
            if (h.inventoryFiles() != null && !h.inventoryFiles().mcpConfigs().isEmpty()) {
                out.add(h);
            }
        }
        out.sort(Comparator.comparingInt(h -> h.inventoryFiles().mcpListPosition()));
        return out;
    }

    private static List<String> ids(List<Host> hosts) {
        List<String> out = new ArrayList<>();
        for (Host h : hosts) {
            out.add(h.id());
        }
        return List.copyOf(out);
    }

    public List<McpServerConfig> servers() {
        return servers;
    }

    public List<String> problems() {
        return problems;
    }

    private void readLocation(String host, McpConfigLocation location) {
        Path file = location.path(project, home, env);
        if (location.format() == McpConfigLocation.Format.TOML) {
            tomlServers(host, file, location);
        } else {
            jsonServers(host, file, location);
        }
    }

    /**
     * The file's text, or {@code null} when it is absent or unusable (a problem says why): a regular
     * file only, or a link to one (under the project, for a project file), and at most
     * {@link #MAX_FILE_BYTES} read, whatever size it reports.
     */
    private String readText(Path file, McpConfigLocation location) {
        try {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            byte[] bytes = location.projectScoped() ? StateFiles.readInside(project, file, MAX_FILE_BYTES)
                    : StateFiles.readAll(file, MAX_FILE_BYTES, true);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (UnsafeFileException e) {
            problems.add(file + ": not read: " + e.getMessage());
            return null;
        } catch (NoSuchFileException e) {
            problems.add(file + ": not read: a symbolic link to nothing");
            return null;
        } catch (IOException | RuntimeException e) {
            problems.add(file + ": cannot read: " + e.getMessage());
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private void jsonServers(String host, Path file, McpConfigLocation location) {
        String text = readText(file, location);
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
        String field = location.serversKey();
        if (location.perProject()) {
            String projectKey = project.toString();
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
                add(host, String.valueOf(e.getKey()), source, location, (Map<String, Object>) spec);
            } else {
                problems.add(source + ": server " + e.getKey() + " is not an object");
            }
        }
    }

    private void tomlServers(String host, Path file, McpConfigLocation location) {
        String text = readText(file, location);
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
        if (root.get(location.serversKey()) instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> spec) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> s = (Map<String, Object>) spec;
                    add(host, String.valueOf(e.getKey()), file.toString(), location, s);
                }
            }
        }
    }

    /** One server entry; the field names of every host are accepted, and its location says which mean what. */
    private void add(String host, String name, String source, McpConfigLocation location, Map<String, Object> spec) {
        String type = spec.get("type") instanceof String t ? t : null;
        String url = firstString(spec, "httpUrl", "url", "serverUrl");
        String transport;
        if (spec.get("command") instanceof String) {
            transport = McpServerConfig.STDIO;
        } else if (url != null) {
            boolean sse = "sse".equals(type) || (location.urlAloneIsSse() && spec.get("httpUrl") == null);
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
        servers.add(new McpServerConfig(host, name, source, location.projectScoped(), transport,
                spec.get("command") instanceof String c ? c : null, args, strings(spec, "env"),
                spec.get("cwd") instanceof String d ? d : null, url,
                strings(spec, location.headersKey())));
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
