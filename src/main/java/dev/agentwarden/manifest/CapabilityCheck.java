package dev.agentwarden.manifest;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.event.EventName;
import dev.agentwarden.host.HostAdapter;
import dev.agentwarden.host.HostAdapters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A binding read against the host's capability table ({@link HostAdapter#capability}): a concern
 * that may refuse, bound to an event none of whose native events the host lets Warden refuse,
 * will not refuse there, and lint says what happens instead.
 */
final class CapabilityCheck {
    /** Built-ins that never refuse: they note, record or halt, which every event carries. */
    private static final Set<String> NEVER_REFUSE = Set.of("context-note", "subagent-ledger", "integrity-attach");

    private CapabilityCheck() {
    }

    /**
     * Why {@code concern} cannot refuse {@code event} on {@code host}, and what its block becomes;
     * {@code null} when it can, when it never refuses, or when Warden has no adapter for the host.
     *
     * @param aliases the host's native event → canonical event
     */
    static String problem(String host, EventName event, ConcernSpec concern, Map<String, EventName> aliases) {
        if (concern.posture() != Posture.BLOCKING || concern.isBuiltin() && NEVER_REFUSE.contains(concern.builtinName())) {
            return null;
        }
        HostAdapter adapter = HostAdapters.forId(host);
        if (adapter == null) {
            return null;
        }
        List<String> natives = new ArrayList<>();
        boolean context = false;
        for (Map.Entry<String, EventName> e : aliases.entrySet()) {
            if (e.getValue() == event) {
                HostAdapter.Capability c = adapter.capability(e.getKey());
                if (c.canBlock()) {
                    return null;
                }
                natives.add(e.getKey());
                context |= c.hasContext();
            }
        }
        if (natives.isEmpty()) {
            return null;
        }
        return "concern '" + concern.name() + "' is blocking, but " + host + " cannot refuse " + String.join(", ", natives)
                + ": a block there is sent " + (context ? "to the model as additional context" : "as a message the model does not read")
                + " and noted on stderr; make it `posture: advisory` to say so, or bind it to an event that can be refused";
    }
}
