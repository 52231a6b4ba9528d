package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenAI Chat Completions API, streamed, as OpenAI-compatible providers are called
 * ({@code POST /v1/chat/completions} with {@code stream: true}): answered with
 * {@code chat.completion.chunk} data lines, a last chunk with {@code finish_reason} ({@code stop}
 * or {@code tool_calls}), a usage chunk with no choices, then {@code data: [DONE]}.
 *
 * <p>A tool call is one {@code delta.tool_calls} entry ({@code id}, {@code function.name},
 * {@code function.arguments} as a JSON string). A spawn is a call of {@link #SPAWN_TOOL} with
 * {@code {"systemPrompt", "task": prompt}} (Cline's subagent tool). In the request's
 * {@code messages}, each assistant message is one model turn; user messages carry the prompt (a
 * string, or {@code text} parts), tool messages the results.
 */
final class OpenAiChatCompletionsApi implements ModelApi {
    static final String SPAWN_TOOL = "spawn_agent";

    @Override
    public String name() {
        return "openai-chat-completions";
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public String path() {
        return "/v1/chat/completions";
    }

    /** The tool-call id the host sees for a scripted call or spawn named {@code id}. */
    static String callId(String id) {
        return "call_" + id;
    }

    @Override
    public List<Entry> conversation(Map<String, Object> request) {
        List<Entry> out = new ArrayList<>();
        for (Object m : AnthropicMessagesApi.list(request.get("messages"))) {
            if (!(m instanceof Map<?, ?> message)) {
                continue;
            }
            if ("assistant".equals(message.get("role"))) {
                out.add(Entry.MODEL_TURN);
            } else if ("user".equals(message.get("role"))) {
                String text = OpenAiResponsesApi.userText(message.get("content"));
                if (!text.isEmpty()) {
                    out.add(Entry.user(text));
                }
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
        String id = "chatcmpl-e2e-" + seq;
        StringBuilder sse = new StringBuilder(1024);
        Map<String, Object> delta = new LinkedHashMap<>();
        delta.put("role", "assistant");
        String finish;
        switch (turn.kind()) {
            case TEXT:
                delta.put("content", ((Turn.Text) turn).text());
                finish = "stop";
                break;
            case TOOL_CALL: {
                Turn.ToolCall call = (Turn.ToolCall) turn;
                delta.put("content", null);
                delta.put("tool_calls", List.of(toolCall(callId(call.id()), call.tool(), Json.write(call.input()))));
                finish = "tool_calls";
                break;
            }
            case SPAWN: {
                Turn.Spawn spawn = (Turn.Spawn) turn;
                Map<String, Object> input = new LinkedHashMap<>();
                input.put("systemPrompt", "You are a helper.");
                input.put("task", spawn.prompt());
                delta.put("content", null);
                delta.put("tool_calls", List.of(toolCall(callId(spawn.id()), SPAWN_TOOL, Json.write(input))));
                finish = "tool_calls";
                break;
            }
            default:
                throw new IllegalStateException("unhandled turn kind " + turn.kind());
        }
        data(sse, chunk(id, model, delta, null));
        data(sse, chunk(id, model, new LinkedHashMap<>(), finish));
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", 10L);
        usage.put("completion_tokens", 10L);
        usage.put("total_tokens", 20L);
        Map<String, Object> last = new LinkedHashMap<>();
        last.put("id", id);
        last.put("object", "chat.completion.chunk");
        last.put("created", 0L);
        last.put("model", model);
        last.put("choices", List.of());
        last.put("usage", usage);
        data(sse, last);
        sse.append("data: [DONE]\n\n");
        return sse.toString();
    }

    private static Map<String, Object> toolCall(String callId, String name, String arguments) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", name);
        function.put("arguments", arguments);
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("index", 0L);
        call.put("id", callId);
        call.put("type", "function");
        call.put("function", function);
        return call;
    }

    private static Map<String, Object> chunk(String id, Object model, Map<String, Object> delta, String finish) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0L);
        choice.put("delta", delta);
        choice.put("finish_reason", finish);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("object", "chat.completion.chunk");
        out.put("created", 0L);
        out.put("model", model);
        out.put("choices", List.of(choice));
        return out;
    }

    private static void data(StringBuilder sse, Map<String, Object> value) {
        sse.append("data: ").append(Json.write(value)).append("\n\n");
    }
}
