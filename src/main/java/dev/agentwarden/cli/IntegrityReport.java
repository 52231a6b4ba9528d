package dev.agentwarden.cli;

import dev.agentwarden.integrity.GateVerdict.Evaluation;
import dev.agentwarden.integrity.GateVerdict;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How integrity sessions are printed by {@code warden integrity …}, {@code warden launch} and the demo. */
final class IntegrityReport {
    private IntegrityReport() {
    }

    /** One line per recorded event, numbered by sequence ({@link GateVerdict#eventLines}). */
    static void printEvents(PrintWriter out, List<String> eventLines, String indent) {
        for (String line : eventLines) {
            out.println(indent + line);
        }
    }

    static void printOutcome(PrintWriter out, Evaluation e, String indent) {
        out.println(indent + "outcome: " + e.outcome() + (e.outcome().halts() ? "  (halt)" : ""));
        for (String reason : e.reasons()) {
            out.println(indent + "  - " + reason);
        }
    }

    static void printShas(PrintWriter out, GateVerdict v, String indent) {
        out.println(indent + "source_sha_after_read: " + orDash(v.sourceSha()));
        out.println(indent + "attached_sha:          " + orDash(v.attachedSha()));
    }

    /** The check/launch JSON document of one finished session. */
    static Map<String, Object> json(GateVerdict v) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("session", v.session());
        o.put("events", new ArrayList<Object>(v.eventNames()));
        o.put("payload_read_status", v.readStatus() == null ? null : v.readStatus().name());
        o.put("prompt_attach_status", v.attachStatus() == null ? null : v.attachStatus().name());
        o.put("transport_integrity", v.evaluation().transportValue() == null ? null : v.evaluation().transportValue().name());
        o.put("release_integrity", v.evaluation().releaseValue() == null ? null : v.evaluation().releaseValue().name());
        o.put("outcome", v.outcome().name());
        o.put("reasons", new ArrayList<Object>(v.evaluation().reasons()));
        o.put("source_sha_after_read", v.sourceSha());
        o.put("source_normalized_sha256", v.normalizedSha256() == null ? null : new LinkedHashMap<String, Object>(v.normalizedSha256()));
        o.put("attached_sha", v.attachedSha());
        o.put("evidence_log", v.evidenceLog() == null ? null : v.evidenceLog().toString());
        o.put("evidence", v.evidenceJson());
        return o;
    }

    static String orDash(String s) {
        return s == null ? "—" : s;
    }
}
