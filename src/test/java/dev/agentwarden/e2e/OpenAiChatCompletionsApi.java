package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenAI Chat Completions API, streamed, as Copilot CLI (and Cline's openai-compatible provider) calls a bring-your-own provider
 * ({@code COPILOT_PROVIDER_BASE_URL}): {@code POST /v1/chat/completions} with
 * {@code stream: true} and {@code stream_options.include_usage}, answered with {@code data:} lines
 * of {@code chat.completion.chunk} objects (the role and content or the tool call, then the
 * {@code finish_reason}, then the usage with no choices) and {@code data: [DONE]}.
 *
 * <p>A tool call is {@code delta.tool_calls[{index, id, type: "function", function: {name,
 * arguments}}]} with {@code arguments} a JSON string, e.g. Copilot's {@code bash} with
 * {@code {"command": …, "description": …}}. A spawn is a call of Copilot's {@code task} tool with
 * {@code {name, prompt, agent_type, description, mode}} ({@code mode: "background"} for a background spawn). In the request's {@code messages},
 * each run of assistant messages is one model turn; a {@code tool} message ends it.
 */
final class OpenAiChatCompletionsApi implements ModelApi {
    static final String SPAWN_TOOL = "task";

    private final boolean clineSpawn;

    /** Copilot's wire: a spawn is a {@code task} call. */
    OpenAiChatCompletionsApi() {
        this(false);
    }

    private OpenAiChatCompletionsApi(boolean clineSpawn) {
        this.clineSpawn = clineSpawn;
    }

    /** Cline's wire: a spawn is a {@code spawn_agent} call with {@code {systemPrompt, task}}, the task being the spawn's prompt. */
    static OpenAiChatCompletionsApi cline() {
        return new OpenAiChatCompletionsApi(true);
    }

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
                    String text = text(message.get("content"));
                    if (!text.isEmpty()) {
                        out.add(Entry.user(text));
                    }
                }
            }
        }
        return out;
    }

    /** A message's text: the string, or its {@code text} parts joined. */
    static String text(Object content) {
        if (content instanceof String s) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        for (Object part : AnthropicMessagesApi.list(content)) {
            if (part instanceof Map<?, ?> p && p.get("text") instanceof String t) {
                sb.append(sb.length() == 0 ? "" : "\n").append(t);
            }
        }
        return sb.toString();
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
                if (clineSpawn) {
                    args.put("systemPrompt", "You are a helper.");
                    args.put("task", spawn.prompt());
                    delta.put("content", null);
                    delta.put("tool_calls", List.of(toolCall(callId(spawn.id()), "spawn_agent", Json.write(args))));
                    finish = "tool_calls";
                    break;
                }
                args.put("description", "scripted subagent " + spawn.id());
                args.put("prompt", spawn.prompt());
                args.put("agent_type", spawn.agentType());
                args.put("name", spawn.id());
                args.put("mode", spawn.background() ? "background" : "sync");
                delta.put("content", null);
                delta.put("tool_calls", List.of(toolCall(callId(spawn.id()), SPAWN_TOOL, Json.write(args))));
                finish = "tool_calls";
                break;
            }
            default:
                throw new IllegalStateException("unhandled turn kind " + turn.kind());
        }
        data(sse, chunk(id, model, List.of(choice(delta, null))));
        data(sse, chunk(id, model, List.of(choice(new LinkedHashMap<>(), finish))));
        Map<String, Object> usage = chunk(id, model, List.of());
        usage.put("usage", Map.of("prompt_tokens", 10L, "completion_tokens", 10L, "total_tokens", 20L));
        data(sse, usage);
        sse.append("data: [DONE]\n\n");
        return sse.toString();
    }

    private static Map<String, Object> toolCall(String callId, String name, String arguments) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("index", 0L);
        call.put("id", callId);
        call.put("type", "function");
        call.put("function", Map.of("name", name, "arguments", arguments));
        return call;
    }

    private static Map<String, Object> choice(Map<String, Object> delta, String finish) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("index", 0L);
        c.put("delta", delta);
        c.put("finish_reason", finish);
        return c;
    }

    private static Map<String, Object> chunk(String id, Object model, List<?> choices) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", id);
        c.put("object", "chat.completion.chunk");
        c.put("created", 1796108968L);
        c.put("model", model);
        c.put("choices", choices);
        return c;
    }

    private static void data(StringBuilder sse, Map<String, Object> data) {
        sse.append("data: ").append(Json.write(data)).append("\n\n");
    }
}
