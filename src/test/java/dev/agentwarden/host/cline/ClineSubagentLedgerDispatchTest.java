package dev.agentwarden.host.cline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.cli.WardenCli;
import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cline's subagents through the dispatch path under the default manifest, from the captured
 * {@code agent-*} session (a {@code spawn_agent} child that ran one command): the child's own
 * TaskStart and TaskComplete (they carry {@code agent_id} and {@code parent_agent_id}) are its
 * ledger start and stop, its parent is the main agent (depth 1, asserted-parent), and a
 * {@code spawn_agent} call from inside it is measured against its open record.
 */
class ClineSubagentLedgerDispatchTest {
    private static final String DIR = "cline-3.0.65/";
    private static final String SESSION = "1796109906551_th7qx";
    private static final String MAIN = "agent_1796109906728_9a1v7s";
    private static final String CHILD = "agent_1796109907142_y9qpkv";

    @TempDir
    Path project;
    @TempDir
    Path cache;

    private final MutableClock clock = MutableClock.at("2026-12-01T07:25:06.821Z");
    private InProcessDispatch dispatch;

    @BeforeEach
    void setUp() {
        dispatch = new InProcessDispatch(cache, clock);
    }

    private InProcessDispatch.Response send(String nativeEvent, String captured, Map<String, Object> changes) {
        Map<String, Object> p = Json.parseObject(HostPayloads.captured(DIR + captured, project.toString()));
        p.putAll(changes);
        return dispatch.run("cline", Json.write(p), "--native-event", nativeEvent);
    }

    private List<Map<String, Object>> ledgerLines(String prefix) throws IOException {
        Path segment = LedgerPaths.forRoot(project.toString()).segment("2026-12");
        List<Map<String, Object>> out = new ArrayList<>();
        if (Files.exists(segment)) {
            for (String line : Files.readAllLines(segment, StandardCharsets.UTF_8)) {
                Map<String, Object> o = Json.parseObject(line);
                if (String.valueOf(o.get("event")).startsWith(prefix)) {
                    out.add(o);
                }
            }
        }
        return out;
    }

    @Test
    void subagentTaskStartAndComplete_areTheLedgersStartAndStop_childOfTheMainAgentAtDepthOne() throws IOException {
        send("TaskStart", "agent-01-TaskStart.json", Map.of());
        send("PreToolUse", "agent-02-PreToolUse.json", Map.of());
        clock.advance(Duration.ofMillis(45));
        InProcessDispatch.Response start = send("TaskStart", "agent-03-TaskStart.json", Map.of());
        send("PreToolUse", "agent-04-PreToolUse.json", Map.of());
        send("PostToolUse", "agent-05-PostToolUse.json", Map.of());
        clock.advance(Duration.ofMillis(290));
        InProcessDispatch.Response stop = send("TaskComplete", "agent-06-TaskComplete.json", Map.of());
        send("PostToolUse", "agent-07-PostToolUse.json", Map.of());
        send("TaskComplete", "agent-08-TaskComplete.json", Map.of());

        assertThat(start.exitCode()).isZero();
        assertThat(start.stdout()).isEmpty();
        assertThat(start.stderr()).as("the ledger is capture only and silent").isEmpty();
        assertThat(stop.stdout()).isEmpty();
        List<Map<String, Object>> lines = ledgerLines("subagent_");
        assertThat(lines).extracting(l -> l.get("event")).as("one start and one stop, no spawn_agent bracket")
                .containsExactly("subagent_start", "subagent_stop");
        assertThat(lines.get(0)).containsEntry("ref", AgentRef.of(CHILD)).containsEntry("parent_ref", AgentRef.of(MAIN))
                .containsEntry("session_id", SESSION).containsEntry("depth", 1L)
                .containsEntry("depth_basis", "asserted-parent").containsEntry("concurrent_open", 1L)
                .doesNotContainKey("basis");
        assertThat(lines.get(1)).containsEntry("ref", AgentRef.of(CHILD)).containsEntry("start_seen", true)
                .containsEntry("duration_ms", 290L).containsEntry("depth", 1L).containsEntry("concurrent_open", 0L);
    }

