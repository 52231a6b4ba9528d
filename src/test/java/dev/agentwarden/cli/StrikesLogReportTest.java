package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strikes and escalations as {@code warden log} and {@code warden report} show them, from the decision
 * lines of real dispatches: session s1 is refused four times and escalates on the fourth; s2 is
 * refused once; s3 is only allowed.
 */
class StrikesLogReportTest {
    @TempDir
    Path project;
    @TempDir
    Path cache;

    private final MutableClock clock = MutableClock.at("2026-12-07T14:00:00Z");

    @BeforeEach
    void dispatch() throws Exception {
        Path manifest = Files.writeString(project.resolve("policy.yaml"), """
                schema_version: 1
                concerns:
                  no-verify:
                    script: builtin:block-no-verify
                  no-rm:
                    script: builtin:rule
                    when: '"rm" in commands'
                    action: deny
                    escalate: {after: 3, within: 10m, then: halt}
                platforms:
                  claude:
                    pre_tool_use: [no-verify, no-rm]
                """);
        InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
        String[][] events = {{"s1", "git commit --no-verify"}, {"s1", "rm a"}, {"s1", "rm b"}, {"s1", "rm c"},
            {"s2", "rm d"}, {"s3", "ls"}};
        for (String[] e : events) {
            clock.advance(Duration.ofSeconds(1));
            dispatch.run("claude", "{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"" + e[0] + "\",\"cwd\":"
                    + Json.write(project.toString()) + ",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"" + e[1]
                    + "\"}}", "--native-event", "PreToolUse", "--manifest", manifest.toString());
        }
    }

    @Test
    void log_marksEachStrike_andTheEventThatEscalated() {
        CliRun r = CliRun.of("log", "--utc", "--project-dir", project.toString());

        List<String> rows = r.out().lines().toList();
        assertThat(rows).hasSize(7);
        assertThat(rows.get(1)).contains("block").contains("no-verify=block").endsWith("[strike 1]");
        assertThat(rows.get(3)).endsWith("no-rm=block [strike 3]");
        assertThat(rows.get(4)).contains("halt").contains("no-rm=block→halt").endsWith("[strike 4, escalated to halt]");
        assertThat(rows.get(5)).endsWith("[strike 1]");
        assertThat(rows.get(6)).contains("allow").doesNotContain("strike");
    }

    @Test
    @SuppressWarnings("unchecked")
    void report_listsSessionsWithStrikes_andEscalations_inJsonTextAndHtml() throws Exception {
        CliRun json = CliRun.of("report", "--json", "--project-dir", project.toString());
        Map<String, Object> sessions = (Map<String, Object>) ((Map<String, Object>) Json.parseObject(json.out())
                .get("decisions")).get("sessions");
        assertThat(sessions).containsEntry("total", 3L).containsEntry("with_strikes", 2L).containsEntry("with_escalation", 1L);
        List<Object> struck = (List<Object>) sessions.get("struck");
        assertThat(struck).hasSize(2);
        assertThat((Map<String, Object>) struck.get(0)).containsEntry("session", "s1").containsEntry("strikes", 4L)
                .containsEntry("escalations", 1L);
        assertThat((Map<String, Object>) struck.get(1)).containsEntry("session", "s2").containsEntry("strikes", 1L)
                .containsEntry("escalations", 0L);

        Path html = project.resolve("report.html");
        CliRun text = CliRun.of("report", "--project-dir", project.toString(), "--html", html.toString());
        assertThat(text.out()).contains("strikes: 2 session(s) with strikes, 1 escalated")
                .containsPattern("\\n  s1 +4 strikes +1 escalations");
        assertThat(Files.readString(html)).contains("<span id=\"struck-total\">2</span> sessions with strikes")
                .contains("<span id=\"escalated-total\">1</span> escalated")
                .contains("<tr><td><code>s1</code></td><td class=\"n\">4</td><td class=\"n\">1</td>");
    }
}
