package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAI Chat Completions, streamed, as Copilot CLI 1.0.102 calls it through its provider
 * settings: {@code POST /v1/chat/completions} with {@code stream: true} and
 * {@code stream_options.include_usage}, answered by {@code chat.completion.chunk} data lines (no
 * event names), a last chunk with empty {@code choices} and the usage, then {@code data: [DONE]}.
 *
 * <p>A tool call is one {@code delta.tool_calls[0]} chunk ({@code id}, {@code function.name},
 * {@code function.arguments} as a JSON string) and {@code finish_reason: "tool_calls"}. A spawn is
 * a call of Copilot's {@code task} tool ({@code {name, prompt, agent_type, description, mode}}). In
 * the request, model turns are runs of {@code assistant} messages between user and tool messages.
 */
final class OpenAiChatApi implements ModelApi {
    static final String SPAWN_TOOL = "task";

    @Override
    public String name() {
        return "openai-chat";
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public String path() {
        return "/v1/chat/completions";
    }

    /** The call id the host sees for a scripted call or spawn named {@code id}. */
    static String callId(String id) {
        return "call_" + id;
    }

    @Override
    public List<Entry> conversation(Map<String, Object> request) {
        List<Entry> out = new ArrayList<>();
        boolean inModelTurn = false;
        for (Object m : AnthropicMessagesApi.list(request.get("messages"))) {
            if (!(m instanceof Map<?, ?> message)) {
                continue;
            }
            Object role = message.get("role");
            if ("assistant".equals(role)) {
                if (!inModelTurn) {
                    out.add(Entry.MODEL_TURN);
                }
                inModelTurn = true;
            } else {
                inModelTurn = false;
                if ("user".equals(role)) {
                    String text = OpenAiResponsesApi.userText(message.get("content"));
                    if (!text.isEmpty()) {
                        out.add(Entry.user(text));
                    }
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
        StringBuilder sse = new StringBuilder();
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
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("name", spawn.id());
                args.put("prompt", spawn.prompt());
                args.put("agent_type", spawn.agentType());
                args.put("description", "scripted spawn " + spawn.id());
                args.put("mode", spawn.background() ? "background" : "sync");
                delta.put("content", null);
                delta.put("tool_calls", List.of(toolCall(callId(spawn.id()), SPAWN_TOOL, Json.write(args))));
                finish = "tool_calls";
                break;
            }
            default:
                throw new IllegalStateException("unhandled turn kind " + turn.kind());
        }
        data(sse, chunk(id, model, List.of(choice(delta, null)), null));
        data(sse, chunk(id, model, List.of(choice(Map.of(), finish)), null));
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", 10L);
        usage.put("completion_tokens", 10L);
        usage.put("total_tokens", 20L);
        data(sse, chunk(id, model, List.of(), usage));
        sse.append("data: [DONE]\n\n");
        return sse.toString();
    }

    private static void data(StringBuilder sse, Map<String, Object> chunk) {
        sse.append("data: ").append(Json.write(chunk)).append("\n\n");
    }

    private static Map<String, Object> chunk(String id, Object model, List<Object> choices, Map<String, Object> usage) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("object", "chat.completion.chunk");
        out.put("created", 0L);
        out.put("model", model);
        out.put("choices", choices);
        if (usage != null) {
            out.put("usage", usage);
        }
        return out;
    }

    private static Map<String, Object> choice(Map<String, Object> delta, String finish) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("index", 0L);
        out.put("delta", delta);
        out.put("finish_reason", finish);
        return out;
    }

    private static Map<String, Object> toolCall(String callId, String name, String arguments) {
        Map<String, Object> function = new LinkedHashMap<>();
        function.put("name", name);
        function.put("arguments", arguments);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("index", 0L);
        out.put("id", callId);
        out.put("type", "function");
        out.put("function", function);
        return out;
    }
}
