package dev.agentwarden.report;

import dev.agentwarden.guard.GuardDerivation;
import dev.agentwarden.ledger.LedgerLine;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerProblem;
import dev.agentwarden.ledger.LedgerReader;
import dev.agentwarden.ledger.LedgerSettings;
import java.io.IOException;
import java.time.Instant;

/**
 * One chunk of the ledger read once for both of the report's ledger views: each line goes to the
 * subagent stats ({@link dev.agentwarden.ledger.LedgerStats#part}) and to the spawn guard's
 * derivation ({@link GuardDerivation#part}), each of which then gets the same lines and problems as
 * when it reads the ledger alone.
 */
final class LedgerPass implements LedgerReader.LineVisitor {
    final LedgerReader.LineVisitor stats;
    final LedgerReader.LineVisitor guard;

    LedgerPass(LedgerPaths paths, LedgerSettings settings, Instant since) {
        this.stats = dev.agentwarden.ledger.LedgerStats.part(paths, settings);
        this.guard = GuardDerivation.part(since);
    }

    @Override
    public void entry(String segment, long number, LedgerLine.View line, byte[] bytes, int from, int to)
            throws IOException {
        stats.entry(segment, number, line, bytes, from, to);
        guard.entry(segment, number, line, bytes, from, to);
    }

    @Override
    public void problem(LedgerProblem problem) {
        stats.problem(problem);
        guard.problem(problem);
    }

    @Override
    public void partRead() {
        stats.partRead();
        guard.partRead();
    }
}
