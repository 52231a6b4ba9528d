package dev.agentwarden.decision;

import dev.agentwarden.concern.ConcernSpec;
import dev.agentwarden.concern.Decision;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.digest.Sha256;
import dev.agentwarden.event.EventName;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.host.HostResponse;
import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonSpans;
import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.ledger.SubagentFields;
import dev.agentwarden.ledger.UtcTime;
import dev.agentwarden.manifest.Manifest;
import dev.agentwarden.redact.Redactor;
import dev.agentwarden.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * One decision as a line of JSON, format {@code v: 1} (README, "Decision log"). Every key is always
 * present, {@code null} when it does not apply, in a fixed order. Nothing the host sent is written
 * but its session id (as the ledger writes it), tool name, a SHA-256 of the tool input, and what was asked
 * ({@code asked}: the command, file path or prompt's first line, redacted). Reasons and notes are written
 * as written (redacted) unless the manifest asks for hashes only ({@code decision_log: {reasons: hashed}}).
 *
 * <p>Built on the dispatch path: a StringBuilder and Warden's JSON quoting, no reflection.
 */
public final class DecisionLine {
    /** The format version, {@code v}; bumped only for a change a v1 reader would misread. */
    public static final int VERSION = 1;
    /** Longest verbatim reason or note kept; longer text is cut and marked. */
    static final int MAX_TEXT_CHARS = 2000;
    /** Longest {@code asked} kept. */
    static final int MAX_ASKED_CHARS = 500;

    private static final String[] KIND_WIRE = lowerNames(Verdict.Kind.values());
    private static final String[] DECISION_WIRE = lowerNames(Decision.values());

    private DecisionLine() {
    }

    /** The line for {@code draft}, answered with {@code response}, ending with a newline. */
    public static String build(DecisionDraft d, HostResponse response, long nowNanos) {
        // a default-chain line is about 1.2 KB: one allocation, no growth
        StringBuilder sb = new StringBuilder(2048);
        HookEvent e = d.hookEvent;
        boolean verbatim = d.manifest != null && d.manifest.verbatimReasons();
        sb.append("{\"v\":").append(VERSION);
        field(sb, "ts", UtcTime.iso(d.epochMillis));
        field(sb, "host", d.host);
        field(sb, "event", d.event);
        field(sb, "native_event", d.nativeEvent);
        field(sb, "session_id", e == null ? null : SubagentFields.sessionLabel(e.sessionId()));
        field(sb, "ref", e == null || e.agentId() == null || e.agentId().isEmpty() ? null : AgentRef.of(e.agentId()));
        field(sb, "tool", e == null ? null : e.toolName());
        field(sb, "tool_input_sha256", e == null ? null : toolInputSha256(e));
        field(sb, "asked", e == null ? null : asked(e));
        field(sb, "transport", d.transport);
        sb.append(",\"manifest\":");
        if (d.manifest == null) {
            sb.append("null");
        } else {
            sb.append("{\"source\":");
            Json.quote(sb, d.manifest.source());
            sb.append(",\"sha256\":");
            Json.quote(sb, d.manifest.sourceSha256());
            sb.append('}');
        }
        if (d.managed != null) {
            // optional (absent without a managed layer): the administrator's manifest under the one in force
            sb.append(",\"managed\":{\"source\":");
            Json.quote(sb, d.managed.source());
            sb.append(",\"sha256\":");
            Json.quote(sb, d.managed.sourceSha256());
            sb.append('}');
        }
        if (d.userSource != null) {
            // optional (absent without a user layer): the user's own manifest under the project's, or why it is not
            sb.append(",\"user\":{\"source\":");
            Json.quote(sb, d.userSource);
            field(sb, "sha256", d.user == null ? null : d.user.sourceSha256());
            if (d.userRefused != null) {
                field(sb, "refused", d.userRefused);
            }
            sb.append('}');
        }
        field(sb, "role", d.role);
        sb.append(",\"concerns\":");
        concerns(sb, d, verbatim);
        String emitted = Emitted.of(response);
        field(sb, "verdict", d.verdict());
        field(sb, "emitted", emitted);
        sb.append(",\"downgrades\":");
        downgrades(sb, d.downgradeNotes(verbatim), verbatim);
        field(sb, "fail_mode", d.failMode);
        field(sb, "problem", d.problem);
        if (d.manifestFallback != null) {
            // optional (absent in lines from before it): which manifest stood in for the project's, and why
            field(sb, "manifest_fallback", d.manifestFallback);
        }
        if (d.chainSkipped != null) {
            // optional: chain entries the manifest compiled out (unknown, listed twice) while the rest ran
            sb.append(",\"chain_skipped\":[");
            for (int i = 0; i < d.chainSkipped.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                Json.quote(sb, d.chainSkipped.get(i));
            }
            sb.append(']');
        }
        if (d.result != null && d.result.verdict().rewrites()) {
            // optional (absent when nothing was rewritten): the host ran another tool input than it sent
            Verdict v = d.result.verdict();
            sb.append(",\"rewritten\":true");
            field(sb, "rewritten_by", v.rewrittenBy());
            field(sb, "input_before_sha256", e == null || e.toolInput() == null ? null
                    : Sha256.hex(Json.write(e.toolInput()).getBytes(StandardCharsets.UTF_8)));
            field(sb, "input_after_sha256", Sha256.hex(Json.write(v.updatedInput()).getBytes(StandardCharsets.UTF_8)));
        }
        if (d.result != null && d.result.strikes() > 0) {
            // optional (absent while the session has none): its strikes with this event counted (docs/escalation.md)
            sb.append(",\"strikes\":").append(d.result.strikes());
        }
        if (d.result != null && d.result.escalated() != null) {
            // optional: the step (ask or halt) an escalation turned this event's refusal into
            field(sb, "escalated", d.result.escalated());
        }
        if (d.traceparent != null) {
            // optional: the host's span this hook ran under (W3C trace context), for an exporter to join
            field(sb, "traceparent", d.traceparent);
        }
        sb.append(",\"elapsed_us\":").append(Math.max(0, (nowNanos - d.startNanos) / 1000));
        sb.append("}\n");
        return sb.toString();
    }

    /** Every concern of the chain bound to the event, in order: those that ran, and those skipped with why. */
    private static void concerns(StringBuilder sb, DecisionDraft d, boolean verbatim) {
        if (d.result == null || d.manifest == null || d.hookEvent == null) {
            sb.append("[]");
            return;
        }
        HookEvent e = d.hookEvent;
        List<ConcernOutcome> ran = d.result.outcomes();
        List<ConcernSpec> bound = d.manifest.chain(e.host(), e.event(), d.role);
        boolean refusalRetry = e.event() == EventName.STOP && e.stopHookActive();
        sb.append('[');
        int next = 0;
        for (int i = 0; i < bound.size(); i++) {
            ConcernSpec spec = bound.get(i);
            if (i > 0) {
                sb.append(',');
            }
            ConcernOutcome o = next < ran.size() && ran.get(next).concern().equals(spec.name()) ? ran.get(next++) : null;
            sb.append("{\"name\":");
            Json.quote(sb, spec.name());
            field(sb, "posture", spec.posture().wire());
            if (d.managed != null && d.managed.concerns().containsKey(spec.name())) {
                field(sb, "layer", "managed");
            } else if (d.user != null && d.user.concerns().containsKey(spec.name())) {
                field(sb, "layer", "user");
            }
            if (o == null) {
                field(sb, "outcome", "skipped");
                field(sb, "skipped", !spec.appliesTo(e) ? "tools_filter"
                        : refusalRetry && spec.skipOnRefusalRetry() ? "refusal_retry" : "not_run");
                sb.append(",\"effective\":null,\"would_block\":false,\"reason\":null,\"reason_sha256\":null"
                        + ",\"note\":null,\"exit_code\":null,\"elapsed_us\":null}");
                continue;
            }
            String outcome = outcome(o);
            field(sb, "outcome", outcome);
            sb.append(",\"skipped\":null");
            field(sb, "effective", KIND_WIRE[o.effective().ordinal()]);
            boolean wouldBlock = spec.posture() == Posture.SHADOW
                    && (o.raw().decision() == Decision.BLOCK || o.raw().decision() == Decision.HALT
                    || o.raw().decision() == Decision.ERROR && spec.failClosed());
            sb.append(",\"would_block\":").append(wouldBlock);
            String reason = o.raw().reason();
            field(sb, "reason", verbatim ? Redactor.redact(cut(reason)) : null);
            field(sb, "reason_sha256", reason == null ? null : Sha256.hex(reason.getBytes(StandardCharsets.UTF_8)));
            field(sb, "note", verbatim ? Redactor.redact(cut(o.note())) : null);
            sb.append(",\"exit_code\":").append(o.raw().exitCode() == null ? "null" : o.raw().exitCode().toString());
            sb.append(",\"elapsed_us\":").append(o.durationUs()).append('}');
        }
        sb.append(']');
    }

    /**
     * What the event asked for, redacted ({@link Redactor}): the shell command, else the first file
     * path, else the first non-blank line of the prompt; at most {@link #MAX_ASKED_CHARS}, cut before
     * a word. {@code null} when the event carries none of them.
     */
    static String asked(HookEvent e) {
        String text = e.shellCommand();
        if (text == null && e.filePaths() != null && !e.filePaths().isEmpty()) {
            text = e.filePaths().get(0);
        }
        if (text == null && e.prompt() != null) {
            text = firstLine(e.prompt());
        }
        return text == null || text.isEmpty() ? null : Redactor.redactPrefix(text, MAX_ASKED_CHARS);
    }

    /** The first line of {@code text} that is not blank, without its line break; "" when none. */
    private static String firstLine(String text) {
        int from = 0;
        while (from < text.length()) {
            int nl = text.indexOf('\n', from);
            int to = nl < 0 ? text.length() : nl;
            String line = text.substring(from, to).trim();
            if (!line.isEmpty()) {
                return line;
            }
            from = to + 1;
        }
        return "";
    }

    /**
     * {@code value} when it is a W3C trace context {@code traceparent} of version {@code 00}
     * ({@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}, lower case, ids not all zero);
     * otherwise {@code null}, so that nothing else from the environment reaches the line.
     */
    public static String traceparent(String value) {
        if (value == null || value.length() != 55 || value.charAt(0) != '0' || value.charAt(1) != '0'
                || value.charAt(2) != '-' || value.charAt(35) != '-' || value.charAt(52) != '-') {
            return null;
        }
        boolean traceZero = true;
        boolean spanZero = true;
        for (int i = 3; i < 55; i++) {
            if (i == 35 || i == 52) {
                continue;
            }
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return null;
            }
            if (c != '0' && i < 35) {
                traceZero = false;
            } else if (c != '0' && i < 52) {
                spanZero = false;
            }
        }
        return traceZero || spanZero ? null : value;
    }

    /** What the concern itself said: {@code allow|warn|block|halt|error|timeout}. */
    static String outcome(ConcernOutcome o) {
        Decision d = o.raw().decision();
        if (d == Decision.ERROR) {
            String r = o.raw().reason();
            return r != null && r.startsWith("timeout") ? "timeout" : "error";
        }
        return DECISION_WIRE[d.ordinal()];
    }

    /** The hex SHA-256 of the bytes of the payload's top-level {@code tool_input} value as received, or {@code null}. */
    static String toolInputSha256(HookEvent e) {
        if (e.toolInput() == null || e.rawPayload() == null) {
            return null;
        }
        return toolInputSha256(e.rawPayload());
    }

    /**
     * The hex SHA-256 of the bytes of the last top-level {@code tool_input} value of {@code payload}
     * as written, or {@code null} when it is not a JSON object or has none. Found without building
     * the document's tree; read as {@link JsonSpans#parse} reads it.
     */
    static String toolInputSha256(byte[] payload) {
        try {
            int[] span = JsonSpans.lastMemberSpan(payload, "tool_input");
            return span == null ? null : Sha256.hex(payload, span[0], span[1] - span[0]);
        } catch (JsonException unreadable) {
            return null;
        }
    }

    /**
     * The adapter's downgrade notes, one string each; without verbatim reasons the notes are those of
     * the textless verdict ({@link DecisionDraft#downgradeNotes}), each still cut before its first
     * {@code ": "}, where a note quotes the verdict's reason.
     */
    private static void downgrades(StringBuilder sb, String stderr, boolean verbatim) {
        sb.append('[');
        if (stderr != null && !stderr.isEmpty()) {
            int from = 0;
            boolean first = true;
            while (from <= stderr.length()) {
                int nl = stderr.indexOf('\n', from);
                int to = nl < 0 ? stderr.length() : nl;
                if (to > from) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    String line = stderr.substring(from, to);
                    line = line.startsWith("warden: ") ? line.substring(8) : line;
                    int quoted = line.indexOf(": ");
                    Json.quote(sb, Redactor.redact(cut(verbatim || quoted < 0 ? line : line.substring(0, quoted))));
                }
                from = to + 1;
            }
        }
        sb.append(']');
    }

    private static void field(StringBuilder sb, String key, String value) {
        sb.append(",\"").append(key).append("\":");
        if (value == null) {
            sb.append("null");
        } else {
            Json.quote(sb, value);
        }
    }

    private static String cut(String s) {
        if (s == null || s.length() <= MAX_TEXT_CHARS) {
            return s;
        }
        return s.substring(0, MAX_TEXT_CHARS) + " […]";
    }

    /** Each name of {@code values} in lower case, by ordinal: the wire form, made once. */
    private static String[] lowerNames(Enum<?>[] values) {
        String[] wire = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            wire[i] = values[i].name().toLowerCase(Locale.ROOT);
        }
        return wire;
    }
}
