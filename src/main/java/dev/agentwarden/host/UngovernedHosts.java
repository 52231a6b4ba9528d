package dev.agentwarden.host;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Host CLIs that were tried on their real binaries (or looked for) and that Warden cannot govern
 * yet, each with the measured reason, so that {@code --host continue} says why instead of
 * "unknown host" and nobody believes such a host is protected ({@code docs/hosts.md, "Hosts that cannot be governed yet"}).
 */
final class UngovernedHosts {
    private UngovernedHosts() {
    }

    /** Host id to its name and the reason, in the order {@code docs/hosts.md, "Hosts that cannot be governed yet"} lists them. */
    private static final Map<String, String[]> REASONS = reasons();

    private static Map<String, String[]> reasons() {
        Map<String, String[]> m = new LinkedHashMap<>();
        m.put("continue", new String[] {"Continue CLI", "1.5.47 (npm @continuedev/cli) loads Claude-format hooks"
                + " (also from ~/.claude/settings.json) but its shipped build never calls them: no hook ran for any event"});
        m.put("crush", new String[] {"Crush", "npm @charmland/crush downloads its binary from GitHub at install time,"
                + " so it could not be installed or measured here"});
        m.put("amp", new String[] {"Amp", "it talks only to its own service and has no command hooks (TypeScript"
                + " plugins instead)"});
        m.put("kiro", new String[] {"Kiro CLI", "it is on no package registry (it ships through its own installer),"
                + " so it was never run here"});
        m.put("goose", new String[] {"Goose", "it is on no package registry (it ships through its own installer),"
                + " so it was never run here"});
        return m;
    }

    /** {@code Continue CLI (continue) cannot be governed by Warden yet: …}, or {@code null} for another id. */
    public static String why(String host) {
        String[] r = host == null ? null : REASONS.get(host);
        return r == null ? null : r[0] + " ('" + host + "') cannot be governed by Warden yet: " + r[1] + "."
                + " See docs/hosts.md (Hosts that cannot be governed yet).";
    }

    /** The ids, in listing order. */
    public static Iterable<String> ids() {
        return REASONS.keySet();
    }
}
