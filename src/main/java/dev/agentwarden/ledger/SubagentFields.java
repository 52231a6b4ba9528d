package dev.agentwarden.ledger;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What the ledger takes from a host payload, already reduced to what it may write: refs instead of
 * agent ids, and a session id or agent type only when it looks like one.
 *
 * <p>Fields read: {@code agent_id|agentId}; {@code agent_type|agentType|subagent_type|subagentType};
 * {@code parent_agent_id|parentAgentId}; the session id the host adapter found (else
 * {@code session_id|sessionId}). A session id that is not 1–128 characters of
 * {@code [A-Za-z0-9._:-]} is written as {@code sha256:<12 hex>} of itself; an agent type that is not
 * 1–64 characters of {@code [A-Za-z0-9._:@/+ -]} is dropped.
 *
 * @param ref                 ref of the subagent, or {@code null} when the payload has no usable agent id
 * @param unidentifiedReason  why {@code ref} is null ({@code no_agent_id}, {@code agent_id_not_string}), else null
 * @param agentType           sanitised agent type, or {@code null}
 * @param parentRef           ref of the named parent, or {@code null}
 * @param session             session label, or {@code null}
 */
public record SubagentFields(String ref, String unidentifiedReason, String agentType, String parentRef,
                             String session) {

    public static SubagentFields of(Map<String, Object> payload, String sessionId) {
        Object id = first(payload, "agent_id", "agentId");
        String ref = null;
        String reason = null;
        if (id instanceof String s && !s.isEmpty()) {
            ref = AgentRef.of(s);
        } else {
            reason = id == null || "".equals(id) ? "no_agent_id" : "agent_id_not_string";
        }
        Object parent = first(payload, "parent_agent_id", "parentAgentId");
        String parentRef = parent instanceof String p && !p.isEmpty() ? AgentRef.of(p) : null;
        return new SubagentFields(ref, reason,
                agentType(first(payload, "agent_type", "agentType", "subagent_type", "subagentType")),
                parentRef, sessionLabel(sessionId != null && !sessionId.isEmpty() ? sessionId
                        : first(payload, "session_id", "sessionId")));
    }

    /** The ref of the caller a tool-use payload names ({@code agent_id|agentId}), or {@code null}. */
    public static String callerRef(Map<String, Object> payload) {
        Object id = first(payload, "agent_id", "agentId");
        return id instanceof String s && !s.isEmpty() ? AgentRef.of(s) : null;
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

    private static Object first(Map<String, Object> payload, String... keys) {
        for (String k : keys) {
            Object v = payload.get(k);
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}
