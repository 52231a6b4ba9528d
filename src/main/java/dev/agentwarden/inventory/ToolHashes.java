package dev.agentwarden.inventory;

import dev.agentwarden.canonical.Jcs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The hashes of a tool inventory, all SHA-256 over RFC 8785 bytes ({@link Jcs}):
 * <ul>
 * <li>tool: the raw Tool object without {@code _meta} (volatile: progress tokens, cache hints);
 * <li>server: the array of its tools so hashed, sorted by name;
 * <li>inventory: the object mapping every server key ({@code host/name}) to its server hash, or to
 *     {@code null} when its manifest is missing.
 * </ul>
 */
public final class ToolHashes {
    /** Field left out of every hash. */
    static final String VOLATILE_FIELD = "_meta";

    private ToolHashes() {
    }

    /** The tool as hashed: the raw object minus volatile fields. */
    static Map<String, Object> hashedForm(Map<String, Object> tool) {
        Map<String, Object> copy = new LinkedHashMap<>(tool);
        copy.remove(VOLATILE_FIELD);
        return copy;
    }

    static String tool(Map<String, Object> tool) {
        return Jcs.sha256Hex(hashedForm(tool));
    }

    public static String server(List<Map<String, Object>> tools) {
        List<Map<String, Object>> sorted = new ArrayList<>();
        for (Map<String, Object> t : tools) {
            sorted.add(hashedForm(t));
        }
        sorted.sort(Comparator.comparing(t -> String.valueOf(t.get("name"))));
        return Jcs.sha256Hex(sorted);
    }

    /** @param serverHashes key to server hash, {@code null} for a missing manifest */
    public static String inventory(Map<String, String> serverHashes) {
        return Jcs.sha256Hex(new TreeMap<>(serverHashes));
    }
}
