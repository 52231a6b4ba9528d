package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden telemetry pin|join} on transcripts in Claude Code's JSONL shape (a user prompt line
 * starts a turn; assistant lines carry message.model, message.usage and the client version; one
 * message's content blocks repeat its usage) and a Codex {@code exec --json} stream.
 */
class TelemetryCommandTest {
    @TempDir
    Path dir;

    private static String user(String text) {
        return "{\"type\":\"user\",\"sessionId\":\"s1\",\"version\":\"2.1.197\",\"message\":{\"role\":\"user\",\"content\":\""
                + text + "\"}}";
    }

    private static String toolResult() {
        return "{\"type\":\"user\",\"sessionId\":\"s1\",\"version\":\"2.1.197\",\"message\":{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"ok\"}]}}";
    }

    private static String assistant(String id, String model, String version, int input) {
        return "{\"type\":\"assistant\",\"sessionId\":\"s1\",\"version\":\"" + version + "\",\"message\":{\"id\":\"" + id
                + "\",\"role\":\"assistant\",\"model\":\"" + model + "\",\"usage\":{\"input_tokens\":" + input
                + ",\"cache_creation_input_tokens\":10,\"cache_read_input_tokens\":200,\"output_tokens\":5,"
                + "\"service_tier\":\"standard\"}}}";
    }

    private Path preflight(long turn, String drift) throws IOException {
        Path p = dir.resolve("preflight-" + turn + ".json");
        Files.writeString(p, "{\"schema\":\"warden.inventory.preflight/1\",\"turn_index\":" + turn
                + ",\"inventory_drift\":\"" + drift + "\",\"variant\":null}");
        return p;
    }

    @Test
    void join_keepsOnlyPinnedIdentityOnValidTurns_andNamesEveryExclusion() throws IOException {
        Path agent = Files.writeString(dir.resolve("squad.agent.md"), "---\nname: Squad\n---\nbody\n");
        Path pin = dir.resolve("pin.json");
        CliRun pinned = CliRun.of("telemetry", "pin", "--artifact", agent.toString(), "--client", "claude-code",
                "--client-version", "2.1.197", "--model", "claude-sonnet-4-5", "--tokenizer", "claude",
                "--condition", "fresh", "--out", pin.toString());
        assertThat(pinned.exit()).as(pinned.err()).isZero();
        assertThat(Json.parseObject(Files.readString(pin)).get("artifact_sha256")).asString().hasSize(64);

        Path transcript = dir.resolve("s1.jsonl");
        Files.writeString(transcript, String.join("\n",
                user("first prompt"),
                assistant("m1", "claude-sonnet-4-5", "2.1.197", 100),   // line 2: joined, turn 0
                assistant("m1", "claude-sonnet-4-5", "2.1.197", 100),   // line 3: same message, repeated usage
                toolResult(),                                            // not a new turn
                assistant("m2", "claude-haiku-4-5", "2.1.197", 7),      // line 5: other model
                user("second prompt"),
                assistant("m3", "claude-sonnet-4-5", "2.1.197", 300),   // line 7: turn 1, voided
                user("third prompt"),
                assistant("m4", "claude-sonnet-4-5", "2.1.198", 400),   // line 9: turn 2, other client version
                user("fourth prompt"),
                assistant("m5", "claude-sonnet-4-5", "2.1.197", 500),   // line 11: turn 3, no preflight
                "not json") + "\n");
        Path codex = dir.resolve("codex.jsonl");
        Files.writeString(codex, "{\"type\":\"thread.started\",\"thread_id\":\"th\"}\n{\"type\":\"turn.started\"}\n"
                + "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":9,\"cached_input_tokens\":3,\"output_tokens\":1}}\n");

        CliRun run = CliRun.of("telemetry", "join", "--pin", pin.toString(),
                "--preflight", preflight(0, "NONE").toString(), "--preflight", preflight(1, "INVALIDATING").toString(),
                "--preflight", preflight(2, "NONE").toString(), transcript.toString(), codex.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).contains("s1.jsonl:12: not a JSON object");
        Map<String, Object> result = Json.parseObject(run.out());
        List<?> joined = (List<?>) result.get("joined");
        assertThat(joined).hasSize(1);
        Map<?, ?> kept = (Map<?, ?>) joined.get(0);
        assertThat(kept.get("line")).isEqualTo(2L);
        assertThat(kept.get("cell")).isEqualTo("primary");
        assertThat(((Map<?, ?>) kept.get("usage")).get("cache_read_input_tokens")).isEqualTo(200L);
        assertThat(((Map<?, ?>) kept.get("usage")).get("service_tier")).isEqualTo("standard");
        assertThat(((List<?>) result.get("excluded"))).extracting(e -> ((String) ((Map<?, ?>) e).get("reason")).split(":")[0])
                .containsExactly("duplicate_usage", "model_mismatch", "turn_voided", "client_version_mismatch",
                        "no_preflight", "client_mismatch");
    }

    private static String copilot(String type, String data) {
        return "{\"id\":\"e" + type.hashCode() + "\",\"timestamp\":\"2026-12-01T10:00:00.000Z\",\"parentId\":null,"
                + "\"type\":\"" + type + "\",\"data\":" + data + "}";
    }

