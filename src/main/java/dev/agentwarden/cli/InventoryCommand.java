package dev.agentwarden.cli;

import dev.agentwarden.inventory.ClientProfile;
import dev.agentwarden.inventory.DriftVerdict;
import dev.agentwarden.inventory.HostMcpConfigs;
import dev.agentwarden.inventory.InventoryDiff;
import dev.agentwarden.inventory.InventorySnapshot;
import dev.agentwarden.inventory.InventoryTaker;
import dev.agentwarden.inventory.McpSnapshotter;
import dev.agentwarden.inventory.Preregistration;
import dev.agentwarden.inventory.ServerSnapshot;
import dev.agentwarden.inventory.SnapshotStore;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code warden inventory snapshot|diff|preflight}: the MCP tool inventory a session runs with. */
@Command(name = "inventory", description = "Snapshot, compare and preflight the MCP tool inventory of a host.",
        subcommands = {InventoryCommand.Snapshot.class, InventoryCommand.Diff.class, InventoryCommand.Preflight.class})
final class InventoryCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** How a snapshot is taken (shared by snapshot and preflight). */
    static final class TakeOptions {
        @Option(names = "--host", paramLabel = "H", description = "Only this host's MCP config: ${COMPLETION-CANDIDATES}.",
                completionCandidates = Hosts.class)
        String host;

        @Option(names = "--capabilities", paramLabel = "LIST", defaultValue = "roots,sampling,elicitation",
                description = "Client capabilities declared to each server (roots, sampling, elicitation, elicitation-url, or none). "
                        + "Default: ${DEFAULT-VALUE}.")
        String capabilities;

        @Option(names = "--allow-project-servers", description = "Also start stdio servers declared by files in the "
                + "project (.mcp.json, .cursor/mcp.json, ...); they run repository code.")
        boolean allowProject;

        @Option(names = "--turn", paramLabel = "N", defaultValue = "0", description = "Turn index recorded (0: before the first turn).")
        long turn;

        @Option(names = "--user-home", paramLabel = "DIR", hidden = true,
                description = "Where the user-level host configs are read (default: the user's home).")
        Path userHome;

        @Option(names = "--no-store", description = "Do not write the snapshot under .warden/state/inventory/.")
        boolean noStore;

        /** Config files the last {@link #take} could not read: their servers are missing from the snapshot. */
        int unreadConfigs;

        InventorySnapshot take(String root, PrintWriter err) {
            HostMcpConfigs configs = HostMcpConfigs.read(Path.of(root),
                    userHome != null ? userHome : dev.agentwarden.install.Installer.userHome(System.getenv()),
                    System.getenv(), host);
            for (String problem : configs.problems()) {
                err.println("warden inventory: " + problem);
            }
            unreadConfigs = configs.problems().size();
            McpSnapshotter snapshotter = new McpSnapshotter(McpSnapshotter.Limits.defaults(), Path.of(root));
            return new InventoryTaker(snapshotter, Clock.systemUTC())
                    .take(configs.servers(), ClientProfile.parse(capabilities), allowProject, host, turn);
        }

        /** Stores {@code snapshot} unless {@code --no-store}; where it went, or null (a failure is noted on {@code err}). */
        Path store(SnapshotStore store, InventorySnapshot snapshot, String command, PrintWriter err) {
            if (noStore) {
                return null;
            }
            try {
                return store.write(snapshot);
            } catch (IOException e) {
                err.println("warden inventory " + command + ": not stored: " + e.getMessage());
                return null;
            }
        }
    }

    static final class Hosts extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Hosts() {
            super(HostMcpConfigs.HOSTS);
        }
    }

    @Command(name = "snapshot", description = {"Take every configured MCP server's tool manifest and hash it (RFC 8785, SHA-256).",
            "Exit 0 when every manifest was taken, 1 when one is missing or a config file could not be read (each with its reason),"
            + " 2 on usage errors."})
    static final class Snapshot implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ProjectDirOption project = new ProjectDirOption();
        @Mixin
        JsonOption json = new JsonOption();
        @Mixin
        TakeOptions take = new TakeOptions();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (take.host != null && !HostMcpConfigs.HOSTS.contains(take.host)) {
                err.println("warden inventory snapshot: unknown host '" + take.host + "' (one of " + HostMcpConfigs.HOSTS + ")");
                return ExitCode.UNREADABLE.code();
            }
            InventorySnapshot snapshot;
            try {
                snapshot = take.take(project.root(), err);
            } catch (IllegalArgumentException e) {
                err.println("warden inventory snapshot: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            Path stored = take.store(new SnapshotStore(project.stateHome()), snapshot, "snapshot", err);
            if (json.json) {
                Map<String, Object> m = snapshot.toJson();
                m.put("stored", stored == null ? null : stored.toString());
                out.println(Json.write(m));
            } else {
                printText(out, snapshot, stored);
            }
            if (take.unreadConfigs > 0) {
                err.println("warden inventory snapshot: " + take.unreadConfigs + " config file(s) not read (above);"
                        + " their servers are not in this snapshot");
            }
            return snapshot.complete() && take.unreadConfigs == 0 ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }
    }

    static void printText(PrintWriter out, InventorySnapshot snapshot, Path stored) {
        out.println("inventory " + snapshot.sha256() + (snapshot.complete() ? "" : " (incomplete)")
                + " taken " + snapshot.takenAt() + " turn " + snapshot.turnIndex());
        if (snapshot.servers().isEmpty()) {
            out.println("  no MCP servers configured");
        }
        for (ServerSnapshot s : snapshot.servers()) {
            out.println("  " + s.key() + " [" + s.transport() + "] " + s.status()
                    + (s.ok() ? " " + s.tools().size() + " tools, list_changed " + s.listChanged()
                    + (s.settled() ? "" : " (not settled)") : ": " + s.reason()));
            out.println("    from " + s.source());
        }
        if (stored != null) {
            out.println("stored " + stored);
        }
    }

    @Command(name = "diff", description = {"Compare two stored snapshots: tools added, removed and changed (with the changed fields).",
            "Exit 0 when they are the same, 1 when they differ, 2 when one cannot be read."})
    static final class Diff implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        JsonOption json = new JsonOption();
        @Parameters(index = "0", paramLabel = "A", description = "The earlier snapshot.")
        Path a;
        @Parameters(index = "1", paramLabel = "B", description = "The later snapshot.")
        Path b;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            InventorySnapshot before;
            InventorySnapshot after;
            try {
                before = SnapshotStore.read(a);
                after = SnapshotStore.read(b);
            } catch (IOException | JsonException e) {
                spec.commandLine().getErr().println("warden inventory diff: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            InventoryDiff diff = InventoryDiff.between(before, after);
            if (json.json) {
                out.println(Json.write(diffJson(before, after, diff)));
            } else {
                printDiff(out, before, after, diff);
            }
            return diff.empty() ? ExitCode.OK.code() : ExitCode.FINDINGS.code();
        }
    }

    /** The diff as JSON: {@code before} and {@code after} hashes, then what was added, removed and changed. */
    static Map<String, Object> diffJson(InventorySnapshot before, InventorySnapshot after, InventoryDiff diff) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("before", before.sha256());
        m.put("after", after.sha256());
        m.putAll(diff.toJson());
        return m;
    }

    static void printDiff(PrintWriter out, InventorySnapshot before, InventorySnapshot after, InventoryDiff diff) {
        out.println("before " + before.sha256() + "\nafter  " + after.sha256());
        if (diff.empty()) {
            out.println("no change");
        }
        for (String t : diff.added()) {
            out.println("+ " + t);
        }
        for (String t : diff.removed()) {
            out.println("- " + t);
        }
        for (Map.Entry<String, List<String>> e : diff.changed().entrySet()) {
            out.println("~ " + e.getKey() + " (" + String.join(", ", e.getValue()) + ")");
        }
        for (Map.Entry<String, String> e : diff.serverStatus().entrySet()) {
            out.println("! " + e.getKey() + " " + e.getValue());
        }
    }

    @Command(name = "preflight", description = {"Classify the current inventory against a preregistration: inventory_drift "
            + "NONE, EXPECTED_VARIANT, INVALIDATING or EXPLORATORY, with the before/after diff against the baseline.",
            "Exit 0 for NONE and EXPECTED_VARIANT, 1 for EXPLORATORY, 3 for INVALIDATING, 2 on usage errors."})
    static final class Preflight implements Callable<Integer> {
        static final String SCHEMA = "warden.inventory.preflight/1";
        @Spec
        CommandSpec spec;
        @Mixin
        ProjectDirOption project = new ProjectDirOption();
        @Mixin
        JsonOption json = new JsonOption();
        @Mixin
        TakeOptions take = new TakeOptions();
        @Option(names = "--prereg", required = true, paramLabel = "FILE", description = "Preregistration YAML.")
        Path prereg;
        @Option(names = "--snapshot", paramLabel = "FILE", description = "Classify this stored snapshot instead of taking one.")
        Path snapshotFile;
        @Option(names = "--baseline", paramLabel = "FILE", description = "The baseline snapshot for the diff "
                + "(default: the newest stored snapshot with the baseline hash).")
        Path baselineFile;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Preregistration registration;
            InventorySnapshot snapshot;
            try {
                registration = Preregistration.read(prereg);
                snapshot = snapshotFile != null ? SnapshotStore.read(snapshotFile) : take.take(project.root(), err);
            } catch (IOException | IllegalArgumentException | JsonException e) {
                err.println("warden inventory preflight: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
            SnapshotStore store = new SnapshotStore(project.stateHome());
            Path stored = snapshotFile == null ? take.store(store, snapshot, "preflight", err) : null;
            DriftVerdict verdict = DriftVerdict.classify(registration, snapshot);
            InventorySnapshot baseline = null;
            String baselineProblem = null;
            try {
                baseline = baselineFile != null ? SnapshotStore.read(baselineFile) : store.findByHash(registration.baseline());
                if (baseline == null) {
                    baselineProblem = "no stored snapshot has the baseline hash; pass --baseline FILE";
                } else if (!baseline.sha256().equals(registration.baseline())) {
                    baselineProblem = "the --baseline snapshot's hash " + baseline.sha256() + " is not the preregistered baseline";
                    baseline = null;
                }
            } catch (IOException | JsonException e) {
                baselineProblem = "baseline unreadable: " + e.getMessage();
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", SCHEMA);
            m.put("inventory_drift", verdict.status().name());
            m.put("variant", verdict.variant());
            m.put("reasons", new ArrayList<Object>(verdict.reasons()));
            m.put("baseline_sha256", registration.baseline());
            m.put("inventory_sha256", snapshot.sha256());
            m.put("canonicalizer", InventorySnapshot.CANONICALIZER);
            m.put("canonicalizer_version", InventorySnapshot.CANONICALIZER_VERSION);
            m.put("serializer", InventorySnapshot.SERIALIZER);
            m.put("serializer_version", InventorySnapshot.SERIALIZER_VERSION);
            m.put("taken_at", snapshot.takenAt());
            m.put("turn_index", snapshot.turnIndex());
            m.put("snapshot", stored != null ? stored.toString() : snapshotFile == null ? null : snapshotFile.toString());
            InventoryDiff diff = baseline == null ? null : InventoryDiff.between(baseline, snapshot);
            if (diff != null) {
                m.put("diff", diffJson(baseline, snapshot, diff));
            } else {
                m.put("diff", null);
                m.put("diff_unavailable", baselineProblem);
            }
            if (json.json) {
                out.println(Json.write(m));
            } else {
                out.println("inventory_drift " + verdict.status() + (verdict.variant() == null ? "" : " (" + verdict.variant() + ")"));
                for (String r : verdict.reasons()) {
                    out.println("  " + r);
                }
                if (diff != null) {
                    printDiff(out, baseline, snapshot, diff);
                } else {
                    out.println("diff unavailable: " + baselineProblem);
                }
            }
            switch (verdict.status()) {
                case NONE, EXPECTED_VARIANT:
                    return ExitCode.OK.code();
                case EXPLORATORY:
                    return ExitCode.FINDINGS.code();
                default:
                    return ExitCode.HALT.code();
            }
        }
    }
}
