package dev.agentwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.decision.DecisionLog;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden log} and {@code warden log prune} on a crafted decision log. */
class LogCommandTest {
    @TempDir
    Path project;

    private Path dir;

    @BeforeEach
    void craftLog() throws IOException {
        dir = DecisionLog.dir(project.toString());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("2026-09.jsonl"), line("2026-09-30T23:59:59.000Z", "old", "PreToolUse", "pre_tool_use",
                "allow", "none", "[]"));
        StringBuilder nov = new StringBuilder();
        nov.append(line("2026-11-02T10:00:00.000Z", "s1", "PreToolUse", "pre_tool_use", "block", "deny",
                "[" + concern("no-verify", "blocking", "block", false) + "," + concern("sudo", "shadow", "allow", false) + "]"));
        nov.append(line("2026-11-02T10:01:00.000Z", "s1", "PreToolUse", "pre_tool_use", "allow", "none",
                "[" + concern("no-verify", "blocking", "allow", false) + "," + concern("sudo", "shadow", "block", true) + "]"));
        nov.append(line("2026-11-03T09:00:00.000Z", "s2", "UserPromptSubmit", "user_prompt_submit", "warn", "context",
                "[" + concern("advisor", "advisory", "warn", false) + "]"));
        nov.append("{not json\n");
        nov.append("{\"v\":1,\"ts\":\"2026-11-03T09:00:01.000Z\""); // a write still in progress: no newline yet
        Files.writeString(dir.resolve("2026-11.jsonl"), nov.toString());
    }

    @Test
    void log_default_showsEachDecisionWithItsChain_newestLast() {
        CliRun r = CliRun.of("log", "--utc", "--project-dir", project.toString());

        assertThat(r.exit()).isEqualTo(0);
        List<String> rows = r.out().lines().toList();
        assertThat(rows.get(0)).contains("TIME (UTC)").contains("VERDICT").contains("ASKED").contains("CHAIN");
        assertThat(rows.get(2)).startsWith("2026-11-02 10:00:00 ");
        assertThat(rows).hasSize(5);
        assertThat(rows.get(1)).contains("2026-09-30");
        assertThat(rows.get(2)).contains("block").contains("deny").contains("no-verify=block").contains("sudo=allow(shadow)");
        assertThat(rows.get(3)).contains("sudo=block(shadow: would block)");
        assertThat(rows.get(4)).contains("UserPromptSubmit").contains("advisor=warn");
        assertThat(r.err()).contains("skipped 1 unreadable line");
    }

    @Test
    void log_default_keepsTheLast50() throws IOException {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            many.append(line(String.format("2026-12-01T10:%02d:00.000Z", i), "m" + i, "Stop", "stop", "allow", "none", "[]"));
        }
        Files.writeString(dir.resolve("2026-12.jsonl"), many);

        Map<String, Object> json = Json.parseObject(CliRun.of("log", "--json", "--project-dir", project.toString()).out());
        List<?> decisions = (List<?>) json.get("decisions");
        assertThat(decisions).hasSize(50);
        assertThat(((Map<?, ?>) decisions.get(49)).get("session_id")).isEqualTo("m59");
        assertThat(((Map<?, ?>) decisions.get(0)).get("session_id")).isEqualTo("m10");
    }

    @Test
    void log_filters_selectBySessionEventVerdictConcernShadowAndSince() {
        assertThat(sessions("--session", "s2")).containsExactly("s2");
        assertThat(sessions("--event", "UserPromptSubmit")).containsExactly("s2");
        assertThat(sessions("--event", "pre_tool_use")).containsExactly("old", "s1", "s1");
        assertThat(sessions("--verdict", "block")).containsExactly("s1");
        assertThat(sessions("--concern", "advisor")).containsExactly("s2");
        assertThat(sessions("--shadow")).containsExactly("s1");
        assertThat(sessions("--since", "2026-11-03")).containsExactly("s2");
        assertThat(sessions("--since", "2026-11-01T00:00:00Z", "--verdict", "allow")).containsExactly("s1");
    }

    @Test
    void log_badVerdictOrSince_isAUsageErrorThatSaysWhatToWrite() {
        CliRun r = CliRun.of("log", "--verdict", "deny", "--project-dir", project.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("allow, warn, block or halt");
        CliRun s = CliRun.of("log", "--since", "last-week", "--project-dir", project.toString());
        assertThat(s.exit()).isEqualTo(2);
        assertThat(s.err()).contains("2h").contains("2026-11-01");
    }

    @Test
    @SuppressWarnings("unchecked")
    void logSummary_countsPerHostEventVerdict_perConcern_andShadowWouldBlockRate() {
        CliRun r = CliRun.of("log", "--summary", "--json", "--project-dir", project.toString());

        Map<String, Object> s = Json.parseObject(r.out());
        assertThat(s.get("decisions")).isEqualTo(4L);
        assertThat(s.get("unreadable_lines")).isEqualTo(1L);
        List<Map<String, Object>> rows = (List<Map<String, Object>>) s.get("by_host_event_verdict");
        assertThat(rows).anySatisfy(row -> {
            assertThat(row.get("event")).isEqualTo("PreToolUse");
            assertThat(row.get("verdict")).isEqualTo("allow");
            assertThat(row.get("count")).isEqualTo(2L);
        });
        Map<String, Object> byConcern = (Map<String, Object>) s.get("by_concern");
        assertThat((Map<String, Object>) byConcern.get("no-verify")).containsEntry("block", 1L).containsEntry("allow", 1L);
        Map<String, Object> sudo = (Map<String, Object>) ((Map<String, Object>) s.get("shadow")).get("sudo");
        assertThat(sudo).containsEntry("runs", 2L).containsEntry("would_block", 1L).containsEntry("would_block_rate", 0.5);

        CliRun text = CliRun.of("log", "--summary", "--project-dir", project.toString());
        assertThat(text.out()).contains("4 decisions").contains("SHADOW CONCERN").contains("50.0%");
    }

    @Test
    void logPrune_before_removesWholeEarlierMonths_keepsTheMonthOfTheDate() throws IOException {
        Files.writeString(dir.resolve("2026-10.jsonl"), line("2026-10-10T00:00:00.000Z", "oct", "Stop", "stop", "allow", "none", "[]"));

        CliRun r = CliRun.of("log", "prune", "--before", "2026-11-15", "--project-dir", project.toString());

        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).contains("removed 2026-09, 2026-10").contains("kept 2026-11.jsonl");
        assertThat(Files.exists(dir.resolve("2026-09.jsonl"))).isFalse();
        assertThat(Files.exists(dir.resolve("2026-10.jsonl"))).isFalse();
        assertThat(Files.exists(dir.resolve("2026-11.jsonl"))).isTrue();
        assertThat(CliRun.of("log", "prune", "--before", "someday", "--project-dir", project.toString()).exit()).isEqualTo(2);
    }

    @Test
    void logPrune_segmentIsASymlink_isNotFollowed() throws IOException {
        Path outside = Files.writeString(project.resolve("precious.txt"), "keep me");
        Files.createSymbolicLink(dir.resolve("2026-08.jsonl"), outside);

        CliRun.of("log", "prune", "--before", "2026-10-01", "--project-dir", project.toString());

        assertThat(Files.readString(outside)).isEqualTo("keep me");
    }

    @SuppressWarnings("unchecked")
    private List<String> sessions(String... filter) {
        String[] args = new String[filter.length + 4];
        args[0] = "log";
        args[1] = "--json";
        args[2] = "--project-dir";
        args[3] = project.toString();
        System.arraycopy(filter, 0, args, 4, filter.length);
        CliRun r = CliRun.of(args);
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        return ((List<Map<String, Object>>) Json.parseObject(r.out()).get("decisions")).stream()
                .map(d -> (String) d.get("session_id")).toList();
    }

    private static String line(String ts, String session, String nativeEvent, String event, String verdict, String emitted,
                               String concerns) {
        return "{\"v\":1,\"ts\":\"" + ts + "\",\"host\":\"claude\",\"event\":\"" + event + "\",\"native_event\":\""
                + nativeEvent + "\",\"session_id\":\"" + session + "\",\"ref\":null,\"tool\":\"Bash\","
                + "\"tool_input_sha256\":null,\"transport\":\"own_jvm\",\"manifest\":null,\"role\":\"\",\"concerns\":"
                + concerns + ",\"verdict\":\"" + verdict + "\",\"emitted\":\"" + emitted
                + "\",\"downgrades\":[],\"fail_mode\":null,\"problem\":null,\"elapsed_us\":10}\n";
    }

    private static String concern(String name, String posture, String outcome, boolean wouldBlock) {
        return "{\"name\":\"" + name + "\",\"posture\":\"" + posture + "\",\"outcome\":\"" + outcome
                + "\",\"skipped\":null,\"effective\":\"" + ("shadow".equals(posture) ? "allow" : outcome)
                + "\",\"would_block\":" + wouldBlock + ",\"reason\":null,\"reason_sha256\":null,\"note\":null,\"elapsed_us\":5}";
    }

}
