package dev.agentwarden.host;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * A host's own tool names among a chain's: a manifest's concerns name the tools of every host
 * (Bash, run_shell_command, shell, ...), while a host's hook matcher need name only the host's
 * own. A name Warden knows as another host's tool, and not this host's, is dropped; a name Warden
 * does not know (a tool of this host it has no kind for, an MCP tool) is kept, so narrowing never
 * hides an event the chain would judge.
 */
public final class OwnTools {
    private OwnTools() {
    }

    /** {@code names} without those only other hosts have, in the given order; all of them when none would be left. */
    public static List<String> of(Host host, Collection<String> names) {
        List<String> own = new ArrayList<>();
        for (String name : names) {
            if (has(host.tools(), name) || !anotherHostHas(host, name)) {
                own.add(name);
            }
        }
        return own.isEmpty() ? List.copyOf(names) : own;
    }

    private static boolean anotherHostHas(Host host, String name) {
        for (Host other : Hosts.ALL) {
            if (!other.id().equals(host.id()) && has(other.tools(), name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(ToolNames tools, String name) {
        return in(tools.shell(), name) || in(tools.subagentDispatch(), name) || in(tools.fileEdit(), name)
                || in(tools.fileRead(), name) || tools.mcpPrefix() != null && name.startsWith(tools.mcpPrefix());
    }

    private static boolean in(Set<String> names, String name) {
        return names != null && names.contains(name);
    }
}
