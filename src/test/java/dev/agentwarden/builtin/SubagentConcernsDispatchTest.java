package dev.agentwarden.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two built-ins through the real dispatch path, with the shipped default manifest and captured payloads. */
class SubagentConcernsDispatchTest {
    static final String CLAUDE = "claude-code-2.1.197/";

    @TempDir
    Path project;
    @TempDir
    Path cache;

    MutableClock clock = MutableClock.at("2026-11-30T06:25:39Z");
    InProcessDispatch dispatch;

    @BeforeEach
    void setUp() {
        dispatch = new InProcessDispatch(cache, clock);
    }

    InProcessDispatch.Response send(String capturedFile) {
        return dispatch.run("claude", HostPayloads.captured(CLAUDE + capturedFile, project.toString()));
    }

    InProcessDispatch.Response send(Map<String, Object> payload) {
        payload.put("cwd", project.toString());
        return dispatch.run("claude", Json.write(payload));
    }

    List<Map<String, Object>> ledgerLines() throws IOException {
        Path segment = LedgerPaths.forRoot(project.toString()).segment("2026-11");
        return Files.readAllLines(segment, StandardCharsets.UTF_8).stream().map(Json::parseObject).toList();
    }

    void writeManifest(String spawnGuardExtra) throws IOException {
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    posture: shadow
                  spawn-guard:
                    script: builtin:spawn-guard
                    tools: [Agent, Task]
                    candidates: [{label: two, max_concurrent: 2}]
                """ + spawnGuardExtra.indent(4) + """
                platforms:
                  claude:
                    pre_tool_use: [spawn-guard]
                    subagent_start: [subagent-ledger]
                    subagent_stop: [subagent-ledger]
                native_event_aliases:
                  claude: {PreToolUse: pre_tool_use, SubagentStart: subagent_start, SubagentStop: subagent_stop}
                """);
        dispatch.trust(project);
    }

    void openTwo() {
        for (String id : List.of("x1", "x2")) {
            send(HostPayloads.claude("SubagentStart", "session_id", "2a69a5cf-143c-417e-8f79-330e3ab44114",
                    "agent_id", id, "agent_type", "general-purpose"));
        }
    }

    @Test
    void capturedClaudeSession_defaultManifest_recordsSilently() throws IOException {
        List<InProcessDispatch.Response> responses = new java.util.ArrayList<>();
        responses.add(send("agent-03-PreToolUse.json"));
        responses.add(send("agent-04-SubagentStart.json"));
        responses.add(send("agent-05-PreToolUse.json"));
        clock.advance(Duration.ofSeconds(90));
        responses.add(send("agent-07-SubagentStop.json"));

        assertThat(responses).allSatisfy(r -> {
            assertThat(r.exitCode()).isZero();
            assertThat(r.stdout()).isEmpty();
        });
        List<Map<String, Object>> lines = ledgerLines();
        assertThat(lines).extracting(l -> l.get("event"))
                .containsExactly("spawn_guard_shadow", "subagent_start", "subagent_stop");
        assertThat(lines.get(2)).containsEntry("ref", AgentRef.of("ad9cdb08fdd0f454a")).containsEntry("duration_ms", 90_000L);
    }

    @Test
    void subagentLedger_unwritableDisk_allowsWithNote() throws IOException {
        Files.writeString(project.resolve(".warden"), "a file where the state directory should be");

        InProcessDispatch.Response start = send("agent-04-SubagentStart.json");
        InProcessDispatch.Response stop = send("agent-07-SubagentStop.json");

        for (InProcessDispatch.Response r : List.of(start, stop)) {
            assertThat(r.exitCode()).isZero();
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).contains("subagent-ledger: ledger not written: state_not_directory").contains("fail-open");
        }
    }

    @Test
    void subagentLedger_lockHeldPastItsTimeout_spoolsTheEventWithANoteAndFoldsItLater() throws IOException {
        // The lock wait is three quarters of timeout_ms; the rest must spool the event even on a starved box
        // (with 400 ms, the 100 ms left ran out at load 17 and the built-in was interrupted before it spooled).
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                concerns:
                  subagent-ledger:
                    script: builtin:subagent-ledger
                    posture: shadow
                    timeout_ms: 2000
                platforms:
                  claude:
                    subagent_start: [subagent-ledger]
                    subagent_stop: [subagent-ledger]
                native_event_aliases:
                  claude: {SubagentStart: subagent_start, SubagentStop: subagent_stop}
                """);
        dispatch.trust(project);
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        InProcessDispatch.Response start;
        try (LedgerStore.Transaction held = new LedgerStore(paths, clock).begin()) {
            start = send("agent-04-SubagentStart.json");
        }
        assertThat(start.exitCode()).isZero();
        assertThat(start.stdout()).isEmpty();
        assertThat(start.stderr()).contains("subagent-ledger: ledger not written: ledger_event_spooled");

        clock.advance(Duration.ofSeconds(90));
        InProcessDispatch.Response stop = send("agent-07-SubagentStop.json");

