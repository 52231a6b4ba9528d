package dev.agentwarden.inventory;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Snapshots every configured server, one after another, each within its own deadlines. */
public final class InventoryTaker {
    private final McpSnapshotter snapshotter;
    private final Clock clock;

    public InventoryTaker(McpSnapshotter snapshotter, Clock clock) {
        this.snapshotter = snapshotter;
        this.clock = clock;
    }

    public InventorySnapshot take(List<McpServerConfig> servers, ClientProfile profile, boolean allowProject,
                                  String hostFilter, long turnIndex) {
        String takenAt = Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
        List<ServerSnapshot> out = new ArrayList<>();
        for (McpServerConfig s : servers) {
            out.add(snapshotter.snapshot(s, profile, allowProject));
        }
        return new InventorySnapshot(takenAt, turnIndex, hostFilter == null ? "all" : hostFilter, out);
    }
}
