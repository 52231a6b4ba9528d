package dev.agentwarden.concern;

import dev.agentwarden.json.Json;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Refuses a tool call whose input matches a configured regular expression. Settings:
 * {@code patterns: [{match: <regex>, reason: <text>}]}. The shell command is matched when the
 * input has one, otherwise the tool input's JSON text.
 */
final class DenyPattern implements Concern {

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        Object input = context.event().toolInput();
        if (input == null) {
            return ConcernResult.allow();
        }
        String command = BlockNoVerify.commandOf(input);
        String subject = command != null ? command : Json.write(input);
        if (!(context.spec().settings().get("patterns") instanceof List<?> patterns)) {
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
}
