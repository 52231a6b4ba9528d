package dev.agentwarden.decision;

import dev.agentwarden.ledger.SubagentFields;
import java.util.List;
import java.util.Map;

/**
 * Which decisions {@code warden log} shows; a {@code null} criterion matches everything.
 *
 * @param sinceIso  only decisions at or after this instant ({@code 2026-11-01T00:00:00.000Z}); the
 *                  log's timestamps are fixed-width UTC, so they compare as text
 * @param session   {@code session_id}, as the host sent it or as the log holds it ({@code sha256:…})
 * @param event     the canonical ({@code pre_tool_use}) or native ({@code PreToolUse}) event
 * @param verdict   {@code allow|warn|block|halt}
 * @param concern   a concern that ran (not skipped)
 * @param shadow    only decisions where a shadow concern would have blocked
 */
public record DecisionFilter(String sinceIso, String session, String event, String verdict, String concern,
                             boolean shadow) {

    public static final DecisionFilter ALL = new DecisionFilter(null, null, null, null, null, false);

    /** The month segment the first match can be in, or {@code null} for all. */
    public String fromMonth() {
        return sinceIso == null ? null : sinceIso.substring(0, 7);
    }

    public boolean matches(Map<String, Object> d) {
        if (sinceIso != null && !(d.get("ts") instanceof String ts && ts.compareTo(sinceIso) >= 0)) {
            return false;
        }
        if (session != null && !session.equals(d.get("session_id"))
                && !java.util.Objects.equals(SubagentFields.sessionLabel(session), d.get("session_id"))) {
            return false;
        }
        if (event != null && !event.equals(d.get("event")) && !event.equals(d.get("native_event"))) {
            return false;
        }
        if (verdict != null && !verdict.equals(d.get("verdict"))) {
            return false;
        }
        if (concern != null || shadow) {
            boolean ran = concern == null;
            boolean wouldBlock = !shadow;
            for (Map<String, Object> c : concerns(d)) {
                if (concern != null && concern.equals(c.get("name")) && !"skipped".equals(c.get("outcome"))) {
                    ran = true;
                }
                if (shadow && Boolean.TRUE.equals(c.get("would_block"))) {
                    wouldBlock = true;
                }
            }
            return ran && wouldBlock;
        }
        return true;
    }

    /** The {@code concerns} of a decision, skipping anything malformed. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> concerns(Map<String, Object> d) {
        if (!(d.get("concerns") instanceof List<?> list)) {
            return List.of();
        }
        for (Object o : list) {
            if (!(o instanceof Map)) {
                return List.of();
            }
        }
        return (List<Map<String, Object>>) list;
    }
}
