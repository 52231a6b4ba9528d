package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A mock of Augment's tenant backend as Auggie 0.36.0 calls it (hosts.md, "Augment Auggie CLI"):
 * {@code POST /get-models} is answered with one model and {@code feature_flags.enable_hooks: true}
 * (without it Auggie runs no hook), {@code POST /chat-stream} plays the script as newline-delimited
 * JSON, the tenant's and the user's MCP server lists are empty ({@code mcp_configs: []}: a 404 there
 * costs each session 1.5 s of Auggie's retries, 500 ms then 1 s), and every other path (remote tools,
 * {@code find-missing}) is a 404, which Auggie tolerates.
 *
 * <p>A chat request carries the turns so far in {@code chat_history} (each a user's
 * {@code request_nodes} and the model's {@code response_nodes}) and the new turn's {@code nodes}:
 * the prompt as a text node ({@code type 0}), tool results as {@code tool_result_node}s
 * ({@code type 1}). An answer line is {@code {"text", "nodes", "stop_reason"}} with a text node
 * ({@code type 0}) or a tool call ({@code type 5}, {@code tool_use{tool_use_id, tool_name,
 * input_json}}); {@code stop_reason} 3 asks for the tool's result, 1 ends the turn.
 */
final class AugmentBackendApi implements ModelApi {
    static final String MODEL = "mock-model";

    @Override
    public String name() {
        return "augment-backend";
    }

    @Override
    public String toString() {
        return name();
    }

    /** Where Auggie asks for the tenant's and the user's MCP servers, retrying a failure twice. */
    private static final List<String> MCP_CONFIGS = List.of("/settings/get-mcp-tenant-configs",
            "/settings/get-mcp-user-configs");

    @Override
    public String path() {
        return "/chat-stream";
    }

    @Override
    public String fixedAnswer(String path) {
        if (MCP_CONFIGS.contains(path)) {
            return Json.write(Map.of("mcp_configs", List.of()));
        }
        if (!"/get-models".equals(path)) {
            return null;
        }
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("name", MODEL);
        model.put("suggested_prefix_char_count", 100L);
        model.put("suggested_suffix_char_count", 100L);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("default_model", MODEL);
        answer.put("models", List.of(model));
        answer.put("languages", List.of());
        answer.put("feature_flags", Map.of("enable_hooks", Boolean.TRUE));
        return Json.write(answer);
    }

    @Override
    public String streamContentType() {
        return "application/json";
    }

    @Override
    public List<Entry> conversation(Map<String, Object> request) {
        List<Entry> out = new ArrayList<>();
        for (Object h : AnthropicMessagesApi.list(request.get("chat_history"))) {
            if (h instanceof Map<?, ?> exchange) {
                addUser(out, exchange.get("request_message"), exchange.get("request_nodes"));
                out.add(Entry.MODEL_TURN);
            }
        }
        addUser(out, request.get("message"), request.get("nodes"));
        return out;
    }

    private static void addUser(List<Entry> out, Object message, Object nodes) {
        StringBuilder text = new StringBuilder(message instanceof String s ? s : "");
        for (Object n : AnthropicMessagesApi.list(nodes)) {
            if (n instanceof Map<?, ?> node && node.get("text_node") instanceof Map<?, ?> t
                    && t.get("content") instanceof String s) {
                text.append(s);
            }
        }
        if (!text.isEmpty()) {
            out.add(Entry.user(text.toString()));
        }
    }

    @Override
    public boolean sideQuery(Map<String, Object> request) {
        return AnthropicMessagesApi.list(request.get("tool_definitions")).isEmpty();
    }

    @Override
    public String stream(Turn turn, Map<String, Object> request, int seq) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("id", 1L);
        Map<String, Object> line = new LinkedHashMap<>();
        if (turn instanceof Turn.ToolCall call) {
            node.put("type", 5L);
            node.put("content", "");
            Map<String, Object> use = new LinkedHashMap<>();
            use.put("tool_use_id", toolUseId(call.id()));
            use.put("tool_name", call.tool());
            use.put("input_json", Json.write(call.input()));
            node.put("tool_use", use);
            line.put("text", "");
            line.put("nodes", List.of(node));
            line.put("stop_reason", 3L);
        } else {
            String text = turn instanceof Turn.Text t ? t.text() : "[augment mock] unsupported turn " + turn;
            node.put("type", 0L);
            node.put("content", text);
            line.put("text", text);
            line.put("nodes", List.of(node));
            line.put("stop_reason", 1L);
        }
        return Json.write(line) + "\n";
    }

    /** The tool-use id the host sees for a scripted call named {@code id}. */
    static String toolUseId(String id) {
        return "toolu_" + id;
    }

    /** The content of the {@code tool_result_node} a request (or its history) carries for {@code toolUseId}, or null. */
    static String toolResult(Map<String, Object> request, String toolUseId) {
        List<Object> nodes = new ArrayList<>(AnthropicMessagesApi.list(request.get("nodes")));
        for (Object h : AnthropicMessagesApi.list(request.get("chat_history"))) {
            if (h instanceof Map<?, ?> exchange) {
                nodes.addAll(AnthropicMessagesApi.list(exchange.get("request_nodes")));
            }
        }
        for (Object n : nodes) {
            if (n instanceof Map<?, ?> node && node.get("tool_result_node") instanceof Map<?, ?> r
                    && toolUseId.equals(r.get("tool_use_id")) && r.get("content") instanceof String s) {
                return s;
            }
        }
        return null;
    }

    /** The content of the first {@code tool_result_node} a host sent in {@code steps} for the scripted call {@code scriptedId}. */
    static Optional<String> toolResult(List<ScriptedModelServer.Exchange> steps, String scriptedId) {
        String id = toolUseId(scriptedId);
        for (ScriptedModelServer.Exchange e : steps) {
            String content = toolResult(e.body(), id);
            if (content != null) {
                return Optional.of(content);
            }
        }
        return Optional.empty();
    }
}
