package dev.agentwarden.cli;

import dev.agentwarden.io.OwnedPath;
import dev.agentwarden.io.ScratchTree;
import dev.agentwarden.ledger.LedgerLine;
import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.ledger.LedgerLine.Key;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The workload of the commands' class-data archive on JDK 17–24: {@code bin/warden} records
 * {@code __train --commands} (the dispatch workload, then this) into a second static archive that
 * every command but {@code dispatch} runs with, so that picocli and the bulk readers' classes load
 * from an archive while dispatch keeps mapping only its own. {@code ledger stats}, {@code guard
 * derive}, {@code ledger verify}, {@code report} and {@code log --summary} run in-process, as
 * {@code bin/warden} runs them, on a small ledger written here into a scratch project that is
 * removed afterwards. Not on JDK 25, whose AOT cache is trained on the dispatch workload alone.
 */
public final class CommandTraining {
    /** Ledger lines per kind written to the scratch project: enough for the scan's loops to run. */
    private static final int DISPATCHES = 50;
    private static final List<List<String>> COMMANDS = List.of(
            List.of("ledger", "stats"), List.of("ledger", "stats", "--json"),
            List.of("guard", "derive"), List.of("guard", "derive", "--json"),
            List.of("ledger", "verify"), List.of("report", "--json"), List.of("log", "--summary"));

    private CommandTraining() {
    }

    /** Runs the workload in a scratch project it deletes afterwards. */
    public static void main(String[] args) throws IOException {
        Path project = Path.of(System.getProperty("java.io.tmpdir"), "warden-train-commands-" + System.nanoTime());
        OwnedPath.createPrivateDirectories(project);
        try {
            writeLedger(LedgerPaths.forRoot(project.toString()));
            PrintWriter sink = new PrintWriter(new OutputStreamWriter(OutputStream.nullOutputStream(),
                    StandardCharsets.UTF_8), true);
            for (List<String> command : COMMANDS) {
                String[] argv = new String[command.size() + 2];
                command.toArray(argv);
                argv[command.size()] = "--project-dir";
                argv[command.size() + 1] = project.toString();
                WardenCli.execute(argv, sink, sink);
            }
        } finally {
            ScratchTree.delete(project);
        }
    }

    /** Spawn-guard shadow lines with candidates, starts and stops (with stop-loss arms), as the writers shape them. */
    private static void writeLedger(LedgerPaths paths) throws IOException {
        LedgerStore store = new LedgerStore(paths, Clock.systemUTC());
        for (int i = 0; i < DISPATCHES; i++) {
            String ref = "train-" + i;
            String session = "train-session-" + i % 3;
            store.append(LedgerLine.of(Event.SPAWN_GUARD_SHADOW).put(Key.SESSION_ID, session).put(Key.TOOL, "Task")
                    .put(Key.POSTURE, "shadow").put(Key.CONCURRENT_OPEN, (long) (i % 5)).put(Key.SPAWN_DEPTH, 1L)
                    .put(Key.DEPTH_USABLE_FOR_DERIVATION, i % 2 == 0)
                    .put(Key.CANDIDATES, List.of(candidate("tight", 2, 3, i % 5 >= 3), candidate("loose", 4, 10, false)))
                    .put(Key.ACTED, false).fields());
            store.append(LedgerLine.of(Event.SUBAGENT_START).put(Key.REF, ref).put(Key.SESSION_ID, session)
                    .put(Key.AGENT_TYPE, "general-purpose").put(Key.DEPTH, 1L).put(Key.CONCURRENT_OPEN, 1L).fields());
            store.append(LedgerLine.of(Event.SUBAGENT_STOP).put(Key.REF, ref).put(Key.SESSION_ID, session)
                    .put(Key.AGENT_TYPE, "general-purpose").put(Key.DURATION_MS, 1000L + 977L * i)
                    .put(Key.STOP_LOSS_ARMS_EXCEEDED, i % 4 == 0 ? List.of("5m") : List.of())
                    .put(Key.START_SEEN, true).put(Key.ENVELOPE_PARSE, i % 10 == 0 ? "no_envelope" : "ok").fields());
        }
    }

    private static Map<String, Object> candidate(String label, long maxDepth, long maxConcurrent, boolean wouldDeny) {
        return Map.of(Key.LABEL.wire(), label, Key.MAX_DEPTH.wire(), maxDepth, Key.MAX_CONCURRENT.wire(), maxConcurrent,
                Key.WOULD_DENY.wire(), wouldDeny, Key.ON.wire(), List.of());
    }
}
