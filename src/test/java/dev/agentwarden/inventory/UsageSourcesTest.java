package dev.agentwarden.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage records of each shape, with the client id and turn the shape's host gives them. */
class UsageSourcesTest {
    @TempDir
    Path dir;

    /** Each shape's client id comes from the host record that writes it; each shape counts its own turns. */
    @Test
    void read_eachRecordShape_carriesTheClientIdOfItsHostsRecord_andCountsItsTurns() throws IOException {
        Path claude = dir.resolve("claude.jsonl");
        Files.writeString(claude, "{\"type\":\"user\",\"sessionId\":\"s1\",\"message\":{\"content\":\"hi\"}}\n"
                + "{\"type\":\"assistant\",\"sessionId\":\"s1\",\"version\":\"2.1.0\",\"message\":{\"id\":\"m1\","
                + "\"model\":\"opus\",\"usage\":{\"input_tokens\":3}}}\n");
        Path codex = dir.resolve("codex.jsonl");
        Files.writeString(codex, "{\"type\":\"thread.started\",\"thread_id\":\"t1\"}\n{\"type\":\"turn.started\"}\n"
                + "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1}}\n{\"type\":\"turn.started\"}\n"
                + "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":2}}\n");
        Path copilot = dir.resolve("events.jsonl");
        Files.writeString(copilot, "{\"type\":\"session.start\",\"data\":{\"sessionId\":\"c1\",\"copilotVersion\":\"1.0.102\"}}\n"
                + "{\"type\":\"user.message\",\"data\":{\"content\":\"x\"}}\n"
                + "{\"type\":\"assistant.usage\",\"data\":{\"model\":\"gpt-4.1\",\"inputTokens\":4,\"apiCallId\":\"a1\"}}\n");

        UsageSources usage = new UsageSources();
        usage.read(claude);
        usage.read(codex);
        usage.read(copilot);

        assertThat(usage.problems()).isEmpty();
        assertThat(usage.records()).extracting(UsageRecord::client)
                .containsExactly("claude-code", "codex", "codex", "copilot-cli");
        assertThat(usage.records()).extracting(UsageRecord::turn).containsExactly(0L, 0L, 1L, 0L);
        assertThat(usage.records()).extracting(UsageRecord::sessionId).containsExactly("s1", "t1", "t1", "c1");
    }
}
