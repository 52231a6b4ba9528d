package dev.agentwarden.rule;

import dev.agentwarden.text.NearMiss;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule's settings as the manifest writes them, checked but not compiled: {@code when} (a CEL
 * condition), {@code action}, {@code reason} (a {@link ReasonTemplate}) and, for
 * {@code action: rewrite}, {@code rewrite} (tool-input field → CEL expression of type string).
 *
 * @param when    the condition's source
 * @param action  what the rule does when it holds
 * @param reason  the reason template, or {@code null} for a generated reason
 * @param rewrite tool-input field → expression source, in order; empty unless the action rewrites
 * @param prereg  the inventory preregistration file (relative to the project root) the drift fields read, or {@code null}
 */
record RuleSettings(String when, RuleAction action, String reason, Map<String, String> rewrite, String prereg) {
    /** Longest condition, reason or rewrite expression accepted, in characters. */
    static final int MAX_SOURCE_CHARS = 4_000;
    /** Most rewritten fields. */
    static final int MAX_REWRITES = 16;

    /** @throws IllegalArgumentException {@code <key>: <what is wrong>} */
    public static RuleSettings parse(Map<String, Object> settings) {
        Object when = settings.get("when");
        if (when == null) {
            throw new IllegalArgumentException("when: required: a CEL condition, e.g. 'tool.kind == \"shell\" && \"rm\" in commands'");
        }
        if (!(when instanceof String w) || w.isBlank()) {
            throw new IllegalArgumentException("when: must be a CEL condition as a string, found " + when);
        }
        checkLength("when", w);
        Object actionValue = settings.get("action");
        if (actionValue == null) {
            throw new IllegalArgumentException("action: required: one of " + actionWords());
        }
        RuleAction action = actionValue instanceof String a ? RuleAction.of(a) : null;
        if (action == null) {
            throw new IllegalArgumentException("action: must be one of " + actionWords() + ", found " + actionValue
                    + NearMiss.hint(String.valueOf(actionValue), actionWords()));
        }
        Object reason = settings.get("reason");
        if (reason != null && !(reason instanceof String)) {
            throw new IllegalArgumentException("reason: must be text, found " + reason);
        }
        if (reason != null) {
            checkLength("reason", (String) reason);
            ReasonTemplate.parse((String) reason);
        }
        Map<String, String> rewrite = new LinkedHashMap<>();
        Object r = settings.get("rewrite");
        if (r != null) {
            if (!(r instanceof Map<?, ?> m) || m.isEmpty() || m.size() > MAX_REWRITES) {
                throw new IllegalArgumentException("rewrite: must be a mapping of 1 to " + MAX_REWRITES
                        + " tool-input fields to CEL expressions, e.g. {command: 'command + \" --dry-run\"'}");
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String field = String.valueOf(e.getKey());
                if (!(e.getValue() instanceof String expr) || expr.isBlank()) {
                    throw new IllegalArgumentException("rewrite." + field + ": must be a CEL expression as a string");
                }
                checkLength("rewrite." + field, expr);
                rewrite.put(field, expr);
            }
        }
        if (action == RuleAction.REWRITE && rewrite.isEmpty()) {
            throw new IllegalArgumentException("rewrite: required with action: rewrite: tool-input field → CEL expression");
        }
        if (action != RuleAction.REWRITE && !rewrite.isEmpty()) {
            throw new IllegalArgumentException("rewrite: only with action: rewrite (this rule's action is " + action.wire() + ")");
        }
        Object prereg = settings.get("prereg");
        if (prereg != null && (!(prereg instanceof String p) || p.isBlank())) {
            throw new IllegalArgumentException("prereg: must be a path to an inventory preregistration file, found " + prereg);
        }
        return new RuleSettings(w, action, (String) reason, java.util.Collections.unmodifiableMap(rewrite), (String) prereg);
    }

    private static void checkLength(String key, String text) {
        if (text.length() > MAX_SOURCE_CHARS) {
            throw new IllegalArgumentException(key + ": longer than " + MAX_SOURCE_CHARS + " characters");
        }
    }

    private static List<String> actionWords() {
        List<String> out = new ArrayList<>();
        for (RuleAction a : RuleAction.values()) {
            out.add(a.wire());
        }
        return out;
    }
}
