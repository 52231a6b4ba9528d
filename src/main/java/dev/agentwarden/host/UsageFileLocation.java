package dev.agentwarden.host;

/**
 * Where a host writes its usage records (model, token counts per call), and in which shape.
 *
 * @param format   the records' shape, which decides how they are read
 * @param clientId the client id a record of this host carries (the {@code --client-id} of {@code telemetry pin})
 * @param where    where the files are, as a person finds them
 */
public record UsageFileLocation(Format format, String clientId, String where) {

    /** The shapes of usage records Warden reads. */
    public enum Format {
        /**
         * JSONL transcript: a {@code user} line whose content is a prompt starts a turn of its {@code sessionId};
         * each {@code assistant} line carries {@code message.model}, {@code message.usage} and the client
         * {@code version}.
         */
        TRANSCRIPT,
        /** JSON event stream: {@code thread.started}, then {@code turn.started} and {@code turn.completed} with {@code usage}. */
        EVENT_STREAM,
        /**
         * Session events: envelopes {@code {id, timestamp, parentId, type, data}}; {@code session.start},
         * {@code user.message} and {@code assistant.usage}.
         */
        SESSION_EVENTS
    }
}
