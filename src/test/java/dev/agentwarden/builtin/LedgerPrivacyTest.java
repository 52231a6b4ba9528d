package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plants hostile agent ids, session ids, agent types, prompts and messages in a whole session
 * dispatched through the default manifest, then greps every byte written under {@code .warden/}: only
 * the decision log's {@code asked} may hold a prompt's first line (redacted of secrets, which these
 * planted values are not shaped as; DecisionLogPrivacyTest plants real-looking ones).
 */
class LedgerPrivacyTest {
    static final String MARK = "S3CR3T";
    static final String AGENT = "agent-" + MARK + "-\"},{\"event\":\"forged\"\n";
    static final String CHILD = "child-" + MARK + "-é✓";
    static final String SESSION = "session " + MARK + " ../../etc/passwd";
    static final String TYPE = "type-" + MARK + "\n<script>";

    @TempDir
    Path project;
    @TempDir
    Path cache;

    @Test
    void everyWrittenByte_holdsNoPlantedValue() throws IOException {
        MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
        InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
        List<Map<String, Object>> session = List.of(
                event("PreToolUse", "tool_name", "Agent", "tool_input", Map.of("prompt", "prompt " + MARK,
                        "subagent_type", TYPE)),
                event("SubagentStart", "agent_id", AGENT, "agent_type", TYPE),
                event("PreToolUse", "agent_id", AGENT, "agent_type", TYPE, "tool_name", "Task",
                        "tool_input", Map.of("prompt", MARK)),
                event("SubagentStart", "agent_id", CHILD, "agent_type", TYPE, "parent_agent_id", AGENT),
                event("SubagentStop", "agent_id", CHILD, "agent_type", TYPE, "last_assistant_message",
                        "message " + MARK + " {\"summary\":\"" + MARK + "\",\"handoff\":\"" + MARK
                                + "\",\"confidence\":\"" + MARK + "\",\"findings\":[{\"title\":\"" + MARK + "\"}],\"risks\":[]}"),
                event("SubagentStop", "agent_id", AGENT, "agent_type", TYPE, "last_assistant_message", MARK),
                event("SubagentStart", "agent_type", TYPE, "prompt", MARK),
                event("SubagentStop", "agentId", "camel-" + MARK, "subagentType", TYPE));
        for (Map<String, Object> payload : session) {
            assertThat(dispatch.run("claude", Json.write(payload)).exitCode()).isZero();
            clock.advance(Duration.ofSeconds(30));
        }

        List<Path> written;
        try (Stream<Path> files = Files.walk(project.resolve(".warden"))) {
            written = files.filter(Files::isRegularFile).toList();
        }
        StringBuilder all = new StringBuilder();
        List<String> leaks = new ArrayList<>();
        for (Path file : written) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
            all.append(text);
            if (file.startsWith(project.resolve(".warden/state/decisions"))) {
                text = withoutAsked(text); // a prompt's first line is recorded there by design, redacted (DecisionLogPrivacyTest)
            }
            for (String needle : List.of(MARK, "S3CR", "forged", "passwd", "<script>", "\\u00e9", "é")) {
                if (text.contains(needle) || file.toString().contains(needle)) {
                    leaks.add(project.relativize(file) + " contains " + needle);
                }
            }
        }
        assertThat(leaks).isEmpty();
        assertThat(all).contains(AgentRef.of(AGENT)).contains(AgentRef.of(CHILD)).contains("\"depth_basis\":\"observed\"")
                .contains("\"session_id\":\"sha256:").contains("\"envelope_parse\":\"fail\"")
                .contains("\"caller_ref\":\"" + AgentRef.of(AGENT) + "\"").contains("\"unidentified\":true");
    }

    /** Each decision line of {@code text} with its {@code asked} value removed. */
    @SuppressWarnings("unchecked")
    private static String withoutAsked(String text) {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\n")) {
            Map<String, Object> d = (Map<String, Object>) Json.parse(line);
            d.remove("asked");
            out.append(Json.write(d)).append('\n');
        }
        return out.toString();
    }

    Map<String, Object> event(String nativeEvent, Object... kv) {
        Map<String, Object> p = HostPayloads.claude(nativeEvent, kv);
        p.put("session_id", SESSION);
        p.put("cwd", project.toString());
        p.put("transcript_path", "/home/" + MARK + "/transcript.jsonl");
        return p;
    }
}
