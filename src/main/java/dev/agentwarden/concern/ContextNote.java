package dev.agentwarden.concern;

/**
 * Adds a fixed note for the model on every event it is bound to. Settings: {@code message}. With
 * {@code as: context} the note rides along as plain context instead of a warning.
 */
final class ContextNote implements Concern {

    @Override
    public ConcernResult evaluate(ConcernContext context) {
        String message = context.spec().setting("message", null);
        if (message == null || message.isEmpty()) {
            return ConcernResult.allow();
        }
        return "context".equals(context.spec().setting("as", "warn"))
                ? ConcernResult.allowWithContext(message)
                : ConcernResult.warn(message);
    }
}
