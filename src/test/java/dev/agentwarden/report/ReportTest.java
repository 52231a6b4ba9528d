package dev.agentwarden.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.io.ReadProgress;
import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code warden report}'s numbers against a ledger written by real dispatches (subagents of known
 * durations, one never returning) and a decision log of known content.
 */
class ReportTest {
    @TempDir
    Path project;
    @TempDir
    Path cache;

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-03T00:00:00Z"), ZoneOffset.UTC);

    @Test
    @SuppressWarnings("unchecked")
    void report_knownLedgerAndLog_givesTheKnownNumbers() throws IOException {
        writeLedgerByDispatch();
        Path dir = DecisionLog.dir(project.toString());
        Files.writeString(dir.resolve("2026-11.jsonl"), String.join("",
                line("2026-11-02T10:00:00.000Z", "s1", "PreToolUse", "block", "rm -rf /", 1000, c("no-rm-root", "blocking", "block", false, null)),
                line("2026-11-02T10:30:00.000Z", "s1", "PreToolUse", "block", "rm -rf /", 3000, c("no-rm-root", "blocking", "block", false, null)),
                line("2026-11-02T11:00:00.000Z", "s1", "PreToolUse", "allow", "ls", 2000, c("no-rm-root", "blocking", "allow", false, null)),
                line("2026-11-02T11:10:00.000Z", "s2", "UserPromptSubmit", "halt", "curl x | sh", 5000,
                        c("integrity-attach", "blocking", "halt", false, "integrity HALT_CORRUPT: evidence torn")),
                line("2026-11-02T12:00:00.000Z", "s2", "PreToolUse", "warn", "git push", 4000, c("advisor", "advisory", "warn", false, null)),
                line("2026-11-02T12:05:00.000Z", "s3", "PreToolUse", "allow", "sudo ls", 6000, c("sudo-shadow", "shadow", "block", true, null)),
                line("2026-11-02T12:10:00.000Z", "s3", "UserPromptSubmit", "halt", "make", 7000,
                        c("integrity-attach", "blocking", "halt", false, "integrity UNKNOWN_HALT: gate failed")),
                "{not json\n"));

        Map<String, Object> r = Report.read(List.of(project.toString()), null, CLOCK, ReadProgress.NONE).toJson();
        Map<String, Object> d = (Map<String, Object>) r.get("decisions");

        assertThat(d.get("total")).isEqualTo(7L);
        assertThat(d.get("unreadable_lines")).isEqualTo(1L);
        assertThat(d.get("first")).isEqualTo("2026-11-02T10:00:00.000Z");
        assertThat(d.get("last")).isEqualTo("2026-11-02T12:10:00.000Z");
        Map<String, Object> overTime = (Map<String, Object>) d.get("over_time");
        assertThat(overTime.get("bucket")).isEqualTo("hour");
        assertThat(Json.write(overTime.get("rows"))).isEqualTo("[{\"t\":\"2026-11-02T10:00Z\",\"allow\":0,\"warn\":0,"
                + "\"block\":2,\"halt\":0,\"other\":0},{\"t\":\"2026-11-02T11:00Z\",\"allow\":1,\"warn\":0,\"block\":0,"
                + "\"halt\":1,\"other\":0},{\"t\":\"2026-11-02T12:00Z\",\"allow\":1,\"warn\":1,\"block\":0,\"halt\":1,\"other\":0}]");
        assertThat(Json.write(d.get("most_refused"))).isEqualTo("[{\"asked\":\"rm -rf /\",\"count\":2},"
                + "{\"asked\":\"curl x | sh\",\"count\":1},{\"asked\":\"make\",\"count\":1}]");
        Map<String, Object> sessions = (Map<String, Object>) d.get("sessions");
        assertThat(sessions.get("total")).isEqualTo(3L);
        assertThat(sessions.get("with_block")).isEqualTo(1L);
        assertThat(sessions.get("with_halt")).isEqualTo(2L);
        Map<String, Object> s1 = (Map<String, Object>) ((List<?>) sessions.get("top")).get(0);
        assertThat(s1).containsEntry("session", "s1").containsEntry("decisions", 3L).containsEntry("block", 2L)
                .containsEntry("outcome", "refused");
        assertThat(Json.write(d.get("integrity"))).isEqualTo("{\"HALT_CORRUPT\":1,\"UNKNOWN_HALT\":1}");
        List<Map<String, Object>> concerns = (List<Map<String, Object>>) d.get("concerns");
        assertThat(concerns).filteredOn(m -> m.get("name").equals("no-rm-root")).singleElement()
                .satisfies(m -> assertThat(m).containsEntry("block", 2L).containsEntry("allow", 1L));
        assertThat(concerns).filteredOn(m -> m.get("name").equals("sudo-shadow")).singleElement()
                .satisfies(m -> assertThat(m).containsEntry("would_block", 1L).containsEntry("block", 1L));
        List<Map<String, Object>> latency = (List<Map<String, Object>>) d.get("latency");
        // claude PreToolUse: 1000, 2000, 3000, 4000, 6000 µs: nearest-rank p50 3000, p90 and p99 6000
        assertThat(latency).filteredOn(m -> m.get("event").equals("PreToolUse")).singleElement()
                .satisfies(m -> assertThat(m).containsEntry("n", 5L).containsEntry("p50_us", 3000L)
                        .containsEntry("p90_us", 6000L).containsEntry("p99_us", 6000L));
        assertThat(latency).filteredOn(m -> m.get("event").equals("UserPromptSubmit")).singleElement()
                .satisfies(m -> assertThat(m).containsEntry("n", 2L).containsEntry("p50_us", 5000L));

        Map<String, Object> ledger = (Map<String, Object>) ((List<?>) r.get("subagents")).get(0);
        Map<String, Object> all = (Map<String, Object>) ledger.get("all");
        // three returned after 10, 20 and 30 s; one never returned
        assertThat(all).containsEntry("starts", 4L).containsEntry("stops", 3L).containsEntry("duration_p50_ms", 20_000L)
                .containsEntry("duration_p90_ms", 30_000L).containsEntry("duration_p99_ms", 30_000L);
        assertThat(((Map<String, Object>) ledger.get("open_now")).get("live")).isEqualTo(1L);
        Map<String, Object> guard = (Map<String, Object>) ((List<?>) r.get("spawn_guard")).get(0);
        assertThat(guard.get("observations")).isEqualTo(4L);
        assertThat((Map<String, Object>) guard.get("candidates")).containsOnlyKeys("n2m4", "n3m6", "n4m8");
        // spawned with 0, 1, 2 and 3 subagents open: p99 3, so the derived threshold is 4
        assertThat(Json.write(guard.get("concurrent_open"))).contains("\"histogram\":{\"0\":1,\"1\":1,\"2\":1,\"3\":1}")
                .contains("\"threshold_p99_plus_1\":4");

        Map<String, Object> since = (Map<String, Object>) Report.read(List.of(project.toString()), "2026-11-02T12:00:00.000Z",
                CLOCK, ReadProgress.NONE).toJson().get("decisions");
        assertThat(since.get("total")).isEqualTo(3L);
    }

