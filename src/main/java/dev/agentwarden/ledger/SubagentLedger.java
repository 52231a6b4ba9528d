package dev.agentwarden.ledger;

import static dev.agentwarden.ledger.LedgerLine.Key.AGENT_TYPE;
import static dev.agentwarden.ledger.LedgerLine.Key.BASIS;
import static dev.agentwarden.ledger.LedgerLine.Key.AGE_MS;
import static dev.agentwarden.ledger.LedgerLine.Key.CONCURRENT_OPEN;
import static dev.agentwarden.ledger.LedgerLine.Key.DEPTH;
import static dev.agentwarden.ledger.LedgerLine.Key.DEPTH_BASIS;
import static dev.agentwarden.ledger.LedgerLine.Key.DUPLICATE_START;
import static dev.agentwarden.ledger.LedgerLine.Key.DURATION_MS;
import static dev.agentwarden.ledger.LedgerLine.Key.ENVELOPE_PARSE;
import static dev.agentwarden.ledger.LedgerLine.Key.ENVELOPE_PROBLEM;
import static dev.agentwarden.ledger.LedgerLine.Key.PARENT_REF;
import static dev.agentwarden.ledger.LedgerLine.Key.REASON;
import static dev.agentwarden.ledger.LedgerLine.Key.REF;
import static dev.agentwarden.ledger.LedgerLine.Key.SESSION_ID;
import static dev.agentwarden.ledger.LedgerLine.Key.SESSION_OPEN;
import static dev.agentwarden.ledger.LedgerLine.Key.SPOOLED;
import static dev.agentwarden.ledger.LedgerLine.Key.START_SEEN;
import static dev.agentwarden.ledger.LedgerLine.Key.STOP_LOSS_ARMS_EXCEEDED;
import static dev.agentwarden.ledger.LedgerLine.Key.TTL_MS;
import static dev.agentwarden.ledger.LedgerLine.Key.UNIDENTIFIED;

import dev.agentwarden.ledger.LedgerLine.Event;
import dev.agentwarden.event.HookEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records one subagent start or stop: the open-record set changes and the ledger lines that say
 * so, in one transaction under the ledger lock so that counts are consistent across processes.
 *
 * <p>Start: reap stale records, write this dispatch's open record, count, append
 * {@code subagent_start}. Depth is 1 {@code assumed-root} when no parent is named; 1
 * {@code asserted-parent} when the named parent is the session's main agent (its id is the
 * session id, as Copilot names it; or, on a host that announces every subagent's start, any parent
 * without an open record, as on Cline), 2 when it is another agent that is not open; the parent's depth + 1
 * {@code observed} when it is. Stop: take this dispatch's own record (even when stale, so a run
 * longer than the TTL still gets its duration), reap the other stale records, remove it, count,
 * append {@code subagent_stop} with the duration, the stop-loss arms it exceeded and the
 * return-envelope verdict. A stop without a seen start has {@code duration_ms: null}. An event
 * without an agent id appends an {@code unidentified} line and changes nothing else.
 *
 * <p>{@code concurrent_open} is the number of live records after the event across the workspace;
 * {@code session_open} counts those of the event's session.
 */
public final class SubagentLedger {

    /** Which end of a dispatch an event marks. */
    public enum Kind { START, STOP }

    private SubagentLedger() {
    }

    /**
     * Records one event.
     *
     * @param event the normalized event (agent ids, session, last assistant message)
     * @return the lines appended, in order (reaped lines first)
     */
    public static List<Map<String, Object>> record(Kind kind, HookEvent event, LedgerSettings settings,
                                                   LedgerStore store) throws IOException {
        return record(kind, SubagentFields.of(event), event, settings, store);
    }

    /**
     * Records the start ({@code START}) or stop of a subagent known only as the call and result of
     * the subagent tool ({@link SubagentFields#TOOL_BRACKET}); its lines say so in {@code basis}.
     */
    public static List<Map<String, Object>> recordBracket(Kind kind, HookEvent event, LedgerSettings settings,
                                                          LedgerStore store) throws IOException {
        return record(kind, SubagentFields.bracketed(event), event, settings, store);
    }

    private static List<Map<String, Object>> record(Kind kind, SubagentFields f, HookEvent event,
                                                    LedgerSettings settings, LedgerStore store) throws IOException {
        ReturnEnvelope.Result envelope = kind == Kind.STOP ? ReturnEnvelope.classify(event.lastAssistantMessage()) : null;
        LedgerStore.Transaction tx;
        try {
            tx = store.begin();
        } catch (LedgerException e) {
            if (!Spool.lockUnavailable(e)) {
                throw e;
            }
            throw Spool.spoolOrLose(store.paths(), e, spoolEntry(kind, f, envelope, settings, store.clock().millis()));
        }
        try (tx) {
            return apply(tx, kind, f, envelope, settings, false);
        }
    }