    private Path pin(String client, String version, String model, String condition) throws IOException {
        Path agent = Files.writeString(dir.resolve("agent.md"), "agent\n");
        Path pin = dir.resolve("pin-" + condition + ".json");
        CliRun pinned = CliRun.of("telemetry", "pin", "--artifact", agent.toString(), "--client", client,
                "--client-version", version, "--model", model, "--tokenizer", "o200k_base", "--condition", condition,
                "--out", pin.toString());
        assertThat(pinned.exit()).as(pinned.err()).isZero();
        assertThat(Json.parseObject(Files.readString(pin)).get("tokenizer")).isEqualTo("o200k_base");
        return pin;
    }

    @Test
    void join_copilotSessionStateEvents_readsAssistantUsageWithModelVersionAndCallId() throws IOException {
        Path events = dir.resolve("events.jsonl");
        Files.writeString(events, String.join("\n",
                copilot("session.start", "{\"sessionId\":\"cp1\",\"version\":1,\"producer\":\"copilot-agent\","
                        + "\"copilotVersion\":\"1.0.102\",\"startTime\":\"2026-12-01T10:00:00.000Z\"}"),
                copilot("user.message", "{\"content\":\"run echo\"}"),
                copilot("assistant.turn_start", "{\"turnId\":\"0\"}"),
                copilot("assistant.usage", "{\"model\":\"gpt-4.1\",\"inputTokens\":120,\"outputTokens\":9,"
                        + "\"cacheReadTokens\":64,\"cacheWriteTokens\":0,\"apiCallId\":\"chatcmpl-1\",\"initiator\":\"user\"}"),
                copilot("assistant.usage", "{\"model\":\"gpt-4.1\",\"inputTokens\":120,\"outputTokens\":9,"
                        + "\"apiCallId\":\"chatcmpl-1\"}"),
                copilot("user.message", "{\"content\":\"again\"}"),
                copilot("assistant.usage", "{\"model\":\"gpt-5-mini\",\"inputTokens\":5,\"outputTokens\":1,"
                        + "\"apiCallId\":\"chatcmpl-2\"}")) + "\n");

        CliRun run = CliRun.of("telemetry", "join", "--pin", pin("copilot-cli", "1.0.102", "gpt-4.1", "fresh").toString(),
                "--preflight", preflight(0, "NONE").toString(), "--preflight", preflight(1, "NONE").toString(),
                events.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        Map<String, Object> result = Json.parseObject(run.out());
        List<?> joined = (List<?>) result.get("joined");
        assertThat(joined).hasSize(1);
        Map<?, ?> kept = (Map<?, ?>) joined.get(0);
        assertThat(kept.get("session_id")).isEqualTo("cp1");
        assertThat(kept.get("client_version")).isEqualTo("1.0.102");
        assertThat(((Map<?, ?>) kept.get("usage")).get("cacheReadTokens")).isEqualTo(64L);
        assertThat(((Map<?, ?>) kept.get("usage")).get("initiator")).isEqualTo("user");
        assertThat(((List<?>) result.get("excluded"))).extracting(e -> ((String) ((Map<?, ?>) e).get("reason")).split(":")[0])
                .containsExactly("duplicate_usage", "model_mismatch");
    }

    private Path turnRecord(Path project, String session, long turn, String condition, String drift) throws IOException {
        Path turns = Files.createDirectories(project.resolve(".warden/state/inventory/turns"));
        Path file = turns.resolve(session + ".jsonl");
        Files.writeString(file, "{\"schema\":\"warden.inventory.turn/1\",\"session_id\":\"" + session + "\",\"phase\":\"turn\","
                + "\"turn_index\":" + turn + ",\"condition\":\"" + condition + "\",\"inventory_drift\":\"" + drift + "\","
                + "\"variant\":null,\"transcript_path\":\"" + dir.resolve(session + ".transcript.jsonl") + "\"}\n",
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        return file;
    }

    @Test
    void join_turnRecords_keepsOnlyThePinnedConditionAndUnvoidedTurns_readingTheRecordedTranscripts() throws IOException {
        Path project = Files.createDirectories(dir.resolve("project"));
        turnRecord(project, "s1", 0, "fresh", "NONE");
        turnRecord(project, "s1", 1, "continued", "NONE");
        turnRecord(project, "s1", 2, "continued", "INVALIDATING");
        turnRecord(project, "s1", 3, "unknown", "NONE");
        Files.writeString(dir.resolve("s1.transcript.jsonl"), String.join("\n",
                user("one"), assistant("m1", "claude-sonnet-4-5", "2.1.197", 1),
                user("two"), assistant("m2", "claude-sonnet-4-5", "2.1.197", 2),
                user("three"), assistant("m3", "claude-sonnet-4-5", "2.1.197", 3),
                user("four"), assistant("m4", "claude-sonnet-4-5", "2.1.197", 4)) + "\n");

        CliRun run = CliRun.of("telemetry", "join", "--pin", pin("claude-code", "2.1.197", "claude-sonnet-4-5", "continued")
                .toString(), "--turn-records", "--project-dir", project.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        Map<String, Object> result = Json.parseObject(run.out());
        assertThat(result.get("sources")).asList().containsExactly(dir.resolve("s1.transcript.jsonl").toString());
        assertThat(((List<?>) result.get("joined")).stream().map(e -> (Object) ((Map<?, ?>) e).get("turn")).toList()).containsExactly(1L);
        assertThat(((List<?>) result.get("excluded"))).extracting(e -> ((String) ((Map<?, ?>) e).get("reason")).split(":")[0])
                .containsExactly("condition_mismatch", "turn_voided", "condition_unproven");
    }
}
