package dev.agentwarden.testing;

import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.Hosts;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Records a ledger event from a Claude-shaped payload map, normalized as dispatch normalizes it. */
public final class TestLedger {
    private TestLedger() {
    }

    public static List<Map<String, Object>> record(SubagentLedger.Kind kind, Map<String, Object> payload, String sessionId,
                                                   LedgerSettings settings, LedgerStore store) throws IOException {
        return SubagentLedger.record(kind, event(kind, payload, sessionId), settings, store);
    }

    /** The normalized event for a payload; {@code sessionId} (when not null) stands in for the payload's. */
    public static HookEvent event(SubagentLedger.Kind kind, Map<String, Object> payload, String sessionId) {
        EventName name = kind == SubagentLedger.Kind.START ? EventName.SUBAGENT_START : EventName.SUBAGENT_STOP;
        HookEvent e = Hosts.demo().adapter().normalize(kind == SubagentLedger.Kind.START ? "SubagentStart" : "SubagentStop",
                name, payload, "{}".getBytes(StandardCharsets.UTF_8), "/nonexistent");
        if (sessionId == null || sessionId.isEmpty()) {
            return e;
        }
        return new HookEvent(e.host(), e.event(), e.nativeEvent(), sessionId, e.sessionSource(), e.agentId(),
                e.agentIdMalformed(), e.agentType(), e.parentAgentId(), e.unopenedParentIsMain(), e.toolName(), e.toolKind(), e.toolInput(),
                e.shellCommand(), e.filePaths(), e.prompt(), e.lastAssistantMessage(), e.stopHookActive(), e.cwd(),
                e.transcriptPath(), e.workspaceRoot(), e.payload(), e.rawPayload());
    }
}
