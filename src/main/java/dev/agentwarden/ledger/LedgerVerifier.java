package dev.agentwarden.ledger;

import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.io.UnsafeFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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
 * <p>Missing evidence fails too: lines without a head, an unusable head, a head whose segment is
 * gone, and, with an {@link LedgerAnchor anchor}, an anchored line that is no longer there with
 * its hash (or no ledger at all). Events waiting in the spool are reported as warnings.
 *
 * <p>The chain is unkeyed: it shows edits, deletions and reordering by anyone who does not rewrite
 * every later line and the head; it is not a signature. Only an anchor kept outside the project
 * shows a history rewritten with a recomputed chain, and only up to the anchored line.
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
        return verify(paths, null);
    }

    public static Report verify(LedgerPaths paths, LedgerAnchor anchor) throws IOException {
        return verify(paths, anchor, ReadProgress.NONE);
    }

    /**
     * Verifies the chain and, when {@code anchor} is not {@code null}, that it still holds the
     * anchored line.
     */
    public static Report verify(LedgerPaths paths, LedgerAnchor anchor, ReadProgress progress) throws IOException {
        List<LedgerProblem> problems = new ArrayList<>();
        List<String> segments;
        try {
            if (!Files.exists(paths.ledgerDir(), LinkOption.NOFOLLOW_LINKS)) {
                if (anchor != null) {
                    problems.add(anchorGone(anchor, "there is no ledger at all"));
                }
                return new Report(false, 0, 0, problems);
            }
            segments = paths.segments();
        } catch (UnsafeFileException e) {
            problems.add(LedgerProblem.error("ledger_unsafe", "", e.getMessage()));
            return new Report(true, 0, 0, problems);
        }
        ChainHead.Loaded loaded;
        try {
            loaded = LedgerStore.readHead(paths);
        } catch (UnsafeFileException e) {
            problems.add(LedgerProblem.error("ledger_unsafe", ".lock", e.getMessage()));
            loaded = ChainHead.load(paths.headFile());
        }
        ChainHead head = loaded.head();
        Walk walk = new Walk(head, anchor);
        LedgerReader.scan(paths, progress, walk);
        problems.addAll(walk.problems);
        if (loaded.problem() != null) {
            problems.add(LedgerProblem.error("ledger_head_invalid", "head.json", loaded.problem()
                    + "; lines cut from the end cannot be told apart from a damaged head"));
        }
        checkHead(head, segments, walk.physical, walk.headLineHash, walk.physicalLines, problems);
        if (anchor != null) {
            checkAnchor(anchor, segments, walk, problems);
        }
        List<String> spooled;
        try {
            spooled = Spool.pending(paths);
        } catch (UnsafeFileException e) {
            problems.add(LedgerProblem.error("ledger_unsafe", "spool/", e.getMessage()));
            spooled = List.of();
        }
        if (!spooled.isEmpty()) {
            problems.add(LedgerProblem.warning("ledger_spooled", "spool/", spooled.size()
                    + " event(s) wait in the spool (the lock was out of reach when they happened), oldest "
                    + spooled.get(0) + "; the next ledger write folds them into the chain"));
        }
        return new Report(true, segments.size(), walk.chainLines, problems);
    }

    /**
     * Verifies against the anchor at {@code anchorFile} when there is one; an anchor that cannot be
     * trusted or read is itself an error ({@code ledger_anchor_unusable}).
     */
    public static Report verifyAnchored(LedgerPaths paths, Path anchorFile) throws IOException {
        return verifyAnchored(paths, anchorFile, ReadProgress.NONE);
    }

    /** {@link #verifyAnchored(LedgerPaths, Path)}, showing {@code progress}. */
    public static Report verifyAnchored(LedgerPaths paths, Path anchorFile, ReadProgress progress) throws IOException {
        LedgerAnchor anchor;
        try {
            anchor = LedgerAnchor.read(anchorFile);
        } catch (IOException e) {
            Report r = verify(paths, null, progress);
            List<LedgerProblem> problems = new ArrayList<>(r.problems());
            problems.add(LedgerProblem.error("ledger_anchor_unusable", anchorFile.toString(), e.getMessage()));
            return new Report(r.present(), r.segments(), r.chainLines(), problems);
        }
        return verify(paths, anchor, progress);
    }

    /**
     * The position to anchor: the chain's last line, when the ledger verifies intact against
     * {@code previous} (which may be {@code null}).
     *
     * @throws LedgerException {@code ledger_not_intact} or {@code ledger_empty}
     */
    public static LedgerAnchor position(LedgerPaths paths, LedgerAnchor previous, String project, String ts)
            throws IOException {
        Report r = verify(paths, previous);
        if (!r.intact()) {
            throw new LedgerException("ledger_not_intact", "the ledger does not verify (run `warden ledger verify`);"
                    + " an anchor would pin a damaged history");
        }
        ChainHead head = LedgerStore.readHead(paths).head();
        Walk walk = new Walk(head, null);
        LedgerReader.scan(paths, ReadProgress.NONE, walk);
        if (walk.lastHash() == null) {
            throw new LedgerException("ledger_empty", "the ledger holds no chain line to anchor");
        }
        return new LedgerAnchor(project, walk.lastSegment, walk.lastLine, walk.lastHash(), walk.chainLines, ts);
    }

    private static LedgerProblem anchorGone(LedgerAnchor anchor, String what) {
        return LedgerProblem.error("ledger_anchor_missing", anchor.segment() + ".jsonl:" + anchor.line(),
                "the anchor of " + anchor.ts() + " records " + anchor.chainLines() + " chain lines ending here, but "
                        + what + ": the history was deleted");
    }

    private static void checkAnchor(LedgerAnchor anchor, List<String> segments, Walk walk, List<LedgerProblem> problems) {
        if (!segments.contains(anchor.segment()) || walk.physical.getOrDefault(anchor.segment(), 0L) < anchor.line()) {
            problems.add(anchorGone(anchor, "that line is not in the ledger"));
        } else if (!anchor.hash().equals(walk.anchorLineHash) || walk.anchorChainIndex != anchor.chainLines()) {
            problems.add(LedgerProblem.error("ledger_anchor_mismatch", anchor.segment() + ".jsonl:" + anchor.line(),
                    "the anchor of " + anchor.ts() + " records hash " + shortHash(anchor.hash()) + " as chain line "
                            + anchor.chainLines() + " here; the ledger now differs: the history was rewritten"));
        }
    }

    /**
     * One pass over the lines: links each chain line to the one before it. Hashes are kept as hex
     * bytes in reused buffers; text is made only for a problem found.
     */
    static final class Walk implements LedgerReader.LineVisitor {
        private static final byte[] GENESIS_HEX = LedgerLine.GENESIS.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private final ChainHead head;
        private final LedgerAnchor anchor;
        private final List<LedgerProblem> problems = new ArrayList<>();
        private final Map<String, Long> physical = new HashMap<>();
        private final LedgerLine.Hasher hasher = new LedgerLine.Hasher();
        private String headLineHash;
        private String anchorLineHash;
        private long anchorChainIndex = -1;
        private long chainLines;
        private long physicalLines;
        private final byte[] expectedPrev = GENESIS_HEX.clone();
        private String previousSegment;
        private long previousLine;
        /** The last chain line: segment, physical line, hash. */
        String lastSegment;
        long lastLine;
        String lastHash;

        Walk(ChainHead head, LedgerAnchor anchor) {
            this.head = head;
            this.anchor = anchor;
        }

        long chainLines() {
            return chainLines;
        }

        @Override
        public void physicalLine(String segment, long line, byte[] bytes, int from, int to) {
            physical.put(segment, line);
            physicalLines++;
            if (head != null && line == head.lines() && segment.equals(head.segment())) {
                headLineHash = hexText(hasher.hex(bytes, from, to));
            }
            if (anchor != null && line == anchor.line() && segment.equals(anchor.segment())) {
                anchorLineHash = hexText(hasher.hex(bytes, from, to));
                anchorChainIndex = chainLines + 1;
            }
        }

        @Override
        public void problem(LedgerProblem problem) {
            problems.add(problem);
        }

        @Override
        public void entry(String segment, long number, LedgerLine.View e, byte[] bytes, int from, int to) {
            Long v = e.integer(LedgerLine.Key.V);
            if (v == null || v != LedgerLine.VERSION) {
                problems.add(LedgerProblem.warning("ledger_version_unknown", segment + ".jsonl:" + number,
                        "line format v=" + e.value(LedgerLine.Key.V) + " is not " + LedgerLine.VERSION));
            }
            if (!e.prevIs(expectedPrev)) {
                String prev = e.string(LedgerLine.Key.PREV);
                String where = segment + ".jsonl:" + number;
                if (prev == null) {
                    problems.add(LedgerProblem.error("ledger_prev_missing", where, "line has no prev hash"));
                } else {
                    String expected = hexText(expectedPrev);
                    problems.add(LedgerProblem.error("ledger_chain_break", where, previousSegment == null
                            ? "the first line does not start the chain (prev " + shortHash(prev)
                                    + " is not genesis): lines or segments before it are missing"
                            : "prev " + shortHash(prev) + " is not the hash of " + previousSegment + ".jsonl:"
                                    + previousLine + " (" + shortHash(expected) + "): a line was edited, removed or moved here"));
                }
            }
            if (e.is(LedgerLine.Event.LEDGER_GAP)) {
                problems.add(LedgerProblem.error("ledger_gap", segment + ".jsonl:" + number,
                        "a writer found the ledger shorter than its head: " + e.string(LedgerLine.Key.DETAIL)));
            }
            System.arraycopy(hasher.hex(bytes, from, to), 0, expectedPrev, 0, 64);
            previousSegment = segment;
            previousLine = number;
            chainLines++;
            lastSegment = segment;
            lastLine = number;
            lastHash = null;
        }

        /** The hash of the last chain line, or {@code null} when there is none. */
        String lastHash() {
            if (lastHash == null && lastSegment != null) {
                lastHash = hexText(expectedPrev);
            }
            return lastHash;
        }

        private static String hexText(byte[] hex) {
            return new String(hex, java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    private static void checkHead(ChainHead head, List<String> segments, Map<String, Long> physical,
                                  String headLineHash, long physicalLines, List<LedgerProblem> problems) {
        if (head == null) {
            if (physicalLines > 0 && problems.stream().noneMatch(p -> p.code().equals("ledger_head_invalid"))) {
                problems.add(LedgerProblem.error("ledger_head_missing", "head.json",
                        "head.json is missing while the ledger holds lines: lines cut from the end (and the head"
                                + " deleted to hide it) cannot be told apart"));
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
