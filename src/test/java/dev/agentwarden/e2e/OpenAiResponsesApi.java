package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAI Responses API as the Codex CLI calls it through a custom provider
 * ({@code wire_api = "responses"}): {@code POST /v1/responses}, answered with a stream of
 * {@code response.created}; per output item {@code response.output_item.added},
 * {@code response.output_text.delta} (messages only), {@code response.output_item.done}; then
 * {@code response.completed} carrying every item and the usage.
 *
 * <p>A tool call is a {@code function_call} item ({@code call_id}, {@code name}, {@code arguments} as
 * a JSON string), e.g. {@code exec_command} with {@code {"cmd": …}}. A spawn is a call of Codex's
 * {@code spawn_agent} tool with {@code {"message": prompt}}; Codex subagents always run alongside
 * their parent, so {@link Turn.Spawn#background()} has no wire form here. In the request's
 * {@code input}, model turns are runs of output items (assistant messages, function calls,
 * reasoning) between user messages and tool outputs.
 */
final class OpenAiResponsesApi implements ModelApi {
    static final String SPAWN_TOOL = "spawn_agent";
    /** The tool namespace Codex 0.171.0 offers {@code spawn_agent} in; a call names it beside the tool. */
    static final String SPAWN_NAMESPACE = "multi_agent_v1";

    private static final Set<String> OUTPUT_ITEMS = Set.of("function_call", "custom_tool_call", "local_shell_call",
            "reasoning", "web_search_call");

    @Override
    public String name() {
        return "openai-responses";
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public String path() {
        return "/v1/responses";
    }

    /** The call id the host sees for a scripted call or spawn named {@code id}. */
    static String callId(String id) {
        return "call_" + id;
    }

    @Override
    public List<Entry> conversation(Map<String, Object> request) {
        List<Entry> out = new ArrayList<>();
        boolean inModelTurn = false;
        for (Object i : AnthropicMessagesApi.list(request.get("input"))) {
            if (!(i instanceof Map<?, ?> item)) {
                continue;
            }
            Object type = item.get("type") == null && item.get("role") != null ? "message" : item.get("type");
            boolean output = OUTPUT_ITEMS.contains(type) || ("message".equals(type) && "assistant".equals(item.get("role")));
            if (output) {
                if (!inModelTurn) {
                    out.add(Entry.MODEL_TURN);
                }
                inModelTurn = true;
            } else if ("message".equals(type)) {
                if ("user".equals(item.get("role"))) {
                    inModelTurn = false;
                    String text = userText(item.get("content"));
                    if (!text.isEmpty()) {
                        out.add(Entry.user(text));
                    }
                }
            } else {
                inModelTurn = false;
            }
        }
        return out;
    }

    @Override
    public boolean sideQuery(Map<String, Object> request) {
        return AnthropicMessagesApi.list(request.get("tools")).isEmpty();
    }

    @Override
    public String stream(Turn turn, Map<String, Object> request, int seq) {
        Object model = request.getOrDefault("model", "scripted");
        String responseId = "resp_e2e_" + seq;
        Sse sse = new Sse();
        int[] sequence = {0};
        Map<String, Object> created = response(responseId, model, "in_progress", List.of(), null);
        sse.event("response.created", event("response.created", sequence, "response", created));
        Map<String, Object> item;
        switch (turn.kind()) {
            case TEXT: {
                String text = ((Turn.Text) turn).text();
                String itemId = "msg_e2e_" + seq;
                sse.event("response.output_item.added", event("response.output_item.added", sequence,
                        "output_index", 0L, "item", message(itemId, "in_progress", List.of())));
                Map<String, Object> delta = event("response.output_text.delta", sequence, "item_id", itemId);
                delta.put("output_index", 0L);
                delta.put("content_index", 0L);
                delta.put("delta", text);
                sse.event("response.output_text.delta", delta);
                item = message(itemId, "completed",
                        List.of(Map.of("type", "output_text", "text", text, "annotations", List.of())));
                break;
            }
            case TOOL_CALL: {
                Turn.ToolCall call = (Turn.ToolCall) turn;
                item = functionCall(seq, callId(call.id()), call.tool(), Json.write(call.input()));
                sse.event("response.output_item.added", event("response.output_item.added", sequence,
                        "output_index", 0L, "item", functionCall(seq, callId(call.id()), call.tool(), "")));
                break;
            }
            case SPAWN: {
                Turn.Spawn spawn = (Turn.Spawn) turn;
                String arguments = Json.write(Map.of("message", spawn.prompt()));
                item = functionCall(seq, callId(spawn.id()), SPAWN_TOOL, arguments);
                item.put("namespace", SPAWN_NAMESPACE);
                Map<String, Object> added = functionCall(seq, callId(spawn.id()), SPAWN_TOOL, "");
                added.put("namespace", SPAWN_NAMESPACE);
                sse.event("response.output_item.added", event("response.output_item.added", sequence,
                        "output_index", 0L, "item", added));
                break;
            }
            default:
                throw new IllegalStateException("unhandled turn kind " + turn.kind());
        }
        sse.event("response.output_item.done", event("response.output_item.done", sequence,
                "output_index", 0L, "item", item));
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("input_tokens", 10L);
        usage.put("input_tokens_details", Map.of("cached_tokens", 0L));
        usage.put("output_tokens", 10L);
        usage.put("output_tokens_details", Map.of("reasoning_tokens", 0L));
        usage.put("total_tokens", 20L);
        sse.event("response.completed", event("response.completed", sequence,
                "response", response(responseId, model, "completed", List.of(item), usage)));
        return sse.toString();
    }

    private static Map<String, Object> event(String type, int[] sequence, Object... keyValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type);
        out.put("sequence_number", (long) sequence[0]++);
        for (int i = 0; i < keyValues.length; i += 2) {
            out.put((String) keyValues[i], keyValues[i + 1]);
        }
        return out;
    }

    private static Map<String, Object> response(String id, Object model, String status, List<Object> output,
                                                Map<String, Object> usage) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("object", "response");
        out.put("created_at", 0L);
        out.put("status", status);
        out.put("model", model);
        out.put("output", output);
        out.put("usage", usage);
        return out;
    }

    private static Map<String, Object> message(String id, String status, List<Object> content) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "message");
        out.put("id", id);
        out.put("role", "assistant");
        out.put("status", status);
        out.put("content", content);
        return out;
    }

    private static Map<String, Object> functionCall(int seq, String callId, String name, String arguments) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "function_call");
        out.put("id", "fc_e2e_" + seq);
        out.put("call_id", callId);
        out.put("name", name);
        out.put("arguments", arguments);
        out.put("status", arguments.isEmpty() ? "in_progress" : "completed");
        return out;
    }

    /** The text of a user message item: a string content, or its {@code input_text} parts. */
    static String userText(Object content) {
        if (content instanceof String s) {
            return s;
        }
        StringBuilder text = new StringBuilder();
        for (Object p : AnthropicMessagesApi.list(content)) {
            if (p instanceof Map<?, ?> part && ("input_text".equals(part.get("type")) || "text".equals(part.get("type")))
                    && part.get("text") instanceof String s) {
                text.append(s).append('\n');
            }
        }
        return text.toString();
    }
}
