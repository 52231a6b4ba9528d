package dev.agentwarden.ledger;

import dev.agentwarden.event.HookEvent;
import dev.agentwarden.json.Json;
import java.nio.charset.StandardCharsets;

/**
 * What the ledger takes from an event, already reduced to what it may write: refs instead of
 * agent ids, and a session id or agent type only when it looks like one.
 *
 * <p>Fields read from the normalized event: agent id, agent type, parent agent id, session id (the
 * host adapter reads whichever spelling its host sends). A session id that is not 1–128 characters of
 * {@code [A-Za-z0-9._:-]} is written as {@code sha256:<12 hex>} of itself; an agent type that is not
 * 1–64 characters of {@code [A-Za-z0-9._:@/+ -]} is dropped.
 *
 * @param ref                 ref of the subagent, or {@code null} when the payload has no usable agent id
 * @param unidentifiedReason  why {@code ref} is null ({@code no_agent_id}, {@code agent_id_not_string}), else null
 * @param agentType           sanitised agent type, or {@code null}
 * @param parentRef           ref of the named parent, or {@code null}
 * @param session             session label, or {@code null}
 * @param basis               how the start and stop are known: {@code null} for the host's own subagent
 *                            events, {@link #TOOL_BRACKET} for the subagent tool's call and result
 * @param unopenedParentIsMain a named parent without an open record is the session's main agent
 *                            ({@link HookEvent#unopenedParentIsMain})
 */
public record SubagentFields(String ref, String unidentifiedReason, String agentType, String parentRef,
                             String session, String basis, boolean unopenedParentIsMain) {

    /**
     * The basis of a subagent known only as a tool call (a host without subagent events, Gemini CLI):
     * it starts at the subagent tool's pre-tool event and stops at its post-tool event. Its ref is
     * derived from the session, the tool and its exact input, since the host names no agent id; the
     * child's own tool calls carry no marker, so nothing inside it is attributed to it, its parent is
     * unknown (depth {@code assumed-root}) and two identical calls open at once share one ref.
     */
    public static final String TOOL_BRACKET = "tool_bracket";

    /** The fields of a subagent event, as the host adapter normalized them. */
    public static SubagentFields of(HookEvent event) {
        String ref = event.agentId() == null ? null : AgentRef.of(event.agentId());
        String reason = ref != null ? null : event.agentIdMalformed() ? "agent_id_not_string" : "no_agent_id";
        String parent = event.parentAgentId();
        return new SubagentFields(ref, reason, agentType(event.agentType()),
                parent != null && !parent.isEmpty() ? AgentRef.of(parent) : null, sessionLabel(event.sessionId()), null,
                event.unopenedParentIsMain());
    }

    /** The fields of a subagent tool's call or result, bracketing the subagent ({@link #TOOL_BRACKET}). */
    public static SubagentFields bracketed(HookEvent event) {
        String id = TOOL_BRACKET + "\0" + event.sessionId() + "\0" + event.toolName() + "\0"
                + Json.write(event.toolInput());
        return new SubagentFields(AgentRef.of(id), null, agentType(event.agentType()), null,
                sessionLabel(event.sessionId()), TOOL_BRACKET, false);
    }

    /** The ref of the agent a tool call comes from, or {@code null} at top level. */
    public static String callerRef(HookEvent event) {
        return event.agentId() == null ? null : AgentRef.of(event.agentId());
    }

    /** A session id as the ledger writes it, or {@code null}. */
    public static String sessionLabel(Object sessionId) {
        if (!(sessionId instanceof String s) || s.isEmpty()) {
            return null;
        }
        if (TokenShape.isWord(s, 1, 128, "._:-")) {
            return s;
        }
        return "sha256:" + LedgerLine.hash(s.getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    }

    /** An agent type as the ledger writes it, or {@code null}. */
    public static String agentType(Object value) {
        return value instanceof String s && TokenShape.isWord(s, 1, 64, "._:@/+ -") ? s : null;
    }
}
