package dev.agentwarden.ledger;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The pseudonym under which the ledger knows a subagent: the first 12 hex characters of
 * SHA-256(agent_id). Raw agent ids are never written anywhere.
 */
public final class AgentRef {
    private static final Pattern REF = Pattern.compile("[0-9a-f]{12}");

    private AgentRef() {
    }

    public static String of(String agentId) {
        return LedgerLine.hash(agentId.getBytes(StandardCharsets.UTF_8)).substring(0, 12);
    }

    public static boolean isRef(String s) {
        return s != null && REF.matcher(s).matches();
    }
}