    @Test
    void spawnAgentFromInsideAChild_isMeasuredOnTheChildsOpenRecord_andTheGrandchildIsObservedAtDepthTwo() throws IOException {
        send("TaskStart", "agent-03-TaskStart.json", Map.of());
        Map<String, Object> spawn = Map.of("systemPrompt", "You are a helper.", "task", "go deeper");
        send("PreToolUse", "agent-04-PreToolUse.json", Map.of(
                "tool_call", Map.of("id", "call_deeper", "name", "spawn_agent", "input", spawn),
                "preToolUse", Map.of("toolName", "spawn_agent", "parameters", spawn)));
        String grandchild = "agent_1796109907300_deeper";
        send("TaskStart", "agent-03-TaskStart.json", Map.of("agent_id", grandchild, "parent_agent_id", CHILD,
                "taskId", "conv_deeper"));

        List<Map<String, Object>> guard = ledgerLines("spawn_guard");
        assertThat(guard).hasSize(1);
        assertThat(guard.get(0)).containsEntry("caller_ref", AgentRef.of(CHILD))
                .containsEntry("depth_basis", "caller-open-record").containsEntry("spawn_depth", 2L)
                .containsEntry("depth_usable_for_derivation", true);
        List<Map<String, Object>> starts = ledgerLines("subagent_start");
        assertThat(starts.get(1)).containsEntry("ref", AgentRef.of(grandchild))
                .containsEntry("parent_ref", AgentRef.of(CHILD)).containsEntry("depth", 2L)
                .containsEntry("depth_basis", "observed").containsEntry("concurrent_open", 2L);
    }

    /** An aborted subagent ends with SessionShutdown (TaskCancel only when the reason says cancel), its one stop. */
    @Test
    void abortedSubagent_sessionShutdown_isItsStop_taskCancelIsNot() throws IOException {
        send("TaskStart", "agent-03-TaskStart.json", Map.of());
        Map<String, Object> child = Map.of("agent_id", CHILD, "parent_agent_id", MAIN,
                "taskId", "conv_1796109907143_qtseq7x", "sessionContext", Map.of("rootSessionId", SESSION));
        send("TaskCancel", "deny-03-SessionShutdown.json", withHookName(child, "agent_abort"));
        send("SessionShutdown", "deny-03-SessionShutdown.json", child);

        assertThat(ledgerLines("subagent_")).extracting(l -> l.get("event") + " " + l.get("ref"))
                .containsExactly("subagent_start " + AgentRef.of(CHILD), "subagent_stop " + AgentRef.of(CHILD));
        assertThat(ledgerLines("subagent_stop").get(0)).containsEntry("start_seen", true);
    }

    /** The default manifest binds subagent_start and subagent_stop for Cline: install writes the files that deliver them. */
    @Test
    void install_defaultManifest_writesTheFilesThatDeliverASubagentsStartAndStop() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = WardenCli.execute(new String[] {"install", "--host", "cline", "--project-dir", project.toString(),
                "--no-train", "--dry-run"}, new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).as(err.toString()).isZero();
        Path hooks = project.resolve(".clinerules/hooks");
        for (String file : List.of("PreToolUse", "TaskStart", "TaskResume", "TaskComplete", "TaskError", "SessionShutdown")) {
            assertThat(out.toString()).contains("would write " + hooks.resolve(file) + " ");
        }
        assertThat(out.toString()).doesNotContain("Subagent").doesNotContain("TaskCancel");
    }

    private static Map<String, Object> withHookName(Map<String, Object> fields, String hookName) {
        Map<String, Object> out = new java.util.LinkedHashMap<>(fields);
        out.put("hookName", hookName);
        return out;
    }
}
