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
 * .warden/state/ledger/YYYY-MM.jsonl   hash-chained ledger segments: a month's first part
 * .warden/state/ledger/YYYY-MM.NNNN.jsonl   the month's later parts, each begun when the one before
 *                                      reached the roll size ({@link LedgerStore#ROLL_BYTES})
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

    /** The file of a segment: a month ({@code 2026-05}) or a later part of it ({@code 2026-05.0001}). */
    public Path segment(String segment) {
        return ledgerDir().resolve(segment + ".jsonl");
    }

    /** The segment after {@code segment} in the same month: {@code 2026-05} is followed by {@code 2026-05.0001}. */
    static String nextPart(String segment) {
        int part = segment.length() == 7 ? 0 : Integer.parseInt(segment.substring(8));
        if (part >= 9999) {
            throw new IllegalStateException("segment " + segment + " is the month's last part");
        }
        String n = Integer.toString(part + 1);
        return segment.substring(0, 7) + ".0000".substring(0, 5 - n.length()) + n;
    }

    /**
     * The segments ({@code 2026-05}, {@code 2026-05.0001}, ...) that have a file, in chain order
     * (oldest month first, a month's parts in order); empty when the ledger does not exist.
     */
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
            if (name.endsWith(".jsonl") && TokenShape.isSegment(name.substring(0, name.length() - 6))) {
                out.add(name.substring(0, name.length() - 6));
            }
        }
        Collections.sort(out);
        return out;
    }
}
