package dev.agentwarden.rule;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Escalation;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.strike.Strikes;
import java.util.Map;

/**
 * A rule run as a concern: evaluates its condition over the event's {@link RuleView} and, when it
 * holds, answers its action with its reason. An evaluation that fails or passes its limits is an
 * error result, so the concern's fail mode decides and dispatch says so on stderr.
 */
final class RuleConcern implements Concern {
    /** Longest one evaluation may take, whatever the concern's {@code timeout_ms}. */
    static final long MAX_EVALUATION_MS = 100;
    private final CompiledRule rule;

    RuleConcern(CompiledRule rule) {
        this.rule = rule;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        long deadline = System.nanoTime() + Math.min(MAX_EVALUATION_MS, context.spec().timeoutMs()) * 1_000_000L;
        Map<String, Object> view = RuleView.values(context.event());
        String name = context.spec().name();
        try {
            if (rule.readsDrift()) {
                McpDrift.fill(view, context.event(), rule.settings().prereg(), context.stateHome());
            }
            if (rule.fields().contains(RuleField.SESSION_STRIKES) && !Replay.active(context.env())) {
                Escalation escalate = context.spec().escalate();
                long window = escalate == null ? Strikes.DEFAULT_WINDOW_MS : escalate.withinMs();
                try {
                    view.put(RuleField.SESSION_STRIKES.wire(), (long) Strikes.count(context.stateHome(),
                            context.event().sessionId(), context.clock().millis(), window));
                } catch (Strikes.Failed e) {
                    throw new CompiledRule.Failed("session.strikes: " + e.getMessage());
                }
            }
            if (!rule.holds(view, deadline)) {
                return ConcernResult.allow();
            }
            String reason = rule.reason(name, view);
            switch (rule.settings().action()) {
                case DENY:
                    return ConcernResult.block(reason);
                case ASK:
                    return ConcernResult.ask(reason);
                case WARN:
                    return ConcernResult.warn(reason);
                case HALT:
                    return ConcernResult.halt(reason);
                case REWRITE:
                    @SuppressWarnings("unchecked")
                    Map<String, Object> input = (Map<String, Object>) view.get(RuleField.TOOL_INPUT.wire());
                    return ConcernResult.rewrite(rule.rewritten(view, input, deadline), reason);
                case ALLOW:
                default:
                    return ConcernResult.allow();
            }
        } catch (CompiledRule.Failed e) {
            return ConcernResult.error("rule evaluation failed: " + e.getMessage());
        }
    }
}
