package dev.agentwarden.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Crafted inventories for unit tests. */
final class Inventories {
    private Inventories() {
    }

    static Map<String, Object> tool(String name, String description) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("name", name);
        t.put("description", description);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        t.put("inputSchema", schema);
        return t;
    }

    static ServerSnapshot server(String name, List<Map<String, Object>> tools) {
        return new ServerSnapshot("claude/" + name, "claude", name, "/p/.mcp.json", true, "stdio", "node",
                ServerStatus.OK, null, Map.of(), "2025-06-18", null, new ArrayList<>(tools), 0, true, 1);
    }

    static ServerSnapshot failed(String name, ServerStatus status) {
        return new ServerSnapshot("claude/" + name, "claude", name, "/p/.mcp.json", true, "stdio", "node",
                status, "scripted failure", Map.of(), null, null, List.of(), 0, false, 1);
    }

    static InventorySnapshot snapshot(long turn, ServerSnapshot... servers) {
        return new InventorySnapshot("2026-12-01T10:00:00Z", turn, "claude", List.of(servers));
    }
}
