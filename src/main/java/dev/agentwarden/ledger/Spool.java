package dev.agentwarden.ledger;

import dev.agentwarden.io.StateFiles;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Events that a writer could not put in the chain because the ledger lock stayed out of reach for
 * its whole budget: one file each under {@code .warden/state/ledger/spool/}, named
 * {@code <epoch ms, 13 digits>-<pid>-<sequence, 9 digits>-<random>.json} and created exclusively, holding what the
 * event needs to be recorded later ({@code kind} {@code line}: the line's fields; {@code kind}
 * {@code subagent}: the reduced subagent fields and settings, never the raw payload). The next
 * writer that holds the lock folds them into the chain, oldest first, each stamped with its own
 * instant and marked {@code spooled: true}, then removes them. Until then {@code ledger verify} and
 * {@code ledger stats} report them. A spool file that cannot be read is recorded as a
 * {@code ledger_gap} line and removed, so it is never lost silently either.
 */
final class Spool {
    /** Largest spool file read. */
    static final int MAX_BYTES = 16 * 1024;
    /** Most files one transaction folds, so that one writer holds the lock for a bounded time. */
    static final int MAX_FOLD = 256;
    static final String SUFFIX = ".json";
    /** Orders one process's spool files that share a millisecond. */
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private Spool() {
    }

    /** Whether a failure to begin a transaction means the lock was out of reach, so the event belongs in the spool. */
    static boolean lockUnavailable(LedgerException e) {
        return "ledger_lock_timeout".equals(e.code()) || "ledger_lock_interrupted".equals(e.code());
    }

    /** A spool entry for a plain line (a spawn-guard line). */
    static Map<String, Object> line(Map<String, Object> fields, long tsMs) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("kind", "line");
        o.put("ts_ms", tsMs);
        o.put("fields", fields);
        return o;
    }

    /**
     * Writes {@code entry} to a new spool file and returns the exception that says so
     * ({@code ledger_event_spooled}); when even that fails, one that says the event is lost
     * ({@code ledger_event_lost}), for the caller to report loudly.
     */
    static LedgerException spoolOrLose(LedgerPaths paths, LedgerException cause, Map<String, Object> entry) {
        // An interrupted thread's file channels close at once; write the spool file first, then keep the interrupt.
        boolean interrupted = Thread.interrupted();
        try {
            return spool(paths, cause, entry);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static LedgerException spool(LedgerPaths paths, LedgerException cause, Map<String, Object> entry) {
        byte[] bytes = Json.write(entry).getBytes(StandardCharsets.UTF_8);
        long ts = entry.get("ts_ms") instanceof Long t ? t : 0L;
        String stamp = Long.toString(Math.max(0, ts));
        StringBuilder name = new StringBuilder();
        for (int i = stamp.length(); i < 13; i++) {
            name.append('0');
        }
        String seq = Long.toString(SEQUENCE.incrementAndGet());
        name.append(stamp).append('-').append(ProcessHandle.current().pid()).append('-');
        for (int i = seq.length(); i < 9; i++) {
            name.append('0');
        }
        name.append(seq).append('-');
        try {
            for (int attempt = 0; ; attempt++) {
                Path file = paths.spoolDir().resolve(name + Long.toHexString(ThreadLocalRandom.current().nextLong()) + SUFFIX);
                try {
                    StateFiles.createNew(paths.root(), file, bytes);
                    LedgerException spooled = new LedgerException("ledger_event_spooled", cause.getMessage()
                            + "; the event was spooled to " + file + " and the next ledger write folds it into the chain");
                    spooled.initCause(cause);
                    return spooled;
                } catch (FileAlreadyExistsException taken) {
                    if (attempt == 8) {
                        throw taken;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LedgerException lost = new LedgerException("ledger_event_lost", cause.getMessage()
                    + "; the event could not be spooled either (" + e.getMessage() + ") and is not recorded");
            lost.initCause(cause);
            return lost;
        }
    }

    /** Names of the spool files waiting to be folded, oldest first. */
    static List<String> pending(LedgerPaths paths) throws IOException {
        if (!StateFiles.isDirectory(paths.root(), paths.spoolDir())) {
            return List.of();
        }
        String[] names = paths.spoolDir().toFile().list();
        if (names == null) {
            throw new IOException("cannot list " + paths.spoolDir());
        }
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.endsWith(SUFFIX) && !n.startsWith(".")) {
                out.add(n);
            }
        }
        String[] sorted = out.toArray(new String[0]);
        Arrays.sort(sorted);
        return Arrays.asList(sorted);
    }

    /** Folds up to {@link #MAX_FOLD} spooled events into the chain, oldest first, and removes their files. */
    static void foldInto(LedgerStore.Transaction tx) throws IOException {
        LedgerPaths paths = tx.paths();
        List<String> names = pending(paths);
        int folded = 0;
        for (String name : names) {
            if (folded++ == MAX_FOLD) {
                break;
            }
            Path file = paths.spoolDir().resolve(name);
            Map<String, Object> entry;
            String problem = null;
            try {
                entry = LedgerLine.parseState(StateFiles.readAll(file, MAX_BYTES, false));
                if (entry == null) {
                    problem = "not a JSON object";
                }
            } catch (NoSuchFileException gone) {
                continue;
            } catch (IOException e) {
                entry = null;
                problem = e.getMessage();
            }
            if (entry != null) {
                problem = fold(tx, entry);
            }
            if (problem != null) {
                tx.append(LedgerLine.of(LedgerLine.Event.LEDGER_GAP)
                        .put(LedgerLine.Key.DETAIL, "spool file " + name + " could not be folded: " + problem)
                        .fields());
            }
            StateFiles.delete(paths.root(), file);
        }
    }

    /** Appends one spooled event; returns why it could not be, or {@code null}. */
    @SuppressWarnings("unchecked")
    private static String fold(LedgerStore.Transaction tx, Map<String, Object> entry) throws IOException {
        if (!(entry.get("ts_ms") instanceof Long ts) || ts < 0) {
            return "no ts_ms";
        }
        Object kind = entry.get("kind");
        tx.stampAt(ts);
        try {
            if ("line".equals(kind) && entry.get("fields") instanceof Map<?, ?> f && f.get("event") instanceof String) {
                Map<String, Object> fields = new LinkedHashMap<>((Map<String, Object>) f);
                fields.put("spooled", true);
                tx.append(fields);
                return null;
            }
            if ("subagent".equals(kind)) {
                return SubagentLedger.foldSpooled(tx, entry);
            }
            return "unknown kind " + kind;
        } finally {
            tx.resetInstant();
        }
    }
}
