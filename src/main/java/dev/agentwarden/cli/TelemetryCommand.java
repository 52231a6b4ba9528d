package dev.agentwarden.cli;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.inventory.DriftStatus;
import dev.agentwarden.inventory.TelemetryJoin;
import dev.agentwarden.inventory.TelemetryPin;
import dev.agentwarden.inventory.TurnRecords;
import dev.agentwarden.inventory.UsageSources;
import dev.agentwarden.io.AtomicWrite;
import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code warden telemetry pin|join}: usage telemetry joined only on a pinned static identity. */
@Command(name = "telemetry", description = "Pin a run's static identity, then join host usage records to it.",
        subcommands = {TelemetryCommand.Pin.class, TelemetryCommand.Join.class})
final class TelemetryCommand implements Runnable {
    static final long MAX_FILE_BYTES = 4L * 1024 * 1024;
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "pin", description = "Record artifact SHA-256, client, client version, model, tokenizer and "
            + "fresh/continued before execution.")
    static final class Pin implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = "--artifact", required = true, paramLabel = "FILE", description = "The artifact the runs used (its SHA-256 is pinned).")
        Path artifact;
        @Option(names = "--client-id", paramLabel = "ID", description = "Required. The host client (copilot-cli).")
        String client;
        @Option(names = "--client", hidden = true, paramLabel = "ID", description = "Old name of --client-id.")
        void oldClient(String id) {
            client = id;
        }
        @Option(names = "--client-version", required = true, paramLabel = "V", description = "The host client's version.")
        String clientVersion;
        @Option(names = "--model", required = true, description = "The model the runs used.") String model;
        @Option(names = "--tokenizer", required = true, description = "The tokenizer token counts are measured with.")
        String tokenizer;
        @Option(names = "--condition", required = true, description = "fresh or continued") String condition;
        @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the pin (JSON).")
        Path out;

        @Override
        public Integer call() {
            RenamedOption.require(spec, client, "--client-id", "ID");
            try {
                String now = Instant.now(Clock.systemUTC()).truncatedTo(ChronoUnit.MILLIS).toString();
                TelemetryPin pin = TelemetryPin.of(artifact, client, clientVersion, model, tokenizer, condition, now);
                if (Files.isSymbolicLink(out)) {
                    throw new IOException(out + " is a symbolic link; refusing to write through it");
                }
                AtomicWrite.write(out, Json.writePretty(pin.toJson()).getBytes(StandardCharsets.UTF_8));
                spec.commandLine().getOut().println(Json.write(pin.toJson()));
                return ExitCode.OK.code();
            } catch (IOException | IllegalArgumentException e) {
                spec.commandLine().getErr().println("warden telemetry pin: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
    }

    @Command(name = "join", description = {"Join usage records (Claude Code transcripts, Codex --json streams, Copilot "
            + "session-state events.jsonl) on the "
            + "pinned identity, for turns whose preflight did not void them; list every excluded record with its reason.",
            "Exit 0 when something joined, 1 when nothing did, 2 on unreadable input."})
    static final class Join implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Option(names = "--pin", required = true, paramLabel = "P", description = "The pin written by `telemetry pin`.")
        Path pinFile;
        @Option(names = "--preflight", paramLabel = "FILE", description = "Preflight JSON (warden inventory preflight --json --turn N), one per turn.")
        List<Path> preflights = new ArrayList<>();
        @Option(names = "--turn-records", description = "Take each session's turn verdicts and fresh/continued condition from "
                + "the inventory-turns records under the project's .warden/state/inventory/turns/; without SOURCES, read "
                + "the transcripts those records name (transcript_path from the hook payloads).")
        boolean turnRecords;
        @Mixin
        ProjectDirOption project = new ProjectDirOption();
        @Parameters(paramLabel = "SOURCES", description = "Usage records to join with the pin (files).")
        List<Path> sources = new ArrayList<>();

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            try {
                TelemetryPin pin = TelemetryPin.fromJson(Json.parseObject(readSmall(pinFile)));
                Map<Long, TelemetryJoin.TurnVerdict> verdicts = new HashMap<>();
                for (Path p : preflights) {
                    Map<String, Object> m = Json.parseObject(readSmall(p));
                    if (!"warden.inventory.preflight/1".equals(m.get("schema")) || !(m.get("turn_index") instanceof Number n)) {
                        throw new IllegalArgumentException(p + " is not a preflight record");
                    }
                    verdicts.put(n.longValue(), new TelemetryJoin.TurnVerdict(n.longValue(),
                            DriftStatus.valueOf((String) m.get("inventory_drift")), (String) m.get("variant")));
                }
                List<Path> read = new ArrayList<>(sources);
                TelemetryJoin.Verdicts byTurn = null;
                if (turnRecords) {
                    if (!preflights.isEmpty()) {
                        throw new IllegalArgumentException("--turn-records and --preflight are two sources of verdicts; pass one");
                    }
                    Path root = Path.of(project.root());
                    List<Map<String, Object>> records = new TurnRecords(root, WorkspaceRoot.stateHome(root.toString())).readAll();
                    byTurn = TelemetryJoin.fromTurnRecords(records);
                    if (read.isEmpty()) {
                        for (Map<String, Object> r : records) {
                            if (r.get("transcript_path") instanceof String t && !read.contains(Path.of(t))) {
                                read.add(Path.of(t));
                            }
                        }
                    }
                }
                UsageSources usage = new UsageSources();
                for (Path s : read) {
                    usage.read(s);
                }
                for (String problem : usage.problems()) {
                    err.println("warden telemetry join: " + problem);
                }
                Map<String, Object> result = byTurn != null ? TelemetryJoin.join(pin, usage.records(), byTurn)
                        : TelemetryJoin.join(pin, usage.records(), verdicts);
                List<Object> sourceList = new ArrayList<>();
                for (Path s : read) {
                    sourceList.add(s.toString());
                }
                result.put("sources", sourceList);
                result.put("tokenizer_note", "pinned; no host usage record states its tokenizer");
                spec.commandLine().getOut().println(Json.write(result));
                return ((List<?>) result.get("joined")).isEmpty() ? ExitCode.FINDINGS.code() : ExitCode.OK.code();
            } catch (IOException | IllegalArgumentException | JsonException | ClassCastException e) {
                err.println("warden telemetry join: " + e.getMessage());
                return ExitCode.UNREADABLE.code();
            }
        }
    }

    static String readSmall(Path file) throws IOException {
        return new String(StateFiles.readAll(file, MAX_FILE_BYTES, true), StandardCharsets.UTF_8);
    }
}
