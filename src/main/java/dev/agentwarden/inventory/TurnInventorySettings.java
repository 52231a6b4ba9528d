package dev.agentwarden.inventory;

import dev.agentwarden.ledger.DurationText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code inventory-turns} concern's settings, checked when the manifest is compiled.
 *
 * @param prereg        the preregistration file (relative to the workspace root), or {@code null}: snapshots unclassified
 * @param hosts         whose MCP configurations are read; empty: the event's host
 * @param capabilities  declared to each server, as {@link ClientProfile#parse} reads them
 * @param waitMs        the longest a turn waits for manifests, all servers together
 * @param ttlMs         how long a kept manifest is reused without a change (resident only)
 * @param allowProject  also start stdio servers declared by files inside the project (repository code)
 */
public record TurnInventorySettings(String prereg, List<String> hosts, String capabilities, long waitMs, long ttlMs,
                                    boolean allowProject) {
    /** Setting keys, in the order the README lists them. */
    static final List<String> KEYS = List.of("prereg", "hosts", "capabilities", "wait_ms", "ttl",
            "allow_project_servers");
    static final long DEFAULT_WAIT_MS = 3000;
    static final long MAX_WAIT_MS = 30_000;
    static final long DEFAULT_TTL_MS = 10 * 60_000L;
    static final String DEFAULT_CAPABILITIES = "roots,sampling,elicitation";

    /** @throws IllegalArgumentException with a message {@code <key>: <what is wrong>} */
    public static TurnInventorySettings from(Map<String, Object> settings) {
        Object prereg = settings.get("prereg");
        if (prereg != null && (!(prereg instanceof String p) || p.isBlank())) {
            throw new IllegalArgumentException("prereg: must be a path to a preregistration file, found " + prereg);
        }
        List<String> hosts = new ArrayList<>();
        Object h = settings.get("hosts");
        if (h != null) {
            if (!(h instanceof List<?> list)) {
                throw new IllegalArgumentException("hosts: must be a list of " + HostMcpConfigs.HOSTS + ", found " + h);
            }
            for (Object o : list) {
                if (!(o instanceof String s) || !HostMcpConfigs.HOSTS.contains(s)) {
                    throw new IllegalArgumentException("hosts: '" + o + "' is not one of " + HostMcpConfigs.HOSTS);
                }
                hosts.add(s);
            }
        }
        String capabilities = DEFAULT_CAPABILITIES;
        Object caps = settings.get("capabilities");
        if (caps != null) {
            if (!(caps instanceof List<?> list)) {
                throw new IllegalArgumentException("capabilities: must be a list (roots, sampling, elicitation, "
                        + "elicitation-url; [] for none), found " + caps);
            }
            StringBuilder joined = new StringBuilder();
            for (Object o : list) {
                joined.append(joined.length() == 0 ? "" : ",").append(o);
            }
            capabilities = joined.toString();
            try {
                ClientProfile.parse(capabilities);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("capabilities: " + e.getMessage());
            }
        }
        long waitMs = settings.containsKey("wait_ms") ? DurationText.parse(settings.get("wait_ms"), "wait_ms") : DEFAULT_WAIT_MS;
        if (waitMs < 1 || waitMs > MAX_WAIT_MS) {
            throw new IllegalArgumentException("wait_ms: must be between 1 ms and " + MAX_WAIT_MS + " ms, found " + waitMs);
        }
        long ttlMs = settings.containsKey("ttl") ? DurationText.parse(settings.get("ttl"), "ttl") : DEFAULT_TTL_MS;
        Object allow = settings.getOrDefault("allow_project_servers", Boolean.FALSE);
        if (!(allow instanceof Boolean allowProject)) {
            throw new IllegalArgumentException("allow_project_servers: must be true or false, found " + allow);
        }
        return new TurnInventorySettings((String) prereg, List.copyOf(hosts), capabilities, waitMs, ttlMs, allowProject);
    }
}
