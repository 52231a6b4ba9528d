package dev.agentwarden.guard;

import dev.agentwarden.ledger.DurationText;
import dev.agentwarden.ledger.LedgerSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import dev.agentwarden.ledger.TokenShape;

/**
 * The {@code spawn-guard} concern's settings, read from its manifest entry:
 *
 * <pre>
 * spawn-guard:
 *   script: builtin:spawn-guard
 *   posture: shadow                  # shadow | advisory | blocking
 *   tools: [Agent, Task]
 *   candidates:                      # evaluated on every spawn, recorded in every line
 *     - {label: n2m4, max_depth: 2, max_concurrent: 4}
 *     - {label: n3m6, max_depth: 3, max_concurrent: 6}
 *     - {label: n4m8, max_depth: 4, max_concurrent: 8}
 *   enforce: n2m4                    # the candidate advisory and blocking act on (default: the first)
 *   dispatch_tools: [Agent, Task]    # default: the host's own subagent-dispatch tools
 *   concurrency_scope: session       # session | workspace
 *   ttl: 24h                         # open records older than this are not counted; keep equal to the ledger's
 * </pre>
 *
 * @param candidates    candidates in order
 * @param enforced      the candidate advisory and blocking postures act on
 * @param dispatchTools tool names that spawn a subagent; empty for each host's own subagent-dispatch
 *                      tools (the event's tool kind)
 * @param ttlMs         open records older than this are stale
 * @param sessionScope  count only the caller's session's open records (when the payload names a session)
 */
public record GuardSettings(List<Candidate> candidates, Candidate enforced, Set<String> dispatchTools, long ttlMs,
                            boolean sessionScope) {
    /** Setting keys this concern reads. */
    static final Set<String> KEYS = Set.of("candidates", "enforce", "dispatch_tools", "concurrency_scope", "ttl");
    static final List<Candidate> DEFAULT_CANDIDATES = List.of(
            new Candidate("n2m4", 2, 4), new Candidate("n3m6", 3, 6), new Candidate("n4m8", 4, 8));
    /** No names: a spawn is a tool call the host adapter normalized as a subagent dispatch. */
    static final Set<String> DEFAULT_TOOLS = Set.of();
    static final int MAX_CANDIDATES = 16;

    static final GuardSettings DEFAULTS = new GuardSettings(DEFAULT_CANDIDATES, DEFAULT_CANDIDATES.get(0),
            DEFAULT_TOOLS, LedgerSettings.DEFAULT_TTL_MS, true);

    /**
     * Reads settings; absent keys take their defaults.
     *
     * @throws IllegalArgumentException naming the key when a value is invalid
     */
    public static GuardSettings from(Map<String, Object> settings) {
        List<Candidate> candidates = settings.containsKey("candidates")
                ? candidates(settings.get("candidates")) : DEFAULT_CANDIDATES;
        Candidate enforced = candidates.get(0);
        if (settings.containsKey("enforce")) {
            Object label = settings.get("enforce");
            enforced = null;
            List<String> labels = new ArrayList<>();
            for (Candidate c : candidates) {
                labels.add(c.label());
                if (c.label().equals(label)) {
                    enforced = c;
                }
            }
            if (enforced == null) {
                throw new IllegalArgumentException("enforce: '" + label + "' is not a candidate label; labels are " + labels);
            }
        }
        Set<String> tools = DEFAULT_TOOLS;
        if (settings.containsKey("dispatch_tools")) {
            Set<String> named = new LinkedHashSet<>();
            if (settings.get("dispatch_tools") instanceof List<?> list) {
                for (Object t : list) {
                    if (!(t instanceof String s) || s.isEmpty()) {
                        named.clear();
                        break;
                    }
                    named.add(s);
                }
            }
            if (named.isEmpty()) {
                throw new IllegalArgumentException("dispatch_tools: must be a non-empty list of tool names");
            }
            tools = Set.copyOf(named);
        }
        boolean session = true;
        if (settings.containsKey("concurrency_scope")) {
            Object scope = settings.get("concurrency_scope");
            if (!"session".equals(scope) && !"workspace".equals(scope)) {
                throw new IllegalArgumentException("concurrency_scope: must be session or workspace, found " + scope);
            }
            session = "session".equals(scope);
        }
        long ttl = settings.containsKey("ttl") ? DurationText.parse(settings.get("ttl"), "ttl") : LedgerSettings.DEFAULT_TTL_MS;
        if (ttl <= 0) {
            throw new IllegalArgumentException("ttl: must be longer than 0");
        }
        return new GuardSettings(candidates, enforced, tools, ttl, session);
    }

    private static List<Candidate> candidates(Object value) {
        if (!(value instanceof List<?> list) || list.isEmpty() || list.size() > MAX_CANDIDATES) {
            throw new IllegalArgumentException("candidates: must be a list of 1 to " + MAX_CANDIDATES
                    + " entries {label, max_depth, max_concurrent}");
        }
        List<Candidate> out = new ArrayList<>();
        Set<String> labels = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String key = "candidates[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(key + ": must be a mapping {label, max_depth, max_concurrent}");
            }
            for (Object k : m.keySet()) {
                if (!Set.of("label", "max_depth", "max_concurrent").contains(String.valueOf(k))) {
                    throw new IllegalArgumentException(key + "." + k + ": unknown key; a candidate has label, max_depth, max_concurrent");
                }
            }
            if (!(m.get("label") instanceof String label) || !TokenShape.isWord(label, 1, 32, "_.-")) {
                throw new IllegalArgumentException(key + ".label: must be 1-32 characters of [A-Za-z0-9_.-]");
            }
            if (!labels.add(label)) {
                throw new IllegalArgumentException(key + ".label: '" + label + "' is used twice");
            }
            long depth = arm(m.get("max_depth"), key + ".max_depth");
            long concurrent = arm(m.get("max_concurrent"), key + ".max_concurrent");
            if (depth == 0 && concurrent == 0) {
                throw new IllegalArgumentException(key + ": needs max_depth or max_concurrent");
            }
            out.add(new Candidate(label, depth, concurrent));
        }
        return List.copyOf(out);
    }

    private static long arm(Object value, String key) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Long n && n >= 1 && n <= 10_000) {
            return n;
        }
        throw new IllegalArgumentException(key + ": must be an integer from 1 to 10000, found " + value);
    }

    /** {@code session} or {@code workspace}. */
    public String scopeName() {
        return sessionScope ? "session" : "workspace";
    }
}
