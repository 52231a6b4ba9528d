package dev.agentwarden.dispatch;

import dev.agentwarden.testing.DispatchCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gemini CLI has no subagent events: under the default manifest the ledger brackets a subagent
 * between the BeforeTool and the AfterTool of {@code invoke_agent}, and says so ({@code basis}).
 * The captured subagent session replayed in order: the child's own tool calls carry the parent's
 * session and no marker, so they add nothing.
 */
class GeminiSubagentBracketTest {
    @TempDir
    Path project;
    @TempDir
    Path cache;

    @Test
    void ledger_invokeAgentCallAndResult_bracketTheSubagent() throws IOException {
        for (String capture : List.of("subagent/SessionStart.json", "subagent/BeforeTool.json", "subagent/BeforeTool.2.json",
                "subagent/AfterTool.json", "subagent/BeforeTool.3.json", "subagent/AfterTool.2.json",
                "subagent/AfterTool.3.json", "subagent/AfterAgent.json")) {
            Map<String, Object> payload = Json.parseObject(HostPayloads.captured("gemini-cli-0.61.0/" + capture,
                    project.toString()));
            assertThat(dispatch("gemini", (String) payload.get("hook_event_name"), payload)).as(capture).isZero();
        }
        List<Map<String, Object>> lines = ledger();
        assertThat(lines).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop");
        Map<String, Object> start = lines.get(0);
        Map<String, Object> stop = lines.get(1);
        assertThat(start).containsEntry("basis", "tool_bracket").containsEntry("agent_type", "generalist")
                .containsEntry("depth", 1L).containsEntry("depth_basis", "assumed-root")
                .containsEntry("session_id", "4bb19162-646d-4bd6-a1ca-bf9cbf833e3c");
        assertThat(stop).containsEntry("basis", "tool_bracket").containsEntry("ref", start.get("ref"))
                .containsEntry("start_seen", true).containsEntry("concurrent_open", 0L);
        assertThat(stop.get("duration_ms")).isInstanceOf(Long.class);
    }

    /** Claude Code sends SubagentStart and SubagentStop: its Agent tool call brackets nothing. */
    @Test
    void ledger_hostWithSubagentEvents_toolCallBracketsNothing() throws IOException {
        Map<String, Object> payload = Json.parseObject("{\"session_id\":\"s\",\"cwd\":\"" + project
                + "\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Agent\",\"tool_input\":{\"prompt\":\"x\"}}");
        assertThat(dispatch("claude", "PreToolUse", payload)).isZero();
        assertThat(ledger()).noneMatch(l -> "subagent_start".equals(l.get("event")));
    }

    private int dispatch(String host, String nativeEvent, Map<String, Object> payload) {
        Map<String, String> env = new HashMap<>(Map.of("WARDEN_CACHE_DIR", cache.toString(),
                "GEMINI_PROJECT_DIR", project.toString(), "CLAUDE_PROJECT_DIR", project.toString(),
                "HOME", project.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        return DispatchCall.run(new String[] {"dispatch", "--host", host, "--native-event", nativeEvent},
                new ByteArrayInputStream(Json.write(payload).getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, Clock.systemUTC());
    }

    private List<Map<String, Object>> ledger() throws IOException {
        Path dir = project.resolve(".warden/state/ledger");
        List<Map<String, Object>> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        out.add(Json.parseObject(line));
                    }
                }
            }
        }
        out.removeIf(l -> !String.valueOf(l.get("event")).startsWith("subagent_"));
        return out;
    }
}
