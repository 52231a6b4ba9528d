package dev.agentwarden.report;

import dev.agentwarden.decision.DecisionReader;
import dev.agentwarden.json.FieldScanner;
import dev.agentwarden.ledger.Distribution;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code warden report} counts in the decision log, one chunk of it per instance
 * ({@link #merge} joins them in log order): decisions per hour by verdict, concern outcomes, the
 * refused {@code asked} texts, sessions and their outcomes, hook latency per host and event, and the
 * integrity gate's outcomes (read from its reasons, {@code integrity <OUTCOME>: …}).
 */
final class DecisionStats implements DecisionReader.ScannedSink {
    static final String[] TOP_KEYS = {"ts", "host", "event", "native_event", "session_id", "verdict", "asked",
        "elapsed_us", "concerns", "strikes", "escalated"};
    static final String[] CONCERN_KEYS = {"name", "outcome", "posture", "would_block", "reason"};
    private static final int TS = 0;
    private static final int HOST = 1;
    private static final int EVENT = 2;
    private static final int NATIVE_EVENT = 3;
    private static final int SESSION = 4;
    private static final int VERDICT = 5;
    private static final int ASKED = 6;
    private static final int ELAPSED = 7;
    private static final int CONCERNS = 8;
    private static final int STRIKES = 9;
    private static final int ESCALATED = 10;
    private static final int NAME = 0;
    private static final int OUTCOME = 1;
    private static final int POSTURE = 2;
    private static final int WOULD_BLOCK = 3;
    private static final int REASON = 4;
    /** The verdicts, in the order their counts are kept. */
    static final List<String> VERDICTS = List.of("allow", "warn", "block", "halt");
    /** Concern outcomes counted, in order; {@code would_block} counts shadow concerns that would have. */
    static final List<String> OUTCOMES = List.of("allow", "warn", "block", "halt", "error", "timeout", "skipped",
        "would_block");
    /** Distinct refused texts and sessions kept; past these, new ones are counted under {@link #OTHER}. */
    static final int MAX_DISTINCT = 100_000;
    static final String OTHER = "(others)";
    private static final byte[] INTEGRITY = "integrity ".getBytes(StandardCharsets.US_ASCII);

    private final String sinceIso;
    long decisions;
    long skippedBefore;
    String first;
    String last;
    /** Decisions per hour ({@code 2026-11-05T08}), by verdict in {@link #VERDICTS} order (an unknown verdict last). */
    final Map<String, long[]> perHour = new TreeMap<>();
    /** Outcomes per concern, in {@link #OUTCOMES} order. */
    final Map<String, long[]> concerns = new TreeMap<>();
    /** Refusals ({@code block} and {@code halt}) by what was asked. */
    final Map<String, long[]> refused = new HashMap<>();
    /** Per session: decisions, then the verdicts in {@link #VERDICTS} order; first and last seen. */
    final Map<String, Session> sessions = new HashMap<>();
    /** Hook latency in microseconds, by {@code host\tevent}. */
    final Map<String, Distribution> latency = new TreeMap<>();
    /** Integrity gate outcomes by name ({@code HALT_CORRUPT}, {@code UNKNOWN_HALT}, ...). */
    final Map<String, long[]> integrity = new TreeMap<>();

    /** The counters of the hour and of the host and event last counted: consecutive lines mostly share them. */
    private String lastHour;
    private long[] lastHourCounts;
    private String lastHost;
    private String lastEvent;
    private Distribution lastLatency;

    static final class Session {
        final long[] counts = new long[1 + VERDICTS.size() + 1];
        String first;
        String last;
        /** The most strikes a line of the session recorded (docs/escalation.md). */
        long strikes;
        /** Its lines whose refusal an escalation turned into ask or halt. */
        long escalations;
    }

    DecisionStats(String sinceIso) {
        this.sinceIso = sinceIso;
    }

    @Override
    public boolean acceptScanned(FieldScanner top, FieldScanner concern) {
        String ts = top.string(TS);
        if (ts != null && sinceIso != null && ts.compareTo(sinceIso) < 0) {
            skippedBefore++;
            return true;
        }
        String event = top.kind(NATIVE_EVENT) == FieldScanner.STRING ? top.sharedString(NATIVE_EVENT) : top.sharedString(EVENT);
        long elapsed = top.kind(ELAPSED) == FieldScanner.INTEGER ? top.integer(ELAPSED) : -1;
        int verdict = add(ts, top.sharedString(HOST), event, top.sharedString(SESSION), top.sharedString(VERDICT),
                elapsed, top.kind(STRIKES) == FieldScanner.INTEGER ? top.integer(STRIKES) : 0,
                top.kind(ESCALATED) == FieldScanner.STRING);
        if (verdict >= 2 && verdict <= 3 && top.kind(ASKED) == FieldScanner.STRING) {
            refuse(top.string(ASKED));
        }
        if (top.kind(CONCERNS) == FieldScanner.ARRAY) {
            byte[] b = top.bytes();
            int end = top.end(CONCERNS) - 1;
            int p = top.start(CONCERNS) + 1;
            while ((p = FieldScanner.nextElement(b, p, end)) < end) {
                int to;
                if (b[p] == '{') {
                    to = concern.readAccepted(b, p, end);
                    String reason = concern.kind(REASON) == FieldScanner.STRING && concern.stringStartsWith(REASON, INTEGRITY)
                            ? concern.string(REASON) : null;
                    concern(concern.sharedString(NAME), concern.sharedString(OUTCOME), concern.sharedString(POSTURE),
                            concern.kind(WOULD_BLOCK) == FieldScanner.TRUE, reason);
                } else {
                    to = FieldScanner.valueEnd(b, p, end);
                }
                p = to;
            }
        }
        return true;
    }

    @Override
    public void accept(Map<String, Object> d) {
        String ts = d.get("ts") instanceof String s ? s : null;
        if (ts != null && sinceIso != null && ts.compareTo(sinceIso) < 0) {
            skippedBefore++;
            return;
        }
        Object event = d.get("native_event") instanceof String ? d.get("native_event") : d.get("event");
        long elapsed = d.get("elapsed_us") instanceof Long l ? l : -1;
        int verdict = add(ts, str(d.get("host")), str(event), str(d.get("session_id")), str(d.get("verdict")), elapsed,
                d.get("strikes") instanceof Long n ? n : 0, d.get("escalated") instanceof String);
        if (verdict >= 2 && verdict <= 3 && d.get("asked") instanceof String asked) {
            refuse(asked);
        }
        if (d.get("concerns") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c) {
                    String reason = c.get("reason") instanceof String r && r.startsWith("integrity ") ? r : null;
                    concern(str(c.get("name")), str(c.get("outcome")), str(c.get("posture")),
                            Boolean.TRUE.equals(c.get("would_block")), reason);
                }
            }
        }
    }

    /** Counts one decision; returns its verdict's index in {@link #VERDICTS}, or their count when unknown. */
    private int add(String ts, String host, String event, String session, String verdict, long elapsedUs, long strikes,
                    boolean escalated) {
        decisions++;
        int v = VERDICTS.indexOf(verdict);
        if (v < 0) {
            v = VERDICTS.size();
        }
        if (ts != null && ts.length() >= 13) {
            if (first == null || ts.compareTo(first) < 0) {
                first = ts;
            }
            if (last == null || ts.compareTo(last) > 0) {
                last = ts;
            }
            if (lastHourCounts == null || !ts.regionMatches(0, lastHour, 0, 13)) {
                lastHour = ts.substring(0, 13);
                lastHourCounts = perHour.computeIfAbsent(lastHour, k -> new long[VERDICTS.size() + 1]);
            }
            lastHourCounts[v]++;
        }
        String sessionKey = session == null ? "(none)" : session;
        Session s = sessions.get(sessionKey);
        if (s == null) {
            s = sessions.size() < MAX_DISTINCT ? new Session() : sessions.computeIfAbsent(OTHER, k -> new Session());
            sessions.putIfAbsent(sessions.size() < MAX_DISTINCT ? sessionKey : OTHER, s);
        }
        s.counts[0]++;
        s.counts[1 + v]++;
        s.strikes = Math.max(s.strikes, strikes);
        s.escalations += escalated ? 1 : 0;
        if (ts != null) {
            if (s.first == null || ts.compareTo(s.first) < 0) {
                s.first = ts;
            }
            if (s.last == null || ts.compareTo(s.last) > 0) {
                s.last = ts;
            }
        }
        if (elapsedUs >= 0) {
            Distribution dist = host == lastHost && event == lastEvent ? lastLatency : null;
            if (dist == null) {
                dist = latency.computeIfAbsent(host + "\t" + event, k -> new Distribution());
                lastHost = host;
                lastEvent = event;
                lastLatency = dist;
            }
            dist.add(elapsedUs);
        }
        return v;
    }

    private void refuse(String asked) {
        long[] n = refused.get(asked);
        if (n == null) {
            n = refused.size() < MAX_DISTINCT ? new long[1] : refused.computeIfAbsent(OTHER, k -> new long[1]);
            refused.putIfAbsent(refused.size() < MAX_DISTINCT ? asked : OTHER, n);
        }
        n[0]++;
    }

    private void concern(String name, String outcome, String posture, boolean wouldBlock, String integrityReason) {
        long[] n = concerns.computeIfAbsent(String.valueOf(name), k -> new long[OUTCOMES.size()]);
        int o = OUTCOMES.indexOf(outcome);
        if (o >= 0) {
            n[o]++;
        }
        if (wouldBlock && "shadow".equals(posture)) {
            n[OUTCOMES.size() - 1]++;
        }
        if (integrityReason != null) {
            int from = "integrity ".length();
            int to = from;
            while (to < integrityReason.length() && (Character.isUpperCase(integrityReason.charAt(to))
                    || integrityReason.charAt(to) == '_')) {
                to++;
            }
            if (to > from) {
                integrity.computeIfAbsent(integrityReason.substring(from, to), k -> new long[1])[0]++;
            }
        }
    }

    /** Adds the counts of {@code later}, the stats of the lines after this one's. */
    void merge(DecisionStats later) {
        decisions += later.decisions;
        skippedBefore += later.skippedBefore;
        if (later.first != null && (first == null || later.first.compareTo(first) < 0)) {
            first = later.first;
        }
        if (later.last != null && (last == null || later.last.compareTo(last) > 0)) {
            last = later.last;
        }
        later.perHour.forEach((h, n) -> add(perHour.computeIfAbsent(h, k -> new long[n.length]), n));
        later.concerns.forEach((c, n) -> add(concerns.computeIfAbsent(c, k -> new long[n.length]), n));
        later.refused.forEach((a, n) -> add(refused.computeIfAbsent(refused.size() < MAX_DISTINCT ? a : OTHER,
                k -> new long[1]), n));
        later.sessions.forEach((id, s) -> {
            Session mine = sessions.computeIfAbsent(sessions.size() < MAX_DISTINCT ? id : OTHER, k -> new Session());
            add(mine.counts, s.counts);
            mine.strikes = Math.max(mine.strikes, s.strikes);
            mine.escalations += s.escalations;
            if (s.first != null && (mine.first == null || s.first.compareTo(mine.first) < 0)) {
                mine.first = s.first;
            }
            if (s.last != null && (mine.last == null || s.last.compareTo(mine.last) > 0)) {
                mine.last = s.last;
            }
        });
        later.latency.forEach((k, dist) -> latency.computeIfAbsent(k, x -> new Distribution()).merge(dist));
        later.integrity.forEach((k, n) -> add(integrity.computeIfAbsent(k, x -> new long[1]), n));
    }

    private static void add(long[] into, long[] from) {
        for (int i = 0; i < into.length && i < from.length; i++) {
            into[i] += from[i];
        }
    }

    private static String str(Object o) {
        return o instanceof String s ? s : null;
    }
}