    /** The lines for one event, inside a transaction; {@code spooled} marks an event folded in from the spool. */
    private static List<Map<String, Object>> apply(LedgerStore.Transaction tx, Kind kind, SubagentFields f,
                                                   ReturnEnvelope.Result envelope, LedgerSettings settings,
                                                   boolean spooled) throws IOException {
        Event event = kind == Kind.START ? Event.SUBAGENT_START : Event.SUBAGENT_STOP;
        List<Map<String, Object>> lines = new ArrayList<>();
        if (f.ref() == null) {
            LedgerLine.Builder line = LedgerLine.of(event)
                    .put(REF, null)
                    .put(UNIDENTIFIED, true)
                    .put(SESSION_ID, f.session())
                    .put(AGENT_TYPE, f.agentType())
                    .put(REASON, f.unidentifiedReason());
            if (spooled) {
                line.put(SPOOLED, true);
            }
            lines.add(tx.append(line.fields()));
            return lines;
        }
        OpenSet set = tx.openSet(settings.ttlMs());
        long now = tx.nowMs();
        OpenRecord own = kind == Kind.STOP ? set.any(f.ref()) : null;
        for (OpenRecord stale : set.stale()) {
            if (stale != own && tx.removeOpen(stale.ref())) {
                lines.add(tx.append(reaped(stale, now, settings)));
            }
        }
        List<OpenRecord> liveOthers = new ArrayList<>(set.live().size());
        for (OpenRecord r : set.live()) {
            if (!r.ref().equals(f.ref())) {
                liveOthers.add(r);
            }
        }
        lines.add(kind == Kind.START
                ? start(tx, f, set, liveOthers, now, spooled)
                : stop(tx, f, set, own, liveOthers, now, envelope, settings, spooled));
        return lines;
    }