    /** Four subagents through real dispatches: spawned with a Task call each, three stopping after 10, 20 and 30 s. */
    private void writeLedgerByDispatch() throws IOException {
        MutableClock clock = MutableClock.at("2026-11-02T09:00:00Z");
        InProcessDispatch dispatch = new InProcessDispatch(cache, clock);
        for (int i = 1; i <= 4; i++) {
            run(dispatch, HostPayloads.claude("PreToolUse", "tool_name", "Task", "tool_input",
                    Map.of("prompt", "p", "subagent_type", "Explore")));
            run(dispatch, HostPayloads.claude("SubagentStart", "agent_id", "a" + i, "agent_type", "Explore"));
        }
        for (int i = 1; i <= 3; i++) {
            clock.advance(Duration.ofSeconds(10));
            run(dispatch, HostPayloads.claude("SubagentStop", "agent_id", "a" + i, "agent_type", "Explore"));
        }
        Path dir = DecisionLog.dir(project.toString());
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f); // the decision log is crafted instead
            }
        }
    }

    private void run(InProcessDispatch dispatch, Map<String, Object> payload) {
        payload.put("cwd", project.toString());
        assertThat(dispatch.run("claude", Json.write(payload)).exitCode()).isZero();
    }

    static String c(String name, String posture, String outcome, boolean wouldBlock, String reason) {
        return "{\"name\":\"" + name + "\",\"posture\":\"" + posture + "\",\"outcome\":\"" + outcome + "\",\"skipped\":null,"
                + "\"effective\":\"" + outcome + "\",\"would_block\":" + wouldBlock + ",\"reason\":" + Json.write(reason)
                + ",\"reason_sha256\":null,\"note\":null,\"exit_code\":null,\"elapsed_us\":5}";
    }

    static String line(String ts, String session, String nativeEvent, String verdict, String asked, long elapsedUs,
                       String concern) {
        return "{\"v\":1,\"ts\":\"" + ts + "\",\"host\":\"claude\",\"event\":\"x\",\"native_event\":\"" + nativeEvent
                + "\",\"session_id\":\"" + session + "\",\"ref\":null,\"tool\":\"Bash\",\"tool_input_sha256\":null,\"asked\":"
                + Json.write(asked) + ",\"transport\":\"own_jvm\",\"manifest\":null,\"role\":\"\",\"concerns\":[" + concern
                + "],\"verdict\":\"" + verdict + "\",\"emitted\":\"none\",\"downgrades\":[],\"fail_mode\":null,"
                + "\"problem\":null,\"elapsed_us\":" + elapsedUs + "}\n";
    }
}
