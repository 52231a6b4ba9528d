package dev.agentwarden.concern;

import java.util.Map;

/**
 * A concern's {@code escalate} setting: when the concern refuses an event ({@code block}) and the
 * session already holds at least {@link #after} strikes within the last {@link #withinMs}, the
 * refusal becomes {@link #then} ({@code ask} or {@code halt}). A strike is one event of the session
 * that some concern refused (docs/escalation.md).
 *
 * @param after    strikes already in the window that trigger the step, 1 to {@link #MAX_AFTER}
 * @param withinMs the window, in milliseconds, at most {@link #MAX_WITHIN_MS}
 * @param then     {@link Decision#ASK} or {@link Decision#HALT}
 */
public record Escalation(int after, long withinMs, Decision then) {
    /** Most strikes {@code after} may name. */
    public static final int MAX_AFTER = 100;
    /** Longest window; a strike older than this is forgotten. */
    public static final long MAX_WITHIN_MS = 24 * 3_600_000L;

    /** The step as a manifest and the decision log write it: {@code ask} or {@code halt}. */
    public String thenWire() {
        return then == Decision.ASK ? "ask" : "halt";
    }

    /** The window as a manifest writes it, in its largest whole unit ({@code 90s}, {@code 10m}, {@code 1h}). */
    public String withinWire() {
        if (withinMs % 3_600_000L == 0) {
            return withinMs / 3_600_000L + "h";
        }
        return withinMs % 60_000L == 0 ? withinMs / 60_000L + "m" : withinMs / 1_000L + "s";
    }

    /**
     * The setting as a manifest writes it ({@code {after: 3, within: 10m, then: ask|halt}}), or
     * {@code null} when absent.
     *
     * @throws IllegalArgumentException {@code escalate[.<key>]: <problem>}
     */
    public static Escalation parse(Object value) {
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
            throw new IllegalArgumentException("escalate.after: must be a whole number of strikes from 1 to " + MAX_AFTER
                    + ", found " + a);
        }
        Object w = m.get("within");
        long within = w instanceof String s ? durationMs(s) : -1;
        if (within <= 0 || within > MAX_WITHIN_MS) {
            throw new IllegalArgumentException("escalate.within: must be a duration such as 90s, 10m or 1h, at most 24h, found " + w);
        }
        Object t = m.get("then");
        Decision then = "ask".equals(t) ? Decision.ASK : "halt".equals(t) ? Decision.HALT : null;
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