    /** What a spool file keeps of an event: the reduced fields, never the payload itself. */
    private static Map<String, Object> spoolEntry(Kind kind, SubagentFields f, ReturnEnvelope.Result envelope,
                                                  LedgerSettings settings, long tsMs) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("v", LedgerLine.VERSION);
        o.put("kind", "subagent");
        o.put("ts_ms", tsMs);
        o.put("event", kind == Kind.START ? "start" : "stop");
        o.put("ref", f.ref());
        o.put("unidentified_reason", f.unidentifiedReason());
        o.put("agent_type", f.agentType());
        o.put("parent_ref", f.parentRef());
        o.put("session_id", f.session());
        o.put("basis", f.basis());
        if (f.unopenedParentIsMain()) {
            o.put("unopened_parent_is_main", true);
        }
        o.put("envelope_parse", envelope == null ? null : envelope.verdict().wire());
        o.put("envelope_problem", envelope == null ? null : envelope.problem());
        o.put("ttl_ms", settings.ttlMs());
        o.put("stop_loss_arms_ms", new ArrayList<Object>(settings.stopLossArmsMs()));
        return o;
    }

    /** Records a spooled event at its own instant; returns why it cannot be, or {@code null}. */
    static String foldSpooled(LedgerStore.Transaction tx, Map<String, Object> o) throws IOException {
        Kind kind = "start".equals(o.get("event")) ? Kind.START : "stop".equals(o.get("event")) ? Kind.STOP : null;
        if (kind == null) {
            return "event is neither start nor stop";
        }
        String ref = o.get("ref") instanceof String r && AgentRef.isRef(r) ? r : null;
        if (ref == null && o.get("ref") != null) {
            return "ref is not a ref";
        }
        String parent = o.get("parent_ref") instanceof String p && AgentRef.isRef(p) ? p : null;
        String reason = ref != null ? null : "agent_id_not_string".equals(o.get("unidentified_reason"))
                ? "agent_id_not_string" : "no_agent_id";
        SubagentFields f = new SubagentFields(ref, reason, SubagentFields.agentType(o.get("agent_type")), parent,
                SubagentFields.sessionLabel(o.get("session_id")),
                SubagentFields.TOOL_BRACKET.equals(o.get("basis")) ? SubagentFields.TOOL_BRACKET : null,
                Boolean.TRUE.equals(o.get("unopened_parent_is_main")));
        ReturnEnvelope.Result envelope = null;
        if (kind == Kind.STOP) {
            ReturnEnvelope.Verdict verdict = ReturnEnvelope.Verdict.NO_MESSAGE;
            for (ReturnEnvelope.Verdict v : ReturnEnvelope.Verdict.values()) {
                if (v.wire().equals(o.get("envelope_parse"))) {
                    verdict = v;
                }
            }
            String problem = o.get("envelope_problem") instanceof String p && TokenShape.isWord(p, 1, 64, "_") ? p : null;
            envelope = new ReturnEnvelope.Result(verdict, problem);
        }
        long ttl = o.get("ttl_ms") instanceof Long t && t > 0 ? t : LedgerSettings.DEFAULT_TTL_MS;
        List<Long> arms = new ArrayList<>();
        if (o.get("stop_loss_arms_ms") instanceof List<?> list) {
            for (Object a : list) {
                if (a instanceof Long n && n > 0 && arms.size() < 16) {
                    arms.add(n);
                }
            }
        } else {
            arms.addAll(LedgerSettings.DEFAULT_ARMS_MS);
        }
        apply(tx, kind, f, envelope, new LedgerSettings(ttl, arms, Map.of()), true);
        return null;
    }

    private static Map<String, Object> start(LedgerStore.Transaction tx, SubagentFields f, OpenSet set,
                                             List<OpenRecord> liveOthers, long now, boolean spooled)
            throws IOException {
        Depth depth = depthOf(f, set);
        boolean duplicate = set.any(f.ref()) != null;
        OpenRecord record = new OpenRecord(f.ref(), f.session(), f.agentType(), f.parentRef(), depth.depth(),
                depth.basis(), now);
        tx.putOpen(record);
        LedgerLine.Builder line = LedgerLine.of(Event.SUBAGENT_START)
                .put(REF, f.ref())
                .put(SESSION_ID, f.session())
                .put(AGENT_TYPE, f.agentType())
                .put(PARENT_REF, f.parentRef())
                .put(DEPTH, depth.depth())
                .put(DEPTH_BASIS, depth.basis())
                .put(CONCURRENT_OPEN, (long) liveOthers.size() + 1)
                .put(SESSION_OPEN, sessionCount(liveOthers, f.session()) + 1);
        if (f.basis() != null) {
            line.put(BASIS, f.basis());
        }
        if (duplicate) {
            line.put(DUPLICATE_START, true);
        }
        if (spooled) {
            line.put(SPOOLED, true);
        }
        return tx.append(line.fields());
    }

    private static Map<String, Object> stop(LedgerStore.Transaction tx, SubagentFields f, OpenSet set, OpenRecord own,
                                            List<OpenRecord> liveOthers, long now, ReturnEnvelope.Result envelope,
                                            LedgerSettings settings, boolean spooled) throws IOException {
        Long duration = null;
        Depth depth;
        String agentType = f.agentType();
        if (own != null) {
            tx.removeOpen(own.ref());
            duration = Math.max(0, now - own.startedMs());
            depth = new Depth(own.depth(), own.depthBasis());
            if (agentType == null) {
                agentType = own.agentType();
            }
        } else {
            depth = depthOf(f, set);
        }
        List<String> exceeded = null;
        if (duration != null) {
            exceeded = new ArrayList<>();
            for (long arm : settings.stopLossArmsMs()) {
                if (duration > arm) {
                    exceeded.add(DurationText.format(arm));
                }
            }
        }
        LedgerLine.Builder line = LedgerLine.of(Event.SUBAGENT_STOP)
                .put(REF, f.ref())
                .put(SESSION_ID, f.session())
                .put(AGENT_TYPE, agentType)
                .put(DEPTH, depth.depth())
                .put(DEPTH_BASIS, depth.basis())
                .put(DURATION_MS, duration)
                .put(STOP_LOSS_ARMS_EXCEEDED, exceeded)
                .put(START_SEEN, own != null)
                .put(ENVELOPE_PARSE, envelope.verdict().wire());
        if (envelope.problem() != null) {
            line.put(ENVELOPE_PROBLEM, envelope.problem());
        }
        line.put(CONCURRENT_OPEN, (long) liveOthers.size())
                .put(SESSION_OPEN, sessionCount(liveOthers, f.session()));
        if (f.basis() != null) {
            line.put(BASIS, f.basis());
        }
        if (spooled) {
            line.put(SPOOLED, true);
        }
        return tx.append(line.fields());
    }

    /** A dispatch's nesting depth and how it is known. */
    private record Depth(long depth, String basis) {
    }

    /** The depth from the named parent and the open set. */
    private static Depth depthOf(SubagentFields f, OpenSet set) {
        if (f.parentRef() == null) {
            return new Depth(1, "assumed-root");
        }
        OpenRecord parent = set.live(f.parentRef());
        if (parent == null) {
            // A parent that is the session itself is the session's main agent (Copilot names it so);
            // on a host that announces every subagent, so is any parent without an open record (Cline).
            boolean main = f.unopenedParentIsMain()
                    || f.session() != null && f.parentRef().equals(AgentRef.of(f.session()));
            return new Depth(main ? 1 : 2, "asserted-parent");
        }
        return new Depth(Math.min(OpenRecord.MAX_DEPTH, parent.depth() + 1), "observed");
    }

    private static Map<String, Object> reaped(OpenRecord r, long now, LedgerSettings settings) {
        return LedgerLine.of(Event.SUBAGENT_REAPED)
                .put(REF, r.ref())
                .put(SESSION_ID, r.session())
                .put(AGENT_TYPE, r.agentType())
                .put(DEPTH, r.depth())
                .put(DEPTH_BASIS, r.depthBasis())
                .put(AGE_MS, now - r.startedMs())
                .put(REASON, "ttl_expired")
                .put(TTL_MS, settings.ttlMs())
                .fields();
    }

    private static long sessionCount(List<OpenRecord> records, String session) {
        if (session == null) {
            return records.size();
        }
        long n = 0;
        for (OpenRecord r : records) {
            if (session.equals(r.session())) {
                n++;
            }
        }
        return n;
    }
}
