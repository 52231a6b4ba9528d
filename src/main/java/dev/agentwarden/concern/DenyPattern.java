package dev.agentwarden.concern;

import dev.agentwarden.json.Json;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Refuses an event whose subject matches a configured regular expression. Settings:
 * {@code patterns: [{match: <regex>, reason: <text>}]}. The subject is the shell command of a tool
 * call when it has one, else the tool input's JSON text, else the prompt
 * ({@code user_prompt_submit}), else the last assistant message ({@code stop}, {@code subagent_stop}).
 */
final class DenyPattern implements Concern {

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        String subject = subjectOf(context);
        if (subject == null || !(context.spec().settings().get("patterns") instanceof List<?> patterns)) {
            return ConcernResult.allow();
        }
        for (Object entry : patterns) {
            if (!(entry instanceof Map<?, ?> rule) || !(rule.get("match") instanceof String regex)) {
                continue;
            }
            try {
                if (Pattern.compile(regex).matcher(subject).find()) {
                    Object reason = rule.get("reason");
                    return ConcernResult.block(reason instanceof String r ? r : "matches denied pattern " + regex);
                }
            } catch (PatternSyntaxException e) {
                return ConcernResult.error("invalid pattern in settings: " + regex);
            }
        }
        return ConcernResult.allow();
    }

    private static String subjectOf(ConcernContext context) {
        Object input = context.event().toolInput();
        if (input != null) {
            String command = BlockNoVerify.commandOf(input);
            return command != null ? command : Json.write(input);
        }
        String prompt = context.event().payloadString("prompt");
        return prompt != null ? prompt : context.event().payloadString("last_assistant_message");
    }
}
