package dev.agentwarden.ledger;

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
 * {@code subagent_start}. Depth is 1 {@code assumed-root} when no parent is named, 2
 * {@code asserted-parent} when the named parent is not open, and the parent's depth + 1
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
     * @param payload   the host payload
     * @param sessionId the session id the host adapter read, or {@code null}
     * @return the lines appended, in order (reaped lines first)
     */
    public static List<Map<String, Object>> record(Kind kind, HookEvent event, LedgerSettings settings,
                                                   LedgerStore store) throws IOException {
        SubagentFields f = SubagentFields.of(event);
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
        String eventName = kind == Kind.START ? "subagent_start" : "subagent_stop";
        List<Map<String, Object>> lines = new ArrayList<>();
        if (f.ref() == null) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("event", eventName);
            line.put("ref", null);
            line.put("unidentified", true);
            line.put("session_id", f.session());
            line.put("agent_type", f.agentType());
            line.put("reason", f.unidentifiedReason());
            if (spooled) {
                line.put("spooled", true);
            }
            lines.add(tx.append(line));
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
                SubagentFields.sessionLabel(o.get("session_id")));
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
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", "subagent_start");
        line.put("ref", f.ref());
        line.put("session_id", f.session());
        line.put("agent_type", f.agentType());
        line.put("parent_ref", f.parentRef());
        line.put("depth", depth.depth());
        line.put("depth_basis", depth.basis());
        line.put("concurrent_open", (long) liveOthers.size() + 1);
        line.put("session_open", sessionCount(liveOthers, f.session()) + 1);
        if (duplicate) {
            line.put("duplicate_start", true);
        }
        if (spooled) {
            line.put("spooled", true);
        }
        return tx.append(line);
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
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", "subagent_stop");
        line.put("ref", f.ref());
        line.put("session_id", f.session());
        line.put("agent_type", agentType);
        line.put("depth", depth.depth());
        line.put("depth_basis", depth.basis());
        line.put("duration_ms", duration);
        line.put("stop_loss_arms_exceeded", exceeded);
        line.put("start_seen", own != null);
        line.put("envelope_parse", envelope.verdict().wire());
        if (envelope.problem() != null) {
            line.put("envelope_problem", envelope.problem());
        }
        line.put("concurrent_open", (long) liveOthers.size());
        line.put("session_open", sessionCount(liveOthers, f.session()));
        if (spooled) {
            line.put("spooled", true);
        }
        return tx.append(line);
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
            return new Depth(2, "asserted-parent");
        }
        return new Depth(Math.min(OpenRecord.MAX_DEPTH, parent.depth() + 1), "observed");
    }

    private static Map<String, Object> reaped(OpenRecord r, long now, LedgerSettings settings) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("event", "subagent_reaped");
        line.put("ref", r.ref());
        line.put("session_id", r.session());
        line.put("agent_type", r.agentType());
        line.put("depth", r.depth());
        line.put("depth_basis", r.depthBasis());
        line.put("age_ms", now - r.startedMs());
        line.put("reason", "ttl_expired");
        line.put("ttl_ms", settings.ttlMs());
        return line;
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
