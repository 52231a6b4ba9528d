package dev.agentwarden.rule;

import dev.agentwarden.event.HookEvent;
import dev.agentwarden.event.McpToolName;
import dev.agentwarden.inventory.InventorySnapshot;
import dev.agentwarden.inventory.Preregistration;
import dev.agentwarden.inventory.ServerSnapshot;
import dev.agentwarden.inventory.SnapshotStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The inventory drift facts of one MCP tool call, read from Warden's own stored snapshots
 * ({@code warden inventory snapshot}, {@code builtin:inventory-turns}) against the preregistered
 * baseline: whether the tool's server is in the baseline, and whether the tool's hash in the newest
 * stored snapshot differs from its hash in the baseline (changed, added or removed). Read only for a
 * rule that names a drift field. A missing preregistration or baseline snapshot is an evaluation
 * failure (the rule's fail mode decides, loudly), never a quiet "no drift".
 */
final class McpDrift {
    private McpDrift() {
    }

    /** The drift facts of {@code mcp} (one reading of the event's MCP tool; {@code null}: none) into {@code view}. */
    static void fill(Map<String, Object> view, HookEvent event, McpToolName mcp, String prereg, Path stateHome)
            throws CompiledRule.Failed {
        if (mcp == null) {
            return;
        }
        InventorySnapshot baseline;
        InventorySnapshot newest;
        try {
            Preregistration p = Preregistration.read(Path.of(event.workspaceRoot()).resolve(prereg));
            SnapshotStore store = new SnapshotStore(stateHome);
            baseline = store.findByHash(p.baseline());
            if (baseline == null) {
                throw new CompiledRule.Failed("no stored inventory snapshot has the preregistered baseline " + p.baseline()
                        + " (warden inventory snapshot)");
            }
            List<Path> files = store.list();
            newest = SnapshotStore.read(files.get(files.size() - 1));
        } catch (IOException | RuntimeException e) {
            throw new CompiledRule.Failed("mcp.drift: cannot read the inventory (" + prereg + "): " + e.getMessage());
        }
        ServerSnapshot before = server(baseline, event.host(), mcp.server());
        ServerSnapshot after = server(newest, event.host(), mcp.server());
        view.put(RuleField.MCP_DRIFT_KNOWN_SERVER.wire(), before != null);
        String beforeHash = before == null ? null : before.toolHashes().get(mcp.tool());
        String afterHash = after == null ? null : after.toolHashes().get(mcp.tool());
        view.put(RuleField.MCP_DRIFT_CHANGED.wire(), !Objects.equals(beforeHash, afterHash));
    }

    /** The server {@code name} as {@code host} declares it, else as any host does, or {@code null}. */
    private static ServerSnapshot server(InventorySnapshot snapshot, String host, String name) {
        ServerSnapshot any = null;
        for (ServerSnapshot s : snapshot.servers()) {
            if (name.equals(s.name())) {
                if (Objects.equals(host, s.host())) {
                    return s;
                }
                any = any == null ? s : any;
            }
        }
        return any;
    }
}
