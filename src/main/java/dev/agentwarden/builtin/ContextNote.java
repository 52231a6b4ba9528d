package dev.agentwarden.builtin;

import dev.agentwarden.concern.Concern;
import dev.agentwarden.concern.ConcernContext;
import dev.agentwarden.concern.ConcernResult;
import java.util.Map;

/**
 * Adds a fixed note for the model on every event it is bound to. Settings: {@code message} (none:
 * the concern emits nothing); {@code as: warn} (default) or {@code as: context}, where the note rides along as
 * plain context instead of a warning.
 */
final class ContextNote implements Concern {
    /**
     * @param message   the note
     * @param asContext plain context rather than a warning
     */
    record Settings(String message, boolean asContext) {
        static Settings parse(Map<String, Object> settings) {
            Object message = settings.get("message");
            if (message != null && (!(message instanceof String m) || m.isBlank())) {
                throw new IllegalArgumentException("message: must be a non-empty string, found " + message);
            }
            Object as = settings.getOrDefault("as", "warn");
            if (!"warn".equals(as) && !"context".equals(as)) {
                throw new IllegalArgumentException("as: must be warn or context, found " + as);
            }
            return new Settings((String) message, "context".equals(as));
        }
    }

    private final Settings settings;

    ContextNote(Settings settings) {
        this.settings = settings;
    }

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        if (settings.message() == null) {
            return ConcernResult.allow();
        }
        return settings.asContext() ? ConcernResult.allowWithContext(settings.message())
                : ConcernResult.warn(settings.message());
    }
}
