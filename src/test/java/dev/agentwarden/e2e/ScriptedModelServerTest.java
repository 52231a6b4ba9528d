package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The scripted model servers, both APIs, driven over real HTTP on loopback. */
class ScriptedModelServerTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static final ModelScript SCRIPT = ModelScript.of(
            Turn.tool("first", "Bash", Map.of("command", "touch marker", "description", "d")),
            Turn.spawn("helper", "SUBTASK-7: count files", "general-purpose",
                    Turn.tool("sub_ls", "Bash", Map.of("command", "ls")),
                    Turn.text("SUB-DONE")),
            Turn.text("ALL-DONE"));

    private static final List<Object> TOOLS = List.of(Map.of("name", "Bash"));

    // ---- Anthropic Messages API ------------------------------------------------------------

    @Test
    void messages_firstRequest_streamsToolUseInProtocolOrder() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/messages?beta=true",
                    messages(user("please touch a marker")));

            assertThat(events).extracting(Sse.Event::name).containsExactly("message_start", "content_block_start",
                    "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
            Map<?, ?> block = (Map<?, ?>) events.get(1).data().get("content_block");
            assertThat(block.get("type")).isEqualTo("tool_use");
            assertThat(block.get("id")).isEqualTo("toolu_first");
            assertThat(block.get("name")).isEqualTo("Bash");
            assertThat(Json.parseObject(partialJson(events)))
                    .isEqualTo(Map.of("command", "touch marker", "description", "d"));
            assertThat(((Map<?, ?>) events.get(5).data().get("delta")).get("stop_reason")).isEqualTo("tool_use");
            assertThat(server.steps()).singleElement()
                    .satisfies(e -> assertThat(e.route()).isEqualTo("main"))
                    .satisfies(e -> assertThat(e.step()).isZero());
            assertThat(server.problems()).isEmpty();
        }
    }

    @Test
    void messages_systemMessagesMidConversation_doNotBreakTurnCounting() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/messages", messages(
                    user("please touch a marker"),
                    Map.of("role", "system", "content", "SessionStart hook additional context: x"),
                    assistantToolUse("toolu_first"),
                    Map.of("role", "user", "content", List.of(Map.of("type", "tool_result",
                            "tool_use_id", "toolu_first", "content", "ok"))),
                    Map.of("role", "system", "content", "PostToolUse context"),
                    assistantToolUse("toolu_helper"),
                    Map.of("role", "system", "content", "agent listing"),
                    Map.of("role", "user", "content", List.of(Map.of("type", "tool_result",
                            "tool_use_id", "toolu_helper", "content", "SUB-DONE")))));

            assertThat(text(events)).isEqualTo("ALL-DONE");
            assertThat(((Map<?, ?>) events.get(events.size() - 2).data().get("delta")).get("stop_reason"))
                    .isEqualTo("end_turn");
            assertThat(server.steps()).singleElement().satisfies(e -> assertThat(e.step()).isEqualTo(2));
        }
    }

    @Test
    void messages_spawnTurn_isAgentToolUseWithThePrompt() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/messages", messages(user("go"), assistantToolUse("toolu_first"),
                    Map.of("role", "user", "content", List.of(Map.of("type", "tool_result", "tool_use_id", "toolu_first",
                            "content", "done")))));

            Map<?, ?> block = (Map<?, ?>) events.get(1).data().get("content_block");
            assertThat(block.get("name")).isEqualTo("Agent");
            assertThat(block.get("id")).isEqualTo("toolu_helper");
            assertThat(Json.parseObject(partialJson(events))).containsEntry("prompt", "SUBTASK-7: count files")
                    .containsEntry("subagent_type", "general-purpose").doesNotContainKey("run_in_background");
        }
    }

    @Test
    void messages_subagentConversation_followsTheSpawnsTurns() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT)) {
            Map<String, Object> first = user("<system-reminder>date</system-reminder>", "SUBTASK-7: count files");
            List<Sse.Event> step0 = post(server, "/v1/messages", messages(first));
            List<Sse.Event> step1 = post(server, "/v1/messages", messages(first, assistantToolUse("toolu_sub_ls"),
                    Map.of("role", "user", "content", List.of(Map.of("type", "tool_result", "tool_use_id", "toolu_sub_ls",
                            "content", "a b")))));

            assertThat(((Map<?, ?>) step0.get(1).data().get("content_block")).get("id")).isEqualTo("toolu_sub_ls");
            assertThat(text(step1)).isEqualTo("SUB-DONE");
            assertThat(server.steps()).extracting(ScriptedModelServer.Exchange::route).containsExactly("helper", "helper");
        }
    }

    @Test
    void messages_sideQueryWithoutTools_isAnsweredWithoutTakingAStep() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT)) {
            Map<String, Object> body = Json.object();
            body.put("model", "m");
            body.put("messages", List.of(user("summarise the title")));
            List<Sse.Event> events = Sse.parse(send(server, "POST", "/v1/messages", Json.write(body), false).body());

            assertThat(text(events)).isEqualTo("ok");
            assertThat(server.steps()).isEmpty();
            assertThat(server.exchanges()).singleElement().satisfies(e -> assertThat(e.route()).isEqualTo("side"));
        }
    }

    @Test
    void messages_gzipBody_isRead() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), SCRIPT)) {
            HttpResponse<String> response = send(server, "POST", "/v1/messages", Json.write(messages(user("go"))), true);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(server.steps()).hasSize(1);
        }
    }

    // ---- OpenAI Responses API ----------------------------------------------------------------

    private static final ModelScript CODEX_SCRIPT = ModelScript.of(
            Turn.tool("first", "exec_command", Map.of("cmd", "touch marker")),
            Turn.spawn("helper", "SUBTASK-9: run ls", null,
                    Turn.tool("sub_ls", "exec_command", Map.of("cmd", "ls")),
                    Turn.text("SUB-DONE")),
            Turn.text("ALL-DONE"));

    @Test
    @SuppressWarnings("unchecked")
    void responses_firstRequest_streamsFunctionCallInProtocolOrder() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), CODEX_SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/responses", responses(userItem("touch a marker")));

            assertThat(events).extracting(Sse.Event::name).containsExactly("response.created",
                    "response.output_item.added", "response.output_item.done", "response.completed");
            assertThat(events).allSatisfy(e -> assertThat(e.data().get("type")).isEqualTo(e.name()));
            Map<?, ?> item = (Map<?, ?>) events.get(2).data().get("item");
            assertThat(item.get("type")).isEqualTo("function_call");
            assertThat(item.get("call_id")).isEqualTo("call_first");
            assertThat(item.get("name")).isEqualTo("exec_command");
            assertThat(Json.parseObject((String) item.get("arguments"))).isEqualTo(Map.of("cmd", "touch marker"));
            Map<?, ?> completed = (Map<?, ?>) events.get(3).data().get("response");
            assertThat(completed.get("status")).isEqualTo("completed");
            assertThat((List<Object>) completed.get("output")).containsExactly(item);
            assertThat(((Map<?, ?>) completed.get("usage")).get("total_tokens")).isEqualTo(20L);
        }
    }

    @Test
    void responses_textTurn_streamsDeltaThenCompletedMessage() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), CODEX_SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/responses", responses(
                    userItem("touch a marker"),
                    Map.of("type", "reasoning", "summary", List.of()),
                    Map.of("type", "function_call", "call_id", "call_first", "name", "exec_command", "arguments", "{}"),
                    Map.of("type", "function_call_output", "call_id", "call_first", "output", "ok"),
                    Map.of("type", "function_call", "call_id", "call_helper", "name", "spawn_agent", "arguments", "{}"),
                    Map.of("type", "function_call_output", "call_id", "call_helper", "output", "{}")));

            assertThat(events).extracting(Sse.Event::name).containsExactly("response.created",
                    "response.output_item.added", "response.output_text.delta", "response.output_item.done",
                    "response.completed");
            assertThat(events.get(2).data().get("delta")).isEqualTo("ALL-DONE");
            Map<?, ?> item = (Map<?, ?>) events.get(3).data().get("item");
            assertThat(item.get("role")).isEqualTo("assistant");
            assertThat((List<?>) item.get("content")).singleElement()
                    .satisfies(c -> assertThat(((Map<?, ?>) c).get("text")).isEqualTo("ALL-DONE"));
            assertThat(server.steps()).singleElement().satisfies(e -> assertThat(e.step()).isEqualTo(2));
        }
    }

    @Test
    void responses_spawnTurn_isSpawnAgentCallWithTheMessage() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), CODEX_SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/responses", responses(userItem("go"),
                    Map.of("type", "message", "role", "assistant", "content", List.of(Map.of("type", "output_text",
                            "text", "working on it"))),
                    Map.of("type", "function_call", "call_id", "call_first", "name", "exec_command", "arguments", "{}"),
                    Map.of("type", "function_call_output", "call_id", "call_first", "output", "ok")));

            Map<?, ?> item = (Map<?, ?>) events.get(2).data().get("item");
            assertThat(item.get("name")).isEqualTo("spawn_agent");
            assertThat(item.get("call_id")).isEqualTo("call_helper");
            assertThat(Json.parseObject((String) item.get("arguments"))).isEqualTo(Map.of("message", "SUBTASK-9: run ls"));
        }
    }

    @Test
    void responses_subagentConversation_countsOnlyTurnsAfterItsPrompt() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new OpenAiResponsesApi(), CODEX_SCRIPT)) {
            List<Sse.Event> events = post(server, "/v1/responses", responses(
                    userItem("<environment_context>cwd</environment_context>"),
                    userItem("parent prompt"),
                    Map.of("type", "function_call", "call_id", "call_first", "name", "exec_command", "arguments", "{}"),
                    Map.of("type", "function_call_output", "call_id", "call_first", "output", "ok"),
                    userItem("SUBTASK-9: run ls"),
                    Map.of("type", "function_call", "call_id", "call_sub_ls", "name", "exec_command", "arguments", "{}"),
                    Map.of("type", "function_call_output", "call_id", "call_sub_ls", "output", "a b")));

            assertThat(events.get(2).data().get("delta")).isEqualTo("SUB-DONE");
            assertThat(server.steps()).singleElement()
                    .satisfies(e -> assertThat(e.route()).isEqualTo("helper"))
                    .satisfies(e -> assertThat(e.step()).isEqualTo(1));
        }
    }

    // ---- Holds ------------------------------------------------------------------------------------

    private static final ModelScript HOLD_SCRIPT = ModelScript.of(
            Turn.spawn("helper", "SUBTASK-H: stay open", "general-purpose", Turn.text("SUB-STARTED")),
            Turn.afterStartOf("helper", Turn.text("MAIN-AFTER-HELPER")));

    private static Map<String, Object> mainAtStepOne() {
        return messages(user("go"), assistantToolUse("toolu_helper"), Map.of("role", "user", "content",
                List.of(Map.of("type", "tool_result", "tool_use_id", "toolu_helper", "content", "launched"))));
    }

    @Test
    @Timeout(20)
    void afterStart_heldTurn_isPlayedOnceTheOtherConversationHasStarted() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), HOLD_SCRIPT)) {
            HttpRequest held = HttpRequest.newBuilder(URI.create(server.baseUri() + "/v1/messages"))
                    .POST(HttpRequest.BodyPublishers.ofString(Json.write(mainAtStepOne()))).build();
            var mainReply = CLIENT.sendAsync(held, HttpResponse.BodyHandlers.ofString());
            while (server.exchanges().isEmpty()) {
                Thread.onSpinWait(); // the main request is recorded before it is held
            }
            assertThat(mainReply).isNotDone();
            List<Sse.Event> sub = post(server, "/v1/messages", messages(user("SUBTASK-H: stay open")));

            assertThat(text(sub)).isEqualTo("SUB-STARTED");
            assertThat(text(Sse.parse(mainReply.get().body()))).isEqualTo("MAIN-AFTER-HELPER");
            assertThat(server.problems()).as("a hold that timed out is recorded").isEmpty();
        }
    }

    @Test
    void afterStart_conversationNeverStarts_playsTheTurnAndRecordsAProblem() throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), HOLD_SCRIPT,
                java.time.Duration.ofMillis(50))) {
            List<Sse.Event> events = post(server, "/v1/messages", mainAtStepOne());

            assertThat(text(events)).isEqualTo("MAIN-AFTER-HELPER");
            assertThat(server.problems()).singleElement().asString()
                    .contains("held for conversation 'helper', which did not start within 50 ms");
        }
    }

    // ---- Both APIs ----------------------------------------------------------------------------

    static Stream<Arguments> notTheApi() {
        return Stream.of(
                Arguments.of(new AnthropicMessagesApi(), "HEAD", "/"),
                Arguments.of(new AnthropicMessagesApi(), "GET", "/v1/messages"),
                Arguments.of(new AnthropicMessagesApi(), "POST", "/v1/messages/count_tokens"),
                Arguments.of(new AnthropicMessagesApi(), "POST", "/v1/responses"),
                Arguments.of(new OpenAiResponsesApi(), "HEAD", "/"),
                Arguments.of(new OpenAiResponsesApi(), "GET", "/v1/models"),
                Arguments.of(new OpenAiResponsesApi(), "POST", "/v1/messages"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("notTheApi")
    void anythingButTheApiPath_is404_andTakesNoStep(ModelApi api, String method, String path) throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(api, SCRIPT)) {
            HttpResponse<String> response = send(server, method, path, method.equals("POST") ? "{}" : null, false);

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(server.steps()).isEmpty();
            assertThat(server.exchanges()).singleElement().satisfies(e -> assertThat(e.status()).isEqualTo(404));
            assertThat(server.problems()).isEmpty();
        }
    }

    static Stream<Arguments> exhausted() {
        return Stream.of(
                Arguments.of(new AnthropicMessagesApi(), "/v1/messages", messages(user("go"),
                        assistantToolUse("toolu_first"), user("more"), assistantToolUse("toolu_helper"), user("more"),
                        Map.of("role", "assistant", "content", "ALL-DONE"), user("and again"))),
                Arguments.of(new OpenAiResponsesApi(), "/v1/responses", responses(userItem("go"),
                        Map.of("type", "function_call", "call_id", "a", "name", "x", "arguments", "{}"),
                        Map.of("type", "function_call_output", "call_id", "a", "output", ""),
                        Map.of("type", "function_call", "call_id", "b", "name", "x", "arguments", "{}"),
                        Map.of("type", "function_call_output", "call_id", "b", "output", ""),
                        Map.of("type", "message", "role", "assistant", "content", List.of()),
                        userItem("and again"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exhausted")
    void exhaustedScript_endsTheTurnWithText_andRecordsAProblem(ModelApi api, String path, Map<String, Object> body)
            throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(api, SCRIPT)) {
            List<Sse.Event> events = post(server, path, body);

            assertThat(text(events)).isEqualTo(ScriptedModelServer.EXHAUSTED);
            assertThat(server.problems()).singleElement().asString()
                    .contains("script exhausted").contains("'main' has 3 turns, host asked for turn 4");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("apis")
    void bodyNotJson_is400_andRecordsAProblem(ModelApi api) throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(api, SCRIPT)) {
            HttpResponse<String> response = send(server, "POST", api.path(), "{not json", false);

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(server.problems()).singleElement().asString().contains("not a JSON object");
        }
    }

    static Stream<ModelApi> apis() {
        return Stream.of(new AnthropicMessagesApi(), new OpenAiResponsesApi());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("apis")
    void server_listensOnLoopbackOnly(ModelApi api) throws Exception {
        try (ScriptedModelServer server = ScriptedModelServer.start(api, SCRIPT)) {
            assertThat(server.baseUri().getHost()).isEqualTo("127.0.0.1");
            assertThat(server.port()).isPositive();
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Map<String, Object> messages(Map<?, ?>... messages) {
        Map<String, Object> body = Json.object();
        body.put("model", "claude-test");
        body.put("stream", Boolean.TRUE);
        body.put("tools", TOOLS);
        body.put("messages", List.of((Object[]) messages));
        return body;
    }

    private static Map<String, Object> user(String... texts) {
        return Map.of("role", "user", "content",
                Stream.of(texts).map(t -> (Object) Map.of("type", "text", "text", t)).toList());
    }

    private static Map<String, Object> assistantToolUse(String id) {
        return Map.of("role", "assistant", "content", List.of(Map.of("type", "tool_use", "id", id, "name", "Bash",
                "input", Map.of())));
    }

    private static Map<String, Object> responses(Map<?, ?>... input) {
        Map<String, Object> body = Json.object();
        body.put("model", "unknown-model-slug");
        body.put("stream", Boolean.TRUE);
        body.put("tools", TOOLS);
        body.put("input", List.of((Object[]) input));
        return body;
    }

    private static Map<String, Object> userItem(String text) {
        return Map.of("type", "message", "role", "user", "content", List.of(Map.of("type", "input_text", "text", text)));
    }

    private static List<Sse.Event> post(ScriptedModelServer server, String path, Map<String, Object> body)
            throws Exception {
        HttpResponse<String> response = send(server, "POST", path, Json.write(body), false);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        return Sse.parse(response.body());
    }

    private static HttpResponse<String> send(ScriptedModelServer server, String method, String path, String body,
                                             boolean gzip) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(gzip ? gzip(body) : body.getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUri() + path)).method(method, publisher);
        if (gzip) {
            request.header("Content-Encoding", "gzip");
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    /** The input JSON of a streamed tool_use, reassembled from its deltas. */
    private static String partialJson(List<Sse.Event> events) {
        StringBuilder json = new StringBuilder();
        for (Sse.Event e : events) {
            if (e.name().equals("content_block_delta") && e.data().get("delta") instanceof Map<?, ?> d
                    && "input_json_delta".equals(d.get("type"))) {
                json.append(d.get("partial_json"));
            }
        }
        return json.toString();
    }

    /** The streamed text of a turn, in either API. */
    private static String text(List<Sse.Event> events) {
        StringBuilder text = new StringBuilder();
        for (Sse.Event e : events) {
            if (e.data().get("delta") instanceof Map<?, ?> d && "text_delta".equals(d.get("type"))) {
                text.append(d.get("text"));
            } else if (e.name().equals("response.output_text.delta")) {
                text.append(e.data().get("delta"));
            }
        }
        return text.toString();
    }
}
