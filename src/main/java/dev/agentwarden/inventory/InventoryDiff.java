package dev.agentwarden.inventory;

import dev.agentwarden.canonical.Jcs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What changed between two snapshots, by qualified tool name ({@code host/server/tool}): tools added,
 * removed, and changed with the top-level fields whose canonical form differs; servers whose
 * status changed. Volatile fields ({@link ToolHashes#VOLATILE_FIELD}) are not compared.
 */
public record InventoryDiff(List<String> added, List<String> removed, Map<String, List<String>> changed,
                            Map<String, String> serverStatus) {

    public boolean empty() {
        return added.isEmpty() && removed.isEmpty() && changed.isEmpty() && serverStatus.isEmpty();
    }

    public static InventoryDiff between(InventorySnapshot before, InventorySnapshot after) {
        Map<String, Map<String, Object>> a = tools(before);
        Map<String, Map<String, Object>> b = tools(after);
        List<String> added = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        Map<String, List<String>> changed = new LinkedHashMap<>();
        TreeSet<String> names = new TreeSet<>(a.keySet());
        names.addAll(b.keySet());
        for (String n : names) {
            Map<String, Object> x = a.get(n);
            Map<String, Object> y = b.get(n);
            if (x == null) {
                added.add(n);
            } else if (y == null) {
                removed.add(n);
            } else {
                List<String> fields = changedFields(ToolHashes.hashedForm(x), ToolHashes.hashedForm(y));
                if (!fields.isEmpty()) {
                    changed.put(n, fields);
                }
            }
        }
        Map<String, String> status = new LinkedHashMap<>();
        TreeSet<String> keys = new TreeSet<>();
        for (ServerSnapshot s : before.servers()) {
            keys.add(s.key());
        }
        for (ServerSnapshot s : after.servers()) {
            keys.add(s.key());
        }
        for (String k : keys) {
            ServerSnapshot x = before.server(k);
            ServerSnapshot y = after.server(k);
            String from = x == null ? "ABSENT" : x.status().name();
            String to = y == null ? "ABSENT" : y.status().name();
            if (!from.equals(to)) {
                status.put(k, from + " -> " + to);
            }
        }
        return new InventoryDiff(added, removed, changed, status);
    }

    private static Map<String, Map<String, Object>> tools(InventorySnapshot s) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (ServerSnapshot server : s.servers()) {
            for (Map<String, Object> t : server.tools()) {
                out.put(server.key() + "/" + t.get("name"), t);
            }
        }
        return out;
    }

    private static List<String> changedFields(Map<String, Object> x, Map<String, Object> y) {
        TreeSet<String> fields = new TreeSet<>(x.keySet());
        fields.addAll(y.keySet());
        List<String> out = new ArrayList<>();
        for (String f : fields) {
            Object vx = x.get(f);
            Object vy = y.get(f);
            boolean same = x.containsKey(f) == y.containsKey(f) && Jcs.canonicalString(vx).equals(Jcs.canonicalString(vy));
            if (!same) {
                out.add(f);
            }
        }
        return out;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("added", new ArrayList<Object>(added));
        m.put("removed", new ArrayList<Object>(removed));
        Map<String, Object> c = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : changed.entrySet()) {
            c.put(e.getKey(), new ArrayList<Object>(e.getValue()));
        }
        m.put("changed", c);
        m.put("server_status", new LinkedHashMap<String, Object>(serverStatus));
        return m;
    }
}
