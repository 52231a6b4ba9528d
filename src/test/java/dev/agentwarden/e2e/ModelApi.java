package dev.agentwarden.e2e;

import java.util.List;
import java.util.Map;

/**
 * One model API's wire form, as a {@link ScriptedModelServer} speaks it: where requests arrive, how a
 * request's conversation reads, and how a scripted turn streams back.
 */
interface ModelApi {

    /** Short name for reports, e.g. {@code anthropic-messages}. */
    String name();

    /** The request path the API answers (the query string is ignored); everything else is 404. */
    String path();

    /**
     * The request's conversation in order, reduced to what picks the next step: the text of each
     * user message, and one {@link Entry#modelTurn()} entry per run of model output.
     */
    List<Entry> conversation(Map<String, Object> request);

    /** Whether the request is a host side query (no tools offered), not a step of a conversation. */
    boolean sideQuery(Map<String, Object> request);

    /** The SSE body that plays {@code turn} as the answer to request number {@code seq}. */
    String stream(Turn turn, Map<String, Object> request, int seq);

    /**
     * The JSON a {@code POST} to {@code path} (other than {@link #path}) is answered with, or
     * {@code null} for 404: a backend the host asks for its configuration before any model call.
     */
    default String fixedAnswer(String path) {
        return null;
    }

    /** The {@code Content-Type} of a streamed answer. */
    default String streamContentType() {
        return "text/event-stream";
    }

    /** A user message's text ({@code modelTurn == false}) or one model turn. */
    record Entry(boolean modelTurn, String userText) {
        static final Entry MODEL_TURN = new Entry(true, "");

        static Entry user(String text) {
            return new Entry(false, text);
        }
    }
}
