package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import dev.agentwarden.event.HookEvent;
import dev.agentwarden.json.Json;

/**
 * Refuses an event whose subject matches a configured regular expression. Settings:
 * {@link DenyRules}, compiled when the manifest is compiled and again once per loaded manifest. The subject is the shell command of a tool
 * call when it has one, else the tool input's JSON text, else the prompt
 * ({@code user_prompt_submit}), else the last assistant message ({@code stop}, {@code subagent_stop}).
 */
final class DenyPattern implements Concern {
    private final DenyRules rules;

    DenyPattern(DenyRules rules) {
        this.rules = rules;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        String subject = subjectOf(context);
        if (subject == null) {
            return ConcernResult.allow();
        }
        for (DenyRules.Rule rule : rules.rules()) {
            if (rule.pattern().matcher(subject).find()) {
                return ConcernResult.block(rule.reason() != null ? rule.reason()
                        : "matches denied pattern " + rule.pattern().pattern());
            }
        }
        return ConcernResult.allow();
    }

    private static String subjectOf(ConcernContext context) {
        HookEvent event = context.event();
        if (event.toolInput() != null) {
            return event.shellCommand() != null ? event.shellCommand() : Json.write(event.toolInput());
        }
        return event.prompt() != null ? event.prompt() : event.lastAssistantMessage();
    }
}
