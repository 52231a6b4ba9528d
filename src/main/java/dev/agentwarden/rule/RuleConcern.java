package dev.agentwarden.rule;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.concern.Escalation;
import dev.agentwarden.concern.Replay;
import dev.agentwarden.event.McpToolName;
import dev.agentwarden.strike.Strikes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A rule run as a concern: evaluates its condition over the event's {@link RuleView} and, when it
 * holds, answers its action with its reason. An evaluation that fails or passes its limits is an
 * error result, so the concern's fail mode decides and dispatch says so on stderr. An MCP tool the
 * host reads two ways ({@link dev.agentwarden.event.HookEvent#mcpReadings}: its own naming and the
 * tool name disagree) is evaluated once per reading its tool filter matches, and the rule fires with
 * the first reading under which its condition holds: a rule either reading matches is never skipped.
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
        List<McpToolName> readings = readings(context);
        McpToolName first = readings.isEmpty() ? null : readings.get(0);
        Map<String, Object> view = RuleView.values(context.event(), first);
        String name = context.spec().name();
        try {
            if (rule.readsDrift()) {
                McpDrift.fill(view, context.event(), first, rule.settings().prereg(), context.stateHome());
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
            boolean holds = rule.holds(view, deadline);
            for (int i = 1; !holds && i < readings.size(); i++) {
                view = RuleView.withMcp(view, readings.get(i));
                if (rule.readsDrift()) {
                    McpDrift.fill(view, context.event(), readings.get(i), rule.settings().prereg(), context.stateHome());
                }
                holds = rule.holds(view, deadline);
            }
            if (!holds) {
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

    /**
     * The event's MCP readings this rule is evaluated under: of two or more, those its tool filter
     * matches (the concern runs because one does), so a rule reads the reading it was bound to.
     */
    private static List<McpToolName> readings(ConcernContext context) {
        List<McpToolName> all = context.event().mcpNames();
        if (all.size() < 2) {
            return all;
        }
        List<McpToolName> out = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            if (context.spec().appliesToMcp(context.event().toolName(), all.get(i))) {
                out.add(all.get(i));
            }
        }
        return out.isEmpty() ? all : out;
    }
}
