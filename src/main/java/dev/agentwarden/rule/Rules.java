package dev.agentwarden.rule;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.event.EventName;
import java.util.Map;

/**
 * The {@code rule} built-in as the concern registry and the manifest compiler reach it: settings
 * parsed and compiled (once per distinct rule per process), an instance made from them, and
 * whether a rule can run on an event.
 */
public final class Rules {
    /** The built-in's name, after {@code builtin:}. */
    public static final String NAME = "rule";

    private Rules() {
    }

    /** The compiled rule for a concern's settings. @throws IllegalArgumentException {@code <key>: <problem>} */
    public static Object parse(Map<String, Object> settings) {
        RuleSettings parsed = RuleSettings.parse(settings);
        CompiledRule rule;
        try {
            rule = RuleCompiler.compile(parsed);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // a CEL failure outside its own error reporting is still a problem with this rule, never a crash
            throw new IllegalArgumentException("when: the rule does not compile: " + e, e);
        }
        if (parsed.prereg() == null) {
            for (RuleField f : rule.fields()) {
                if (f.drift()) {
                    throw new IllegalArgumentException("prereg: required: the rule reads " + f.wire()
                            + ", which compares against the preregistered baseline (warden inventory, docs/inventory.md)");
                }
            }
        }
        return rule;
    }

    /** A concern running a rule returned by {@link #parse}. */
    public static Concern create(Object compiled) {
        return new RuleConcern((CompiledRule) compiled);
    }

    /**
     * Why a rule with {@code settings} cannot run on {@code event} (it reads a field that event does
     * not carry, or rewrites where there is no tool call to rewrite), or {@code null} when it can or
     * its settings do not compile (reported on their own).
     */
    public static String cannotRunOn(EventName event, Map<String, Object> settings) {
        CompiledRule rule;
        try {
            rule = (CompiledRule) parse(settings);
        } catch (IllegalArgumentException e) {
            return null;
        }
        for (RuleField f : rule.fields()) {
            if (!f.seenOn(event)) {
                return "the rule reads " + f.wire() + ", which " + event.wire() + " does not carry (it is on "
                        + f.seenOnWords() + ")";
            }
        }
        if (rule.settings().action() == RuleAction.REWRITE && event != EventName.PRE_TOOL_USE) {
            return "action: rewrite replaces a tool call's input, which only pre_tool_use can do";
        }
        return null;
    }
}
