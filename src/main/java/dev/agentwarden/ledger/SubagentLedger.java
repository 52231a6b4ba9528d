package dev.agentwarden.ledger;

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
    public static List<Map<String, Object>> record(Kind kind, Map<String, Object> payload, String sessionId,
                                                   LedgerSettings settings, LedgerStore store) throws IOException {
        SubagentFields f = SubagentFields.of(payload, sessionId);
        String eventName = kind == Kind.START ? "subagent_start" : "subagent_stop";
        try (LedgerStore.Transaction tx = store.begin()) {
            List<Map<String, Object>> lines = new ArrayList<>();
            if (f.ref() == null) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("event", eventName);
                line.put("ref", null);
                line.put("unidentified", true);
                line.put("session_id", f.session());
                line.put("agent_type", f.agentType());
                line.put("reason", f.unidentifiedReason());
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
                    ? start(tx, f, set, liveOthers, now)
                    : stop(tx, f, set, own, liveOthers, now, payload, settings));
            return lines;
        }
    }

    private static Map<String, Object> start(LedgerStore.Transaction tx, SubagentFields f, OpenSet set,
                                             List<OpenRecord> liveOthers, long now) throws IOException {
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
        return tx.append(line);
    }

    private static Map<String, Object> stop(LedgerStore.Transaction tx, SubagentFields f, OpenSet set, OpenRecord own,
                                            List<OpenRecord> liveOthers, long now, Map<String, Object> payload,
                                            LedgerSettings settings) throws IOException {
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
        ReturnEnvelope.Result envelope = ReturnEnvelope.classify(payload.get("last_assistant_message"));
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
