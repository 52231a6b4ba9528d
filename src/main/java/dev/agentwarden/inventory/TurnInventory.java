package dev.agentwarden.inventory;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.Host;
import dev.agentwarden.host.Hosts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Built-in {@code inventory-turns}: on SessionStart, and on each UserPromptSubmit (immediately
 * before the turn runs), snapshots the MCP tool inventory of the host's configured servers through
 * the {@link InventoryCache}, stores it ({@link SnapshotStore}) with its turn index, classifies it
 * against the preregistration when one is set ({@link DriftVerdict}), and appends the turn's record
 * ({@link TurnRecords}). Settings: {@link TurnInventorySettings}.
 *
 * <p>Capture only: it never blocks on its own. A missing manifest, an unreadable configuration or
 * an unwritable record is an error outcome, so the dispatcher notes it on stderr (and refuses the
 * prompt only under {@code fail_closed: true}). It waits for manifests at most {@code wait_ms},
 * and at most three quarters of its {@code timeout_ms}, the rest left to store the record.
 * With {@code WARDEN_REPLAY=1} it writes nothing.
 */
public final class TurnInventory implements Concern {
    public static final String NAME = "inventory-turns";
    private final TurnInventorySettings settings;

    public TurnInventory(TurnInventorySettings settings) {
        this.settings = settings;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) throws IOException {
        HookEvent event = context.event();
        EventName name = event.event();
        if ((name != EventName.SESSION_START && name != EventName.USER_PROMPT_SUBMIT) || Replay.active(context.env())) {
            return ConcernResult.allow();
        }
        Path root = Path.of(event.workspaceRoot());
        List<String> hosts = settings.hosts().isEmpty() ? defaultHosts(event.host()) : settings.hosts();
        if (hosts.isEmpty()) {
            return ConcernResult.error("no MCP configuration reader for host '" + event.host() + "'; set hosts: "
                    + HostMcpConfigs.HOSTS);
        }
        String homeText = context.env().get("HOME");
        Path home = Path.of(homeText == null || homeText.isEmpty() ? System.getProperty("user.home") : homeText);
        List<String> problems = new ArrayList<>();
        InventoryCache cache = InventoryCache.shared();
        List<McpServerConfig> servers = new ArrayList<>();
        for (String h : hosts) {
            servers.addAll(cache.servers(root, home, context.env(), h, problems));
        }
        ClientProfile profile = ClientProfile.parse(settings.capabilities());
        long waitMs = Math.max(1, Math.min(settings.waitMs(), context.spec().timeoutMs() * 3L / 4));
        long started = System.nanoTime();
        List<InventoryCache.Served> served = cache.serve(servers, profile, settings.allowProject(),
                new McpSnapshotter(McpSnapshotter.Limits.defaults(), root), waitMs, settings.ttlMs(), context.clock());

        TurnRecords records = new TurnRecords(root, context.stateHome());
        List<Map<String, Object>> before = records.read(event.sessionId());
        boolean turn = name == EventName.USER_PROMPT_SUBMIT;
        long turnIndex = TurnRecords.turns(before);
        String condition = turn ? TurnRecords.condition(before) : TurnRecords.conditionOf(event.sessionSource());

        List<ServerSnapshot> snapshots = new ArrayList<>();
        List<Object> states = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (InventoryCache.Served s : served) {
            snapshots.add(s.snapshot());
            Map<String, Object> state = new LinkedHashMap<>();
            state.put("key", s.snapshot().key());
            state.put("state", s.state().name().toLowerCase(java.util.Locale.ROOT));
            state.put("status", s.snapshot().status().name());
            state.put("age_ms", s.ageMs());
            if (s.note() != null) {
                state.put("note", s.note());
            }
            states.add(state);
            if (!s.snapshot().ok()) {
                missing.add(s.snapshot().key() + " " + s.snapshot().status()
                        + (s.snapshot().reason() == null ? "" : ": " + s.snapshot().reason()));
            }
        }
        String takenAt = Instant.now(context.clock()).truncatedTo(ChronoUnit.MILLIS).toString();
        InventorySnapshot snapshot = new InventorySnapshot(takenAt, turnIndex, String.join(",", hosts), snapshots);
        Path stored = new SnapshotStore(context.stateHome()).write(snapshot);

        Map<String, Object> record = new LinkedHashMap<>();
        record.put("schema", TurnRecords.SCHEMA);
        record.put("session_id", event.sessionId());
        record.put("phase", turn ? TurnRecords.TURN : TurnRecords.SESSION_START);
        record.put("turn_index", turnIndex);
        record.put("condition", condition);
        record.put("source", turn ? null : event.sessionSource());
        record.put("host", event.host());
        record.put("transcript_path", event.transcriptPath());
        record.put("taken_at", takenAt);
        record.put("inventory_sha256", snapshot.sha256());
        record.put("complete", snapshot.complete());
        record.put("snapshot", stored.getFileName().toString());
        record.put("cache", cache.keeps() ? "resident" : "none (a JVM per event)");
        record.put("wait_ms", waitMs);
        record.put("elapsed_ms", (System.nanoTime() - started) / 1_000_000);
        record.put("servers", states);
        if (!problems.isEmpty()) {
            record.put("config_problems", new ArrayList<Object>(problems));
        }
        if (settings.prereg() != null) {
            try {
                DriftVerdict verdict = DriftVerdict.classify(Preregistration.read(root.resolve(settings.prereg())), snapshot);
                record.put("inventory_drift", verdict.status().name());
                record.put("variant", verdict.variant());
                record.put("reasons", new ArrayList<Object>(verdict.reasons()));
            } catch (IOException | IllegalArgumentException e) {
                record.put("inventory_drift", DriftStatus.INVALIDATING.name());
                record.put("variant", null);
                record.put("reasons", new ArrayList<Object>(List.of("preregistration unreadable: " + e.getMessage())));
                problems.add("preregistration " + settings.prereg() + " unreadable: " + e.getMessage());
            }
        }
        records.append(event.sessionId(), record);

        if (!missing.isEmpty() || !problems.isEmpty()) {
            List<String> all = new ArrayList<>(problems);
            for (String m : missing) {
                all.add("missing manifest: " + m);
            }
            return ConcernResult.error((turn ? "turn " + turnIndex : "session start") + " inventory recorded incomplete: "
                    + String.join("; ", all));
        }
        return ConcernResult.allow();
    }

    /**
     * The host whose MCP configuration a session of {@code host} runs with: its own, or that of the host
     * whose CLI it runs ({@link Host.InventoryFiles#runsTheCliOf}); none when Warden reads no such file.
     */
    static List<String> defaultHosts(String host) {
        Host h = Hosts.byId(host);
        if (h != null && h.inventoryFiles() != null && h.inventoryFiles().runsTheCliOf() != null) {
            h = h.inventoryFiles().runsTheCliOf();
        }
        return h != null && HostMcpConfigs.HOSTS.contains(h.id()) ? List.of(h.id()) : List.of();
    }
}
