package dev.agentwarden.inventory;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the snapshotting client declares in {@code initialize}. A server lists tools by the
 * capabilities it sees, so a snapshot declares what the host declares and records it.
 *
 * @param capabilities the {@code capabilities} object sent
 */
public record ClientProfile(String clientName, String clientVersion, Map<String, Object> capabilities) {

    /** A client that declares nothing. */
    static ClientProfile none() {
        return new ClientProfile("agent-warden-inventory", "1", new LinkedHashMap<>());
    }

    /** Roots (with list_changed), sampling and elicitation: what the coding-agent hosts declare at most. */
    static ClientProfile full() {
        return parse("roots,sampling,elicitation");
    }

    /**
     * From a comma list of {@code roots}, {@code sampling}, {@code elicitation} (form mode: {@code {}}),
     * {@code elicitation-url} (form and URL modes); {@code none} or empty for none.
     */
    public static ClientProfile parse(String list) {
        Map<String, Object> caps = new LinkedHashMap<>();
        for (String part : list.split(",")) {
            String name = part.strip();
            if (name.isEmpty() || name.equals("none")) {
                continue;
            }
            switch (name) {
                case "roots" -> {
                    Map<String, Object> roots = new LinkedHashMap<>();
                    roots.put("listChanged", Boolean.TRUE);
                    caps.put("roots", roots);
                }
                case "sampling", "elicitation" -> caps.put(name, new LinkedHashMap<String, Object>());
                case "elicitation-url" -> {
                    Map<String, Object> modes = new LinkedHashMap<>();
                    modes.put("form", new LinkedHashMap<String, Object>());
                    modes.put("url", new LinkedHashMap<String, Object>());
                    caps.put("elicitation", modes);
                }
                default -> throw new IllegalArgumentException("unknown client capability '" + name
                        + "' (use roots, sampling, elicitation, elicitation-url or none)");
            }
        }
        return new ClientProfile("agent-warden-inventory", "1", caps);
    }
}
