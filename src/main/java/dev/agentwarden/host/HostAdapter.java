package dev.agentwarden.host;

import dev.agentwarden.verdict.Verdict;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import java.util.Map;

/**
 * A pure translator between one host's hook protocol and Warden's event and verdict. What a host
 * cannot express is data ({@link #capability}), and every downgrade is explicit.
 */
public interface HostAdapter {

    /** The host id as named in manifests. */
    String id();

    /** The native event name carried in a payload, or {@code null}. */
    String nativeEventOf(Map<String, Object> payload);

    /**
     * The native event a payload delivered as {@code nativeEvent} stands for: {@code nativeEvent}
     * itself, except on a host whose one hook serves two events (Cline runs its TaskStart file for
     * the main agent's task and for each subagent's, which is {@code SubagentStart}).
     */
    default String refinedNativeEvent(String nativeEvent, Map<String, Object> payload) {
        return nativeEvent;
    }

    /** The normalized event for a payload. */
    HookEvent normalize(String nativeEvent, EventName event, Map<String, Object> payload, byte[] raw,
                        String workspaceRoot);

    /** What this host can do with a verdict on an event. */
    Capability capability(String nativeEvent);

    /** Renders a verdict in the host's protocol. */
    HostResponse render(String nativeEvent, Verdict verdict);

    /**
     * The host's channels for one event.
     *
     * @param canBlock   a block verdict can refuse the action
     * @param hasContext additional context reaches the model
     * @param canAsk     an ask verdict reaches the user as the host's own confirmation prompt
     * @param canRewrite the host runs a tool input Warden hands back in place of the one it sent
     *                   (where it cannot, dispatch refuses a rewrite instead of allowing the original)
     */
    record Capability(boolean canBlock, boolean hasContext, boolean canAsk, boolean canRewrite) {
        /** A host event that cannot rewrite. */
        public Capability(boolean canBlock, boolean hasContext, boolean canAsk) {
            this(canBlock, hasContext, canAsk, false);
        }
    }
}
