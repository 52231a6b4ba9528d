package dev.agentwarden.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** A policy-test case's payload, filled in per host, has the fields the real host sends. */
class PayloadTemplateTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "claude-code-2.1.332/agent-01-SessionStart.json", "claude-code-2.1.332/agent-02-UserPromptSubmit.json",
        "claude-code-2.1.332/agent-03-PreToolUse.json", "claude-code-2.1.332/agent-04-PostToolUse.json",
        "claude-code-2.1.332/agent-05-SubagentStart.json", "claude-code-2.1.332/agent-07-Stop.json",
        "claude-code-2.1.332/agent-09-SubagentStop.json", "claude-code-2.1.332/agent-12-SessionEnd.json",
        "codex-0.171.0/agent-01-SessionStart.json", "codex-0.171.0/agent-02-UserPromptSubmit.json",
        "codex-0.171.0/agent-03-PreToolUse.json", "codex-0.171.0/agent-04-PostToolUse.json",
        "codex-0.171.0/agent-05-SubagentStart.json", "codex-0.171.0/agent-08-PreToolUse.json",
        "codex-0.171.0/agent-10-SubagentStop.json", "codex-0.171.0/agent-12-Stop.json",
    })
    void fill_emptyPayload_hasEveryFieldTheHostSends(String capture) {
        Map<String, Object> real = Json.parseObject(HostPayloads.captured(capture));
        String event = (String) real.get("hook_event_name");
        String host = capture.startsWith("codex") ? "codex" : "claude";

        Map<String, Object> filled = PayloadTemplates.forHost(host).fill(event, new LinkedHashMap<>(), "/home/dev/proj");

        Set<String> expected = new TreeSet<>(real.keySet());
        if (!event.startsWith("Subagent")) {
            // an event from inside a subagent names it; a case meaning one gives agent_id itself
            expected.removeAll(List.of("agent_id", "agent_type"));
        }
        assertThat(new TreeSet<>(filled.keySet())).as(capture).isEqualTo(expected);
        assertThat(filled.get("hook_event_name")).isEqualTo(event);
        assertThat(filled.get("cwd")).isEqualTo("/home/dev/proj");
        for (String key : expected) {
            Object want = real.get(key);
            assertThat(filled.get(key) == null ? null : filled.get(key).getClass().getSimpleName())
                    .as(capture + " " + key + " has the host's JSON type")
                    .isEqualTo(want instanceof Map ? "LinkedHashMap" : want instanceof List ? "ArrayList"
                            : want == null ? null : want.getClass().getSimpleName());
        }
    }

    @Test
    void fill_givenFields_keepTheirValues() {
        Map<String, Object> given = new LinkedHashMap<>();
        given.put("tool_name", "Write");
        given.put("session_id", "mine");
        given.put("cwd", "/elsewhere");

        Map<String, Object> filled = PayloadTemplates.forHost("claude").fill("PreToolUse", given, "/home/dev/proj");

        assertThat(filled).containsEntry("tool_name", "Write").containsEntry("session_id", "mine")
                .containsEntry("cwd", "/elsewhere").containsKey("tool_use_id");
        assertThat((String) filled.get("transcript_path")).endsWith("/mine.jsonl");
    }

    @Test
    void forHost_hostWithoutCaptures_hasNoTemplate() {
        assertThat(PayloadTemplates.forHost("gemini")).isNull();
        assertThat(PayloadTemplates.forHost("cowork")).isNotNull();
    }
}
