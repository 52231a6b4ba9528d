package dev.agentwarden.rule;

import java.util.Locale;

/** What a rule does when its condition holds. */
enum RuleAction {
    ALLOW, DENY, ASK, WARN, HALT, REWRITE;

    /** The word a manifest writes. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The action a manifest names, or {@code null}. */
    static RuleAction of(String wire) {
        for (RuleAction a : values()) {
            if (a.wire().equals(wire)) {
                return a;
            }
        }
        return null;
    }
}