        assertThat(stop.stderr()).isEmpty();
        List<Map<String, Object>> lines = ledgerLines();
        assertThat(lines).extracting(l -> l.get("event")).containsExactly("subagent_start", "subagent_stop");
        assertThat(lines.get(0)).containsEntry("spooled", true);
        assertThat(lines.get(1)).containsEntry("start_seen", true).containsEntry("duration_ms", 90_000L);
    }

    @Test
    void subagentLedger_symlinkedHeadOutOfProject_isRefusedWithANoteAndTargetUnchanged(@TempDir Path outside)
            throws IOException {
        Path victim = outside.resolve("victim.txt");
        Files.writeString(victim, "the user's file\n".repeat(40));
        String before = Files.readString(victim);
        LedgerPaths paths = LedgerPaths.forRoot(project.toString());
        Files.createDirectories(paths.ledgerDir());
        Files.createSymbolicLink(paths.headFile(), victim);

        InProcessDispatch.Response start = send("agent-04-SubagentStart.json");

        assertThat(start.exitCode()).isZero();
        assertThat(start.stderr()).contains("state_symlink_refused");
        assertThat(Files.readString(victim)).isEqualTo(before);
    }

    @Test
    void subagentLedger_malformedFields_allowsAndRecordsUnidentified() throws IOException {
        InProcessDispatch.Response r = send(HostPayloads.claude("SubagentStart", "agent_id", Map.of("nested", true),
                "agent_type", List.of("not", "a", "type")));

        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEmpty();
        assertThat(ledgerLines()).singleElement().satisfies(l -> assertThat(l)
                .containsEntry("unidentified", true).containsEntry("reason", "agent_id_not_string")
                .containsEntry("agent_type", null));
    }

    @Test
    void spawnGuard_shadowAtThreshold_emitsNothing() throws IOException {
        writeManifest("posture: shadow");
        openTwo();

        InProcessDispatch.Response r = send("agent-03-PreToolUse.json");

        assertThat(r.stdout()).isEmpty();
        assertThat(ledgerLines().get(2)).containsEntry("event", "spawn_guard_shadow").containsEntry("concurrent_open", 2L);
    }

    @Test
    void spawnGuard_blockingAtThreshold_deniesTheAgentTool() throws IOException {
        writeManifest("posture: blocking");
        openTwo();

        InProcessDispatch.Response r = send("agent-03-PreToolUse.json");

        Map<String, Object> out = Json.parseObject(r.stdout());
        @SuppressWarnings("unchecked")
        Map<String, Object> specific = (Map<String, Object>) out.get("hookSpecificOutput");
        assertThat(specific).containsEntry("permissionDecision", "deny");
        assertThat((String) specific.get("permissionDecisionReason")).contains("2 subagents are already open in this session")
                .contains("max_concurrent=2");
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void spawnGuard_advisoryAtThreshold_addsContext() throws IOException {
        writeManifest("posture: advisory");
        openTwo();

        InProcessDispatch.Response r = send("agent-03-PreToolUse.json");

        assertThat(r.stdout()).contains("\"additionalContext\":\"spawn-guard: 2 subagents are already open")
                .doesNotContain("deny");
    }

    @Test
    void spawnGuard_blockingUnreadableOpenSet_failsPerFailClosed() throws IOException {
        Path openDir = LedgerPaths.forRoot(project.toString()).openDir();
        Files.createDirectories(openDir.getParent());
        Files.writeString(openDir, "a file where the open-record directory should be");

        writeManifest("posture: blocking");
        InProcessDispatch.Response open = send("agent-03-PreToolUse.json");
        writeManifest("posture: blocking\nfail_closed: true");
        InProcessDispatch.Response closed = send("agent-03-PreToolUse.json");

        assertThat(open.stdout()).isEmpty();
        assertThat(open.stderr()).contains("spawn-guard").contains("fail-open");
        assertThat(closed.stdout()).contains("\"permissionDecision\":\"deny\"");
    }

    @Test
    void spawnGuard_otherTool_isNotEvaluated() throws IOException {
        writeManifest("posture: blocking");
        openTwo();

        assertThat(send("agent-05-PreToolUse.json").stdout()).isEmpty();
        assertThat(ledgerLines()).hasSize(2);
    }

    @Test
    void replayMode_writesNothing() {
        InProcessDispatch replay = new InProcessDispatch(cache, clock, Map.of("WARDEN_REPLAY", "1"));

        InProcessDispatch.Response start = replay.run("claude",
                HostPayloads.captured(CLAUDE + "agent-04-SubagentStart.json", project.toString()));
        InProcessDispatch.Response spawn = replay.run("claude",
                HostPayloads.captured(CLAUDE + "agent-03-PreToolUse.json", project.toString()));

        assertThat(start.exitCode()).isZero();
        assertThat(spawn.stdout()).isEmpty();
        assertThat(Files.exists(project.resolve(".warden"))).isFalse();
    }
}
