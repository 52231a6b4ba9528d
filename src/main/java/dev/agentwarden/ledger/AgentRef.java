package dev.agentwarden.ledger;

import java.nio.charset.StandardCharsets;

/**
 * The pseudonym under which the ledger knows a subagent: the first 12 hex characters of
 * SHA-256(agent_id). Raw agent ids are never written anywhere.
 */
public final class AgentRef {

    private AgentRef() {
    }

    public static String of(String agentId) {
        return LedgerLine.hash(agentId.getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    }

    public static boolean isRef(String s) {
        return TokenShape.isLowerHex(s, 12);
    }
}
