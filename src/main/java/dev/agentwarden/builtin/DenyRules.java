package dev.agentwarden.builtin;

import dev.agentwarden.text.NearMiss;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code deny-pattern} concern's settings: {@code patterns: [{match: <regex>, reason: <text>}]},
 * each regular expression compiled once, when the settings are parsed. Its own class so that
 * {@code java.util.regex} loads only where a {@code deny-pattern} concern is bound.
 *
 * @param rules the patterns in order; the first that matches decides
 */
record DenyRules(List<Rule> rules) {
    /** Most patterns one concern may hold. */
    static final int MAX_PATTERNS = 256;
    /** Longest regular expression accepted. */
    static final int MAX_REGEX_CHARS = 2_000;
    static final List<String> RULE_KEYS = List.of("match", "reason");

    /** One compiled pattern and the reason given when it matches ({@code null}: a generated one). */
    record Rule(Pattern pattern, String reason) {
    }

    /** @throws IllegalArgumentException naming the key path of the first invalid value */
    static DenyRules parse(Map<String, Object> settings) {
        Object value = settings.get("patterns");
        if (value == null) {
            throw new IllegalArgumentException("patterns: required: a list of {match: <regex>, reason: <text>}");
        }
        if (!(value instanceof List<?> list) || list.isEmpty() || list.size() > MAX_PATTERNS) {
            throw new IllegalArgumentException("patterns: must be a list of 1 to " + MAX_PATTERNS
                    + " entries {match: <regex>, reason: <text>}");
        }
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String key = "patterns[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(key + ": must be a mapping {match: <regex>, reason: <text>}");
            }
            for (Object k : m.keySet()) {
                String name = String.valueOf(k);
                if (!RULE_KEYS.contains(name)) {
                    throw new IllegalArgumentException(key + "." + name + ": unknown key; a pattern has match and reason"
                            + NearMiss.hint(name, RULE_KEYS));
                }
            }
            if (!(m.get("match") instanceof String regex) || regex.isEmpty()) {
                throw new IllegalArgumentException(key + ".match: required: a non-empty regular expression (quote it in YAML)");
            }
            if (regex.length() > MAX_REGEX_CHARS) {
                throw new IllegalArgumentException(key + ".match: longer than " + MAX_REGEX_CHARS + " characters");
            }
            Object reason = m.get("reason");
            if (reason != null && !(reason instanceof String)) {
                throw new IllegalArgumentException(key + ".reason: must be a string, found " + reason);
            }
            try {
                rules.add(new Rule(Pattern.compile(regex), (String) reason));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(key + ".match: not a valid regular expression: "
                        + e.getDescription() + " at index " + e.getIndex() + " of '" + regex + "'");
            }
        }
        return new DenyRules(List.copyOf(rules));
    }
}
