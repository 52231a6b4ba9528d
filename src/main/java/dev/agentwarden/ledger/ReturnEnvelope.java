package dev.agentwarden.ledger;

import dev.agentwarden.json.Json;
import dev.agentwarden.json.JsonException;
import dev.agentwarden.json.JsonLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The subagent return-envelope check, run in observe mode on a stop's {@code last_assistant_message}:
 * its verdict is written to the ledger and never acted on.
 *
 * <p>An envelope is a JSON object {@code {summary, handoff, confidence, findings, risks}}: summary a
 * string of 1–2000 characters, handoff a string of at most 240, confidence {@code low|medium|high},
 * findings a list of at most 40 objects each with a title of 1–240 characters, risks a list of at
 * most 40 items, and the object's text at most 12000 characters. Objects are found by a
 * string-aware brace scanner (a {@code }} inside a JSON string does not close an object), which also
 * finds them inside fenced {@code json} blocks.
 *
 * <p>Verdicts: {@code ok} (an object is a valid envelope); {@code fail} (an object carries envelope
 * keys but breaks a rule; the first rule broken is recorded as a code); {@code foreign_object} (JSON
 * objects, none with an envelope key); {@code no_envelope} (no JSON object); {@code no_message}.
 */
final class ReturnEnvelope {
    /** The check's verdicts, as written in {@code envelope_parse}. */
    public enum Verdict {
        OK, FAIL, FOREIGN_OBJECT, NO_ENVELOPE, NO_MESSAGE;

        private final String wire = name().toLowerCase(Locale.ROOT);

        public String wire() {
            return wire;
        }
    }

    /**
     * A verdict and, for {@code fail}, the rule broken.
     *
     * @param verdict the verdict
     * @param problem a code such as {@code summary_too_long}, or {@code null}
     */
    public record Result(Verdict verdict, String problem) {
    }

    /** Characters of a message scanned; a longer message is scanned from its end, where envelopes go. */
    static final int MAX_MESSAGE_CHARS = 1 << 20;
    /** Longest object span parsed. */
    static final int MAX_SPAN_CHARS = 64 * 1024;
    /** Most opening braces tried, which bounds the scan at this many spans of {@link #MAX_SPAN_CHARS}. */
    static final int MAX_STARTS = 256;
    static final int MAX_ENVELOPE_CHARS = 12_000;
    static final int MAX_SUMMARY_CHARS = 2000;
    static final int MAX_SHORT_CHARS = 240;
    static final int MAX_ITEMS = 40;
    private static final Set<String> KEYS = Set.of("summary", "handoff", "confidence", "findings", "risks");
    private static final Set<String> CONFIDENCE = Set.of("low", "medium", "high");
    private static final JsonLimits LIMITS = new JsonLimits(32, MAX_SPAN_CHARS, false, false, false);

    private ReturnEnvelope() {
    }

    public static Result classify(Object message) {
        if (!(message instanceof String s) || s.isBlank()) {
            return new Result(Verdict.NO_MESSAGE, null);
        }
        String text = s.length() > MAX_MESSAGE_CHARS ? s.substring(s.length() - MAX_MESSAGE_CHARS) : s;
        boolean sawObject = false;
        String failure = null;
        for (String span : objectSpans(text)) {
            Map<String, Object> object = parseObject(span);
            if (object == null) {
                continue;
            }
            sawObject = true;
            if (!hasEnvelopeKey(object)) {
                continue;
            }
            String problem = problemOf(object, span);
            if (problem == null) {
                return new Result(Verdict.OK, null);
            }
            failure = problem;
        }
        if (failure != null) {
            return new Result(Verdict.FAIL, failure);
        }
        return new Result(sawObject ? Verdict.FOREIGN_OBJECT : Verdict.NO_ENVELOPE, null);
    }

    /** The balanced {@code {…}} spans of a text, outermost only, found by a string-aware scan. */
    static List<String> objectSpans(String text) {
        List<String> spans = new ArrayList<>();
        int from = 0;
        for (int starts = 0; starts < MAX_STARTS; starts++) {
            int open = text.indexOf('{', from);
            if (open < 0) {
                break;
            }
            int close = matchingBrace(text, open);
            if (close < 0) {
                from = open + 1;
                continue;
            }
            spans.add(text.substring(open, close + 1));
            from = close + 1;
        }
        return spans;
    }

    /** The index of the brace closing the one at {@code open}, or -1 within {@link #MAX_SPAN_CHARS}. */
    private static int matchingBrace(String text, int open) {
        int end = (int) Math.min(text.length(), (long) open + MAX_SPAN_CHARS);
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        for (int i = open; i < end; i++) {
            char c = text.charAt(i);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean hasEnvelopeKey(Map<String, Object> object) {
        for (String key : object.keySet()) {
            if (KEYS.contains(key)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parseObject(String span) {
        try {
            Object v = Json.parse(span, LIMITS);
            return v instanceof Map ? (Map<String, Object>) v : null;
        } catch (JsonException e) {
            return null;
        }
    }

    private static String problemOf(Map<String, Object> o, String span) {
        if (chars(span) > MAX_ENVELOPE_CHARS) {
            return "envelope_too_large";
        }
        if (!(o.get("summary") instanceof String summary) || summary.isBlank()) {
            return "summary_invalid";
        }
        if (chars(summary) > MAX_SUMMARY_CHARS) {
            return "summary_too_long";
        }
        if (!(o.get("handoff") instanceof String handoff)) {
            return "handoff_invalid";
        }
        if (chars(handoff) > MAX_SHORT_CHARS) {
            return "handoff_too_long";
        }
        if (!(o.get("confidence") instanceof String confidence) || !CONFIDENCE.contains(confidence)) {
            return "confidence_invalid";
        }
        if (!(o.get("findings") instanceof List<?> findings)) {
            return "findings_invalid";
        }
        if (findings.size() > MAX_ITEMS) {
            return "findings_too_many";
        }
        for (Object f : findings) {
            if (!(f instanceof Map<?, ?> finding) || !(finding.get("title") instanceof String title) || title.isBlank()) {
                return "finding_title_invalid";
            }
            if (chars(title) > MAX_SHORT_CHARS) {
                return "finding_title_too_long";
            }
        }
        if (!(o.get("risks") instanceof List<?> risks)) {
            return "risks_invalid";
        }
        if (risks.size() > MAX_ITEMS) {
            return "risks_too_many";
        }
        return null;
    }

    private static int chars(String s) {
        return s.codePointCount(0, s.length());
    }
}
