package dev.agentwarden.e2e;

import dev.agentwarden.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Anthropic Messages API as Claude Code calls it: {@code POST /v1/messages?beta=true}, answered
 * with a stream of {@code message_start}; per content block {@code content_block_start},
 * {@code content_block_delta} ({@code text_delta} or {@code input_json_delta}),
 * {@code content_block_stop}; then {@code message_delta} with the stop reason and
 * {@code message_stop}.
 *
 * <p>Messages do not strictly alternate: Claude Code sends {@code role: "system"} messages in the
 * middle of the conversation (hook context, agent listings), so model turns are counted as runs of
 * assistant messages between user messages. A spawn is a call of the {@code Agent} tool (another
 * host's subagent tool where the constructor names one, as Qwen Code's {@code agent}).
 */
final class AnthropicMessagesApi implements ModelApi {
    /** Distinguishes this server's message ids from another session's, as the real API's ids are unique. */
    private final String idPrefix = "msg_e2e_" + Long.toHexString(System.nanoTime()) + "_";

    static final String SPAWN_TOOL = "Agent";

    private final String spawnTool;
    private final boolean foregroundExplicit;

    /** Claude Code's wire: spawns call {@code Agent}. */
    AnthropicMessagesApi() {
        this(SPAWN_TOOL, false);
    }

    /**
     * @param spawnTool          the tool a spawn calls (Claude Code's {@code Agent}, OpenCode's {@code task})
     * @param foregroundExplicit a foreground spawn says {@code run_in_background: false} (hosts whose
     *                           subagents run in the background unless told otherwise)
     */
    AnthropicMessagesApi(String spawnTool, boolean foregroundExplicit) {
        this.spawnTool = spawnTool;
        this.foregroundExplicit = foregroundExplicit;
    }

    @Override
    public String name() {
        return "anthropic-messages";
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public String path() {
        return "/v1/messages";
    }

    /** The tool-use id the host sees for a scripted call or spawn named {@code id}. */
    static String toolUseId(String id) {
        return "toolu_" + id;
    }

    @Override
    public List<Entry> conversation(Map<String, Object> request) {
        List<Entry> out = new ArrayList<>();
        boolean inModelTurn = false;
        for (Object m : list(request.get("messages"))) {
            if (!(m instanceof Map<?, ?> message)) {
                continue;
            }
            Object role = message.get("role");
            if ("assistant".equals(role)) {
                if (!inModelTurn) {
                    out.add(Entry.MODEL_TURN);
                }
                inModelTurn = true;
            } else if ("user".equals(role)) {
                inModelTurn = false;
                String text = userText(message.get("content"));
                if (!text.isEmpty()) {
                    out.add(Entry.user(text));
                }
            }
        }
        return out;
    }

    @Override
    public boolean sideQuery(Map<String, Object> request) {
        return list(request.get("tools")).isEmpty();
    }

    @Override
    public String stream(Turn turn, Map<String, Object> request, int seq) {
        Sse sse = new Sse();
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", idPrefix + seq);
        message.put("type", "message");
        message.put("role", "assistant");
        message.put("model", request.getOrDefault("model", "scripted"));
        message.put("content", List.of());
        message.put("stop_reason", null);
        message.put("stop_sequence", null);
        message.put("usage", Map.of("input_tokens", 10L, "output_tokens", 1L));
        sse.event("message_start", Map.of("type", "message_start", "message", message));
        String stopReason;
        switch (turn.kind()) {
            case TEXT:
                textBlock(sse, ((Turn.Text) turn).text());
                stopReason = "end_turn";
                break;
            case TOOL_CALL: {
                Turn.ToolCall call = (Turn.ToolCall) turn;
                toolUseBlock(sse, toolUseId(call.id()), call.tool(), call.input());
                stopReason = "tool_use";
                break;
            }
            case SPAWN: {
                Turn.Spawn spawn = (Turn.Spawn) turn;
                Map<String, Object> input = new LinkedHashMap<>();
                input.put("description", "scripted subagent " + spawn.id());
                input.put("prompt", spawn.prompt());
                input.put("subagent_type", spawn.agentType());
                if (spawn.background() || foregroundExplicit) {
                    input.put("run_in_background", spawn.background());
                }
                toolUseBlock(sse, toolUseId(spawn.id()), spawnTool, input);
                stopReason = "tool_use";
                break;
            }
            default:
                throw new IllegalStateException("unhandled turn kind " + turn.kind());
        }
        Map<String, Object> delta = new LinkedHashMap<>();
        delta.put("stop_reason", stopReason);
        delta.put("stop_sequence", null);
        sse.event("message_delta", Map.of("type", "message_delta", "delta", delta,
                "usage", Map.of("output_tokens", 10L)));
        sse.event("message_stop", Map.of("type", "message_stop"));
        return sse.toString();
    }

    private static void textBlock(Sse sse, String text) {
        sse.event("content_block_start", Map.of("type", "content_block_start", "index", 0L,
                "content_block", Map.of("type", "text", "text", "")));
        sse.event("content_block_delta", Map.of("type", "content_block_delta", "index", 0L,
                "delta", Map.of("type", "text_delta", "text", text)));
        sse.event("content_block_stop", Map.of("type", "content_block_stop", "index", 0L));
    }

    /** A tool_use block whose input arrives in two {@code input_json_delta} pieces, as the real API splits it. */
    private static void toolUseBlock(Sse sse, String id, String name, Map<String, Object> input) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("type", "tool_use");
        block.put("id", id);
        block.put("name", name);
        block.put("input", Map.of());
        sse.event("content_block_start", Map.of("type", "content_block_start", "index", 0L, "content_block", block));
        String json = Json.write(input);
        int cut = json.length() / 2;
        for (String piece : new String[] {json.substring(0, cut), json.substring(cut)}) {
            sse.event("content_block_delta", Map.of("type", "content_block_delta", "index", 0L,
                    "delta", Map.of("type", "input_json_delta", "partial_json", piece)));
        }
        sse.event("content_block_stop", Map.of("type", "content_block_stop", "index", 0L));
    }

    /** The text of a user message: a string content, or its text blocks (tool results excluded). */
    static String userText(Object content) {
        if (content instanceof String s) {
            return s;
        }
        StringBuilder text = new StringBuilder();
        for (Object b : list(content)) {
            if (b instanceof Map<?, ?> block && "text".equals(block.get("type")) && block.get("text") instanceof String s) {
                text.append(s).append('\n');
            }
        }
        return text.toString();
    }

    static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    /** The text of the first {@code tool_result} a host sent in {@code steps} for the scripted call {@code scriptedId}. */
    static Optional<String> toolResult(List<ScriptedModelServer.Exchange> steps, String scriptedId) {
        String id = toolUseId(scriptedId);
        for (ScriptedModelServer.Exchange e : steps) {
            for (Object m : list(e.body().get("messages"))) {
                if (!(m instanceof Map<?, ?> message)) {
                    continue;
                }
                for (Object b : list(message.get("content"))) {
                    if (b instanceof Map<?, ?> block && "tool_result".equals(block.get("type"))
                            && id.equals(block.get("tool_use_id"))) {
                        Object content = block.get("content");
                        return Optional.of(content instanceof String s ? s : userText(content).strip());
                    }
                }
            }
        }
        return Optional.empty();
    }
}
