package dev.agentwarden.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One server's manifest as taken, with no secret from its configuration: the command without its
 * arguments, the URL without user info or query, never env values or headers.
 *
 * @param status       {@link ServerStatus#OK} when {@code tools} is the complete manifest
 * @param reason       why not OK, for a person ({@code null} when OK)
 * @param declared     the client capabilities declared in {@code initialize}
 * @param tools        raw Tool objects in the order listed (kept for a duplicate-name failure too)
 * @param listChanged  {@code notifications/tools/list_changed} received while taking it
 * @param settled      no list_changed arrived in the final quiet period (false: the bound ran out)
 */
public record ServerSnapshot(String key, String host, String name, String source, boolean projectScoped,
                             String transport, String endpoint, ServerStatus status, String reason,
                             Map<String, Object> declared, String protocolVersion, Map<String, Object> serverInfo,
                             List<Map<String, Object>> tools, int listChanged, boolean settled, long elapsedMs) {

    public boolean ok() {
        return status == ServerStatus.OK;
    }

    /** The server hash, or {@code null} when the manifest is missing. */
    public String sha256() {
        return ok() ? ToolHashes.server(tools) : null;
    }

    /** Tool name to tool hash. */
    public Map<String, String> toolHashes() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map<String, Object> t : tools) {
            out.put(String.valueOf(t.get("name")), ToolHashes.tool(t));
        }
        return out;
    }

    /** The tool of this name, or {@code null}. */
    public Map<String, Object> tool(String toolName) {
        for (Map<String, Object> t : tools) {
            if (toolName.equals(t.get("name"))) {
                return t;
            }
        }
        return null;
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", key);
        m.put("host", host);
        m.put("name", name);
        m.put("source", source);
        m.put("project_scoped", projectScoped);
        m.put("transport", transport);
        m.put("endpoint", endpoint);
        m.put("status", status.name());
        if (reason != null) {
            m.put("reason", reason);
        }
        m.put("declared_capabilities", declared);
        m.put("protocol_version", protocolVersion);
        m.put("server_info", serverInfo);
        m.put("list_changed", (long) listChanged);
        m.put("settled", settled);
        m.put("elapsed_ms", elapsedMs);
        m.put("sha256", sha256());
        List<Object> out = new ArrayList<>();
        for (Map<String, Object> t : tools) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", t.get("name"));
            entry.put("sha256", ToolHashes.tool(t));
            entry.put("tool", t);
            out.add(entry);
        }
        m.put("tools", out);
        return m;
    }

    @SuppressWarnings("unchecked")
    static ServerSnapshot fromJson(Map<String, Object> m) {
        List<Map<String, Object>> tools = new ArrayList<>();
        for (Object o : (List<Object>) m.getOrDefault("tools", List.of())) {
            tools.add((Map<String, Object>) ((Map<String, Object>) o).get("tool"));
        }
        Object declared = m.get("declared_capabilities");
        Object info = m.get("server_info");
        return new ServerSnapshot((String) m.get("key"), (String) m.get("host"), (String) m.get("name"),
                (String) m.get("source"), Boolean.TRUE.equals(m.get("project_scoped")), (String) m.get("transport"),
                (String) m.get("endpoint"), ServerStatus.valueOf((String) m.get("status")), (String) m.get("reason"),
                declared instanceof Map ? (Map<String, Object>) declared : Map.of(), (String) m.get("protocol_version"),
                info instanceof Map ? (Map<String, Object>) info : null, tools,
                ((Number) m.getOrDefault("list_changed", 0L)).intValue(), Boolean.TRUE.equals(m.get("settled")),
                ((Number) m.getOrDefault("elapsed_ms", 0L)).longValue());
    }
}
