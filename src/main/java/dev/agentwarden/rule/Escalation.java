package dev.agentwarden.rule;

import java.util.Map;

/**
 * A rule's {@code escalate} setting: once the session holds at least {@link #after} refusals within
 * the last {@link #withinMs}, the rule's next refusal becomes {@link #then} ({@code ask} or {@code halt}).
 *
 * @param after    refusals already in the window that trigger the step, at least 1
 * @param withinMs the window, in milliseconds, at most {@link Strikes#MAX_WINDOW_MS}
 * @param then     {@link RuleAction#ASK} or {@link RuleAction#HALT}
 */
record Escalation(int after, long withinMs, RuleAction then) {
    /** Most refusals {@code after} may name. */
    static final int MAX_AFTER = 100;

    /** The setting as a manifest writes it, or {@code null} when absent. @throws IllegalArgumentException {@code escalate...: <problem>} */
    static Escalation parse(Object value) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("escalate: must be a mapping {after: 3, within: 10m, then: ask|halt}, found " + value);
        }
        for (Object key : m.keySet()) {
            String k = String.valueOf(key);
            if (!k.equals("after") && !k.equals("within") && !k.equals("then")) {
                throw new IllegalArgumentException("escalate." + k + ": unknown key; escalate takes after, within and then");
            }
        }
        Object a = m.get("after");
        if (!(a instanceof Number n) || n.doubleValue() != n.longValue() || n.longValue() < 1 || n.longValue() > MAX_AFTER) {
            throw new IllegalArgumentException("escalate.after: must be a whole number of refusals from 1 to " + MAX_AFTER
                    + ", found " + a);
        }
        Object w = m.get("within");
        long within = w instanceof String s ? durationMs(s) : -1;
        if (within <= 0 || within > Strikes.MAX_WINDOW_MS) {
            throw new IllegalArgumentException("escalate.within: must be a duration such as 90s, 10m or 1h, at most 24h, found " + w);
        }
        Object t = m.get("then");
        RuleAction then = "ask".equals(t) ? RuleAction.ASK : "halt".equals(t) ? RuleAction.HALT : null;
        if (then == null) {
            throw new IllegalArgumentException("escalate.then: must be ask or halt, found " + t);
        }
        return new Escalation(n.intValue(), within, then);
    }

    /** {@code <digits><s|m|h>} in milliseconds, or -1. */
    static long durationMs(String s) {
        if (s.length() < 2 || s.length() > 8) {
            return -1;
        }
        long unit;
        switch (s.charAt(s.length() - 1)) {
            case 's':
                unit = 1_000L;
                break;
            case 'm':
                unit = 60_000L;
                break;
            case 'h':
                unit = 3_600_000L;
                break;
            default:
                return -1;
        }
        long n = 0;
        for (int i = 0; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n * unit;
    }
}
