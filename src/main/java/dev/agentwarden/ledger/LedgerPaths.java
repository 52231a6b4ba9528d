package dev.agentwarden.ledger;

import dev.agentwarden.event.WorkspaceRoot;
import dev.agentwarden.io.StateFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where one project's subagent state lives, under the {@code .warden} directory that
 * {@link WorkspaceRoot} resolves for every reader and writer:
 *
 * <pre>
 * .warden/state/ledger/YYYY-MM.jsonl   hash-chained ledger segments, one per month
 * .warden/state/ledger/head.json       the chain's last line (segment, line count, hash)
 * .warden/state/ledger/.lock           the lock every ledger and open-record write holds
 * .warden/state/ledger/spool/*.json    events written while the lock was out of reach, until folded in
 * .warden/state/open/&lt;ref&gt;.json        one record per live subagent dispatch
 * </pre>
 *
 * @param stateHome the project's {@code .warden} directory
 */
public record LedgerPaths(Path stateHome) {

    /** The paths for a resolved workspace root. */
    public static LedgerPaths forRoot(String root) {
        return new LedgerPaths(WorkspaceRoot.stateHome(root));
    }

    /** The project directory every state write must stay inside. */
    public Path root() {
        Path parent = stateHome.toAbsolutePath().normalize().getParent();
        return parent == null ? stateHome.toAbsolutePath() : parent;
    }

    public Path ledgerDir() {
        return stateHome.resolve("state").resolve("ledger");
    }

    public Path openDir() {
        return stateHome.resolve("state").resolve("open");
    }

    public Path lockFile() {
        return ledgerDir().resolve(".lock");
    }

    /** Events that could not take the lock in time; the next writer folds them into the chain. */
    public Path spoolDir() {
        return ledgerDir().resolve("spool");
    }

    public Path headFile() {
        return ledgerDir().resolve("head.json");
    }

    /** The segment file of a month ({@code 2026-05}). */
    public Path segment(String month) {
        return ledgerDir().resolve(month + ".jsonl");
    }

    /** The months ({@code 2026-05}) that have a segment file, oldest first; empty when the ledger does not exist. */
    public List<String> segments() throws IOException {
        List<String> out = new ArrayList<>();
        if (!StateFiles.isDirectory(root(), ledgerDir())) {
            return List.of();
        }
        // File.list, not a DirectoryStream, whose iterator pulls the lambda machinery into a cold dispatch.
        String[] names = ledgerDir().toFile().list();
        if (names == null) {
            if (Files.exists(ledgerDir())) {
                throw new IOException("cannot list " + ledgerDir());
            }
            return List.of();
        }
        for (String name : names) {
            if (name.length() == 13 && name.endsWith(".jsonl") && TokenShape.isMonth(name.substring(0, 7))) {
                out.add(name.substring(0, 7));
            }
        }
        Collections.sort(out);
        return out;
    }
}
