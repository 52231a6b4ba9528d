package dev.agentwarden.e2e;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gemini's {@code streamGenerateContent} as Gemini CLI 0.61.0 calls it with
 * {@code GOOGLE_GEMINI_BASE_URL}: {@code POST /v1beta/models/<model>:streamGenerateContent?alt=sse},
 * answered with one SSE {@code data:} event holding a candidate whose content is the turn's parts
 * ({@code text}, or a {@code functionCall{name,args}}), {@code finishReason: STOP} and the usage.
 *
 * <p>A spawn is a call of the {@code invoke_agent} tool ({@code {agent_name, prompt}}), whose child
 * runs a conversation of its own starting with the prompt; the child ends by calling
 * {@code complete_task} with {@code {result: {response}}}. In the request's {@code contents}, model
 * turns are {@code role: "model"} entries; tool results come back as user {@code functionResponse} parts.
 */
final class GeminiGenerateContentApi implements ModelApi {
    static final String MODEL = "gemini-2.5-flash";
    static final String SPAWN_TOOL = "invoke_agent";

    @Override
    public String name() {
        return "gemini-stream-generate-content";
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public String path() {
        return "/v1beta/models/" + MODEL + ":streamGenerateContent";
    }

    @Override
    public List<Entry> conversation(Map<String, Object> request) {
        List<Entry> out = new ArrayList<>();
        boolean inModelTurn = false;
        for (Object c : AnthropicMessagesApi.list(request.get("contents"))) {
            if (!(c instanceof Map<?, ?> content)) {
                continue;
            }
            if ("model".equals(content.get("role"))) {
                if (!inModelTurn) {
                    out.add(Entry.MODEL_TURN);
                }
                inModelTurn = true;
                continue;
            }
            inModelTurn = false;
            StringBuilder text = new StringBuilder();
            for (Object p : AnthropicMessagesApi.list(content.get("parts"))) {
                if (p instanceof Map<?, ?> part && part.get("text") instanceof String s) {
                    text.append(s).append('\n');
                }
            }
            if (text.length() > 0) {
                out.add(Entry.user(text.toString()));
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
        Map<String, Object> part = new LinkedHashMap<>();
        switch (turn.kind()) {
            case TEXT:
                part.put("text", ((Turn.Text) turn).text());
                break;
            case TOOL_CALL: {
                Turn.ToolCall call = (Turn.ToolCall) turn;
                part.put("functionCall", functionCall(call.id(), call.tool(), call.input()));
                break;
            }
            case SPAWN: {
                Turn.Spawn spawn = (Turn.Spawn) turn;
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("agent_name", spawn.agentType());
                args.put("prompt", spawn.prompt());
                part.put("functionCall", functionCall(spawn.id(), SPAWN_TOOL, args));
                break;
            }
            default:
                throw new IllegalStateException("unhandled turn kind " + turn.kind());
        }
        Map<String, Object> content = new LinkedHashMap<>();
        content.put("role", "model");
        content.put("parts", List.of(part));
        Map<String, Object> candidate = new LinkedHashMap<>();
        candidate.put("content", content);
        candidate.put("finishReason", "STOP");
        candidate.put("index", 0L);
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("promptTokenCount", 100L);
        usage.put("candidatesTokenCount", 10L);
        usage.put("totalTokenCount", 110L);
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("candidates", List.of(candidate));
        chunk.put("usageMetadata", usage);
        chunk.put("modelVersion", MODEL);
        return "data: " + dev.agentwarden.json.Json.write(chunk) + "\r\n\r\n";
    }

    private static Map<String, Object> functionCall(String id, String name, Map<String, Object> args) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("id", "call_" + id);
        call.put("name", name);
        call.put("args", args);
        return call;
    }

    /**
     * The {@code response} of the {@code functionResponse} the host sent for the scripted call
     * {@code id} (matched by the call id, else by name), as JSON text, or {@code null}.
     */
    static String toolResult(List<ScriptedModelServer.Exchange> steps, String id, String tool) {
        for (ScriptedModelServer.Exchange e : steps) {
            for (Object c : AnthropicMessagesApi.list(e.body().get("contents"))) {
                if (!(c instanceof Map<?, ?> content)) {
                    continue;
                }
                for (Object p : AnthropicMessagesApi.list(content.get("parts"))) {
                    if (p instanceof Map<?, ?> part && part.get("functionResponse") instanceof Map<?, ?> r
                            && (("call_" + id).equals(r.get("id")) || (r.get("id") == null && tool.equals(r.get("name"))))) {
                        return dev.agentwarden.json.Json.write(r.get("response"));
                    }
                }
            }
        }
        return null;
    }
}
