package dev.agentwarden.rule;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelEvaluationListener;
import dev.cel.runtime.CelRuntime;
import dev.cel.common.ast.CelExpr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A rule ready to run: its condition and rewrite expressions planned for the CEL runtime, its
 * reason template, and the fields it reads. Each evaluation is bounded: at most
 * {@link #MAX_STEPS} evaluated sub-expressions and a wall-clock deadline, past either of which it
 * fails ({@link Failed}) and the concern's fail mode decides.
 */
final class CompiledRule {
    /** Most sub-expression results one evaluation of one expression may produce. */
    static final int MAX_STEPS = 10_000;

    /** An evaluation that did not finish: an error in the expression, or a limit reached. */
    static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message);
        }
    }

    private final RuleSettings settings;
    private final CelRuntime.Program when;
    private final Map<String, CelRuntime.Program> rewrite;
    private final ReasonTemplate reason;
    private final Set<RuleField> fields;

    CompiledRule(RuleSettings settings, CelRuntime.Program when, Map<String, CelRuntime.Program> rewrite,
                 ReasonTemplate reason, Set<RuleField> fields) {
        this.settings = settings;
        this.when = when;
        this.rewrite = rewrite;
        this.reason = reason;
        this.fields = fields;
    }

    RuleSettings settings() {
        return settings;
    }

    /** Every field the condition, the rewrites and the reason read. */
    /** Whether the rule reads an inventory drift fact. */
    boolean readsDrift() {
        for (RuleField f : fields) {
            if (f.drift()) {
                return true;
            }
        }
        return false;
    }

    Set<RuleField> fields() {
        return fields;
    }

    /** Whether the condition holds for {@code view}. */
    boolean holds(Map<String, Object> view, long deadlineNanos) throws Failed {
        return Boolean.TRUE.equals(run("when", when, view, deadlineNanos));
    }

    /** {@code input} with each rewritten field replaced by its expression's value. */
    Map<String, Object> rewritten(Map<String, Object> view, Map<String, Object> input, long deadlineNanos) throws Failed {
        Map<String, Object> out = new LinkedHashMap<>(input);
        for (Map.Entry<String, CelRuntime.Program> e : rewrite.entrySet()) {
            out.put(e.getKey(), run("rewrite." + e.getKey(), e.getValue(), view, deadlineNanos));
        }
        return out;
    }

    /**
     * The reason for {@code view}: the template's, else one naming the rule and its action, except
     * that a rewrite without a reason says nothing.
     */
    String reason(String name, Map<String, Object> view) {
        if (reason != null) {
            return reason.render(view);
        }
        return settings.action() == RuleAction.REWRITE ? null : "rule " + name + " (" + settings.action().wire() + ")";
    }

    private static Object run(String key, CelRuntime.Program program, Map<String, Object> view, long deadlineNanos)
            throws Failed {
        Budget budget = new Budget(deadlineNanos);
        try {
            return program.trace(celValues(view), budget);
        } catch (Budget.Exceeded e) {
            throw new Failed(key + ": " + e.getMessage());
        } catch (CelEvaluationException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Budget.Exceeded) {
                throw new Failed(key + ": " + cause.getMessage());
            }
            throw new Failed(key + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new Failed(key + ": " + e);
        }
    }

    /** The view with JSON nulls as CEL's null, which the runtime reads in place of Java's. */
    private static Map<String, Object> celValues(Map<String, Object> view) {
        Object input = view.get(RuleField.TOOL_INPUT.wire());
        if (!(input instanceof Map<?, ?> m) || !holdsNull(m)) {
            return view;
        }
        Map<String, Object> out = new java.util.HashMap<>(view);
        out.put(RuleField.TOOL_INPUT.wire(), celValue(m));
        return out;
    }

    private static boolean holdsNull(Object value) {
        if (value == null) {
            return true;
        }
        if (value instanceof Map<?, ?> m) {
            for (Object v : m.values()) {
                if (holdsNull(v)) {
                    return true;
                }
            }
        } else if (value instanceof List<?> l) {
            for (Object v : l) {
                if (holdsNull(v)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Object celValue(Object value) {
        if (value == null) {
            return com.google.protobuf.NullValue.NULL_VALUE;
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                out.put(String.valueOf(e.getKey()), celValue(e.getValue()));
            }
            return out;
        }
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object v : l) {
                out.add(celValue(v));
            }
            return out;
        }
        return value;
    }

    /** Counts evaluation steps and watches the deadline, ending the evaluation past either. */
    private static final class Budget implements CelEvaluationListener {
        static final class Exceeded extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Exceeded(String message) {
                super(message, null, false, false);
            }
        }

        private final long deadlineNanos;
        private int steps;

        Budget(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public void callback(CelExpr expr, Object result) {
            if (++steps > MAX_STEPS) {
                throw new Exceeded("cost limit: more than " + MAX_STEPS + " evaluation steps");
            }
            if ((steps & 63) == 0 && System.nanoTime() - deadlineNanos > 0) {
                throw new Exceeded("deadline passed during evaluation");
            }
        }
    }
}
