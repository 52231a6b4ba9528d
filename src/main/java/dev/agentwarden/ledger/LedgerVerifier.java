package dev.agentwarden.ledger;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the hash chain: every line's {@code prev} must be the hash of the chain line before it
 * (across segments, oldest first), and {@code head.json} must name the chain's last line. An edited
 * line breaks the link to the line after it; a removed or moved line breaks the link where it was;
 * lines cut from the end disagree with the head. Torn lines are reported as warnings and skipped,
 * and the chain continues across them.
 *
 * <p>The chain is unkeyed: it shows edits, deletions and reordering by anyone who does not rewrite
 * every later line and the head; it is not a signature.
 */
public final class LedgerVerifier {

    /**
     * The outcome of a verification.
     *
     * @param present    a ledger directory exists
     * @param segments   segment files read
     * @param chainLines lines that are part of the chain
     * @param problems   errors (integrity) and warnings (crash artefacts), in file order
     */
    public record Report(boolean present, int segments, long chainLines, List<LedgerProblem> problems) {

        /** No integrity error was found (warnings allowed). */
        public boolean intact() {
            return problems.stream().noneMatch(LedgerProblem::error);
        }

        public Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("present", present);
            o.put("segments", (long) segments);
            o.put("chain_lines", chainLines);
            o.put("intact", intact());
            List<Object> list = new ArrayList<>();
            for (LedgerProblem p : problems) {
                Map<String, Object> q = new LinkedHashMap<>();
                q.put("code", p.code());
                q.put("location", p.location());
                q.put("severity", p.error() ? "error" : "warning");
                q.put("message", p.message());
                list.add(q);
            }
            o.put("problems", list);
            return o;
        }
    }

    private LedgerVerifier() {
    }

    public static Report verify(LedgerPaths paths) throws IOException {
        if (!Files.isDirectory(paths.ledgerDir())) {
            return new Report(false, 0, 0, List.of());
        }
        List<String> segments = paths.segments();
        ChainHead head = LedgerStore.readHead(paths);
        Walk walk = new Walk(head);
        LedgerReader.read(paths, walk);
        List<LedgerProblem> problems = walk.problems;
        checkHead(head, segments, walk.physical, walk.headLineHash, walk.chainLines, problems);
        return new Report(true, segments.size(), walk.chainLines, problems);
    }

    /** One pass over the lines: links each chain line to the one before it. */
    private static final class Walk implements LedgerReader.Visitor {
        private final ChainHead head;
        private final List<LedgerProblem> problems = new ArrayList<>();
        private final Map<String, Long> physical = new HashMap<>();
        private String headLineHash;
        private long chainLines;
        private String expectedPrev = LedgerLine.GENESIS;
        private String previousAt;

        Walk(ChainHead head) {
            this.head = head;
        }

        @Override
        public void physicalLine(String segment, long line, byte[] bytes) {
            physical.put(segment, line);
            if (head != null && segment.equals(head.segment()) && line == head.lines()) {
                headLineHash = LedgerLine.hash(bytes);
            }
        }

        @Override
        public void problem(LedgerProblem problem) {
            problems.add(problem);
        }

        @Override
        public void entry(LedgerReader.Entry e) {
            String prev = e.string("prev");
            if (!(e.fields().get("v") instanceof Long v) || v != LedgerLine.VERSION) {
                problems.add(LedgerProblem.warning("ledger_version_unknown", e.location(),
                        "line format v=" + e.fields().get("v") + " is not " + LedgerLine.VERSION));
            }
            if (prev == null) {
                problems.add(LedgerProblem.error("ledger_prev_missing", e.location(), "line has no prev hash"));
            } else if (!prev.equals(expectedPrev)) {
                problems.add(LedgerProblem.error("ledger_chain_break", e.location(), previousAt == null
                        ? "the first line does not start the chain (prev " + shortHash(prev)
                                + " is not genesis): lines or segments before it are missing"
                        : "prev " + shortHash(prev) + " is not the hash of " + previousAt + " ("
                                + shortHash(expectedPrev) + "): a line was edited, removed or moved here"));
            }
            if ("ledger_gap".equals(e.string("event"))) {
                problems.add(LedgerProblem.error("ledger_gap", e.location(),
                        "a writer found the ledger shorter than its head: " + e.string("detail")));
            }
            expectedPrev = LedgerLine.hash(e.bytes());
            previousAt = e.location();
            chainLines++;
        }
    }

    private static void checkHead(ChainHead head, List<String> segments, Map<String, Long> physical,
                                  String headLineHash, long chainLines, List<LedgerProblem> problems) {
        if (head == null) {
            if (chainLines > 0) {
                problems.add(LedgerProblem.warning("ledger_head_missing", "head.json",
                        "head.json is missing or unreadable; lines cut from the end cannot be detected"));
            }
            return;
        }
        String where = "head.json";
        if (!segments.contains(head.segment())) {
            problems.add(LedgerProblem.error("ledger_tail_missing", where,
                    "head names segment " + head.segment() + ", which is missing"));
            return;
        }
        long lines = physical.getOrDefault(head.segment(), 0L);
        if (lines < head.lines()) {
            problems.add(LedgerProblem.error("ledger_tail_missing", where, "head records " + head.lines()
                    + " lines in " + head.segment() + ".jsonl, the file has " + lines + ": lines were cut from the end"));
        } else if (!head.hash().equals(headLineHash)) {
            problems.add(LedgerProblem.error("ledger_head_mismatch", where, "line " + head.lines() + " of "
                    + head.segment() + ".jsonl does not have the head's hash " + shortHash(head.hash())));
        } else {
            String last = segments.get(segments.size() - 1);
            if (!head.segment().equals(last) || lines > head.lines()) {
                problems.add(LedgerProblem.warning("ledger_head_behind", where, "lines follow the head's "
                        + head.segment() + ".jsonl:" + head.lines()
                        + " (a writer stopped between appending and updating head.json)"));
            }
        }
    }

    private static String shortHash(String h) {
        return h.length() > 12 ? h.substring(0, 12) : h;
    }
}
