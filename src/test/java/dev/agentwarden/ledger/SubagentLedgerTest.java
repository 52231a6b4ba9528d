package dev.agentwarden.ledger;

import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SubagentLedgerTest {
    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
    LedgerStore store;

    @BeforeEach
    void setUp() {
        store = new LedgerStore(LedgerPaths.forRoot(project.toString()), clock);
    }

    Map<String, Object> start(String agentId, Object... more) throws IOException {
        return last(record(SubagentLedger.Kind.START, agentId, LedgerSettings.DEFAULTS, more));
    }

    Map<String, Object> stop(String agentId, Object... more) throws IOException {
        return last(record(SubagentLedger.Kind.STOP, agentId, LedgerSettings.DEFAULTS, more));
    }

    List<Map<String, Object>> record(SubagentLedger.Kind kind, String agentId, LedgerSettings settings, Object... more)
            throws IOException {
        List<Object> kv = new ArrayList<>(List.of("agent_type", "general-purpose"));
        if (agentId != null) {
            kv.addAll(List.of("agent_id", agentId));
        }
        kv.addAll(List.of(more));
        Map<String, Object> payload = HostPayloads.claude(kind == SubagentLedger.Kind.START ? "SubagentStart" : "SubagentStop",
                kv.toArray());
        return TestLedger.record(kind, payload, "s-1", settings, store);
    }

    static Map<String, Object> last(List<Map<String, Object>> lines) {
        return lines.get(lines.size() - 1);
    }

    @Test
    void concurrentOpen_threeStartsThenTwoStops_is12321() throws IOException {
        List<Object> counts = new ArrayList<>();
        counts.add(start("a").get("concurrent_open"));
        counts.add(start("b").get("concurrent_open"));
        counts.add(start("c").get("concurrent_open"));
        counts.add(stop("b").get("concurrent_open"));
        counts.add(stop("a").get("concurrent_open"));

        assertThat(counts).containsExactly(1L, 2L, 3L, 2L, 1L);
        assertThat(Files.list(store.paths().openDir())).hasSize(1);
    }

    @Test
    void stop_withoutSeenStart_hasNullDuration() throws IOException {
        Map<String, Object> line = stop("never-started");

        assertThat(line).containsEntry("duration_ms", null).containsEntry("start_seen", false)
                .containsEntry("stop_loss_arms_exceeded", null).containsEntry("concurrent_open", 0L);
    }

    @Test
    void stop_afterStart_recordsDurationAndExceededArms() throws IOException {
        start("a");
        clock.advance(Duration.ofMinutes(16));
        Map<String, Object> line = stop("a");

        assertThat(line).containsEntry("duration_ms", 16 * 60_000L).containsEntry("start_seen", true)
                .containsEntry("stop_loss_arms_exceeded", List.of("5m", "15m"));
    }

    @Test
    void stop_configuredArms_areTheOnesRecorded() throws IOException {
        LedgerSettings settings = LedgerSettings.from(Map.of("stop_loss_arms", List.of("1m", 90_000L)));
        record(SubagentLedger.Kind.START, "a", settings);
        clock.advance(Duration.ofSeconds(100));

        assertThat(last(record(SubagentLedger.Kind.STOP, "a", settings)))
                .containsEntry("stop_loss_arms_exceeded", List.of("1m", "90s"));
    }

    static Stream<Arguments> depthCases() {
        return Stream.of(
                Arguments.of("no parent named", null, false, 1L, "assumed-root"),
                Arguments.of("parent named, not open", "p", false, 2L, "asserted-parent"),
                Arguments.of("parent open at depth 1", "p", true, 2L, "observed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("depthCases")
    void start_depthAndBasis_followTheParent(String name, String parent, boolean parentOpen, long depth, String basis)
            throws IOException {
        if (parentOpen) {
            start(parent);
        }
        Map<String, Object> line = parent == null ? start("child") : start("child", "parent_agent_id", parent);

        assertThat(line).containsEntry("depth", depth).containsEntry("depth_basis", basis);
        if (parent != null) {
            assertThat(line).containsEntry("parent_ref", AgentRef.of(parent));
        }
    }

    @Test
    void start_underObservedParent_chainsDepth() throws IOException {
        start("root");
        start("mid", "parentAgentId", "root");
        Map<String, Object> leaf = start("leaf", "parent_agent_id", "mid");

        assertThat(leaf).containsEntry("depth", 3L).containsEntry("depth_basis", "observed");
        assertThat(stop("leaf")).containsEntry("depth", 3L).containsEntry("depth_basis", "observed");
    }

    @Test
    void start_afterTtl_reapsStaleRecordAndExcludesIt() throws IOException {
        start("old");
        clock.advance(Duration.ofHours(25));
        List<Map<String, Object>> lines = record(SubagentLedger.Kind.START, "new", LedgerSettings.DEFAULTS);

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).containsEntry("event", "subagent_reaped").containsEntry("ref", AgentRef.of("old"))
                .containsEntry("age_ms", 25 * 3_600_000L).containsEntry("reason", "ttl_expired");
        assertThat(lines.get(1)).containsEntry("event", "subagent_start").containsEntry("concurrent_open", 1L);
        assertThat(Files.exists(store.paths().openDir().resolve(AgentRef.of("old") + ".json"))).isFalse();
    }

    @Test
    void ttl_isConfigurable() throws IOException {
        LedgerSettings settings = LedgerSettings.from(Map.of("ttl", "1h"));
        record(SubagentLedger.Kind.START, "old", settings);
        clock.advance(Duration.ofMinutes(61));

        assertThat(record(SubagentLedger.Kind.START, "new", settings)).extracting(l -> l.get("event"))
                .containsExactly("subagent_reaped", "subagent_start");
    }

    @Test
    void stop_ofOwnStaleRecord_keepsItsDuration() throws IOException {
        start("long-runner");
        clock.advance(Duration.ofHours(26));
        List<Map<String, Object>> lines = record(SubagentLedger.Kind.STOP, "long-runner", LedgerSettings.DEFAULTS);

        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).containsEntry("duration_ms", 26 * 3_600_000L).containsEntry("start_seen", true)
                .containsEntry("stop_loss_arms_exceeded", List.of("5m", "15m", "30m", "2h"));
    }

    @Test
    void event_withoutAgentId_isUnidentifiedAndTouchesNoRecord() throws IOException {
        start("a");
        Map<String, Object> line = start(null);

        assertThat(line).containsEntry("event", "subagent_start").containsEntry("ref", null)
                .containsEntry("unidentified", true).containsEntry("reason", "no_agent_id")
                .containsEntry("agent_type", "general-purpose");
        assertThat(Files.list(store.paths().openDir())).hasSize(1);
    }

    @Test
    void event_withNumericAgentId_isUnidentified() throws IOException {
        Map<String, Object> payload = HostPayloads.claude("SubagentStart", "agent_id", 42L);

        assertThat(last(TestLedger.record(SubagentLedger.Kind.START, payload, null, LedgerSettings.DEFAULTS, store)))
                .containsEntry("reason", "agent_id_not_string");
    }

    @Test
    void start_twice_isMarkedDuplicateAndCountedOnce() throws IOException {
        start("a");
        Map<String, Object> again = start("a");

        assertThat(again).containsEntry("duplicate_start", true).containsEntry("concurrent_open", 1L);
    }

    @Test
    void sessionOpen_countsOnlyTheEventsSession() throws IOException {
        start("a");
        Map<String, Object> other = Json.parseObject(Json.write(HostPayloads.claude("SubagentStart", "agent_id", "b")));
        Map<String, Object> line = last(TestLedger.record(SubagentLedger.Kind.START, other, "s-2",
                LedgerSettings.DEFAULTS, store));

        assertThat(line).containsEntry("concurrent_open", 2L).containsEntry("session_open", 1L)
                .containsEntry("session_id", "s-2");
    }

    @Test
    void capturedClaudeSession_startAndStop_recordTheSubagent() throws IOException {
        Map<String, Object> startPayload = Json.parseObject(HostPayloads.captured("claude-code-2.1.197/agent-04-SubagentStart.json"));
        Map<String, Object> stopPayload = Json.parseObject(HostPayloads.captured("claude-code-2.1.197/agent-07-SubagentStop.json"));
        String session = (String) startPayload.get("session_id");

        TestLedger.record(SubagentLedger.Kind.START, startPayload, session, LedgerSettings.DEFAULTS, store);
        clock.advance(Duration.ofSeconds(3));
        Map<String, Object> line = last(TestLedger.record(SubagentLedger.Kind.STOP, stopPayload, session,
                LedgerSettings.DEFAULTS, store));

        assertThat(line).containsEntry("ref", AgentRef.of("ad9cdb08fdd0f454a")).containsEntry("agent_type", "general-purpose")
                .containsEntry("duration_ms", 3000L).containsEntry("envelope_parse", "no_envelope")
                .containsEntry("session_id", session);
    }

    @Test
    void capturedCodexSession_startAndStop_recordTheSubagent() throws IOException {
        Map<String, Object> startPayload = Json.parseObject(HostPayloads.captured("codex-0.171.0/agent-05-SubagentStart.json"));
        Map<String, Object> stopPayload = Json.parseObject(HostPayloads.captured("codex-0.171.0/agent-10-SubagentStop.json"));

        Map<String, Object> started = last(TestLedger.record(SubagentLedger.Kind.START, startPayload, null,
                LedgerSettings.DEFAULTS, store));
        Map<String, Object> stopped = last(TestLedger.record(SubagentLedger.Kind.STOP, stopPayload, null,
                LedgerSettings.DEFAULTS, store));

        assertThat(started).containsEntry("agent_type", "default").containsEntry("depth_basis", "assumed-root")
                .containsEntry("session_id", "01a22b21-6a9a-7881-a486-aa6d8bd8c126");
        assertThat(stopped).containsEntry("start_seen", true).containsEntry("duration_ms", 0L);
    }

    @Test
    void stop_classifiesTheReturnEnvelope() throws IOException {
        start("a");
        Map<String, Object> line = stop("a", "last_assistant_message",
                "done\n```json\n{\"summary\":\"s\",\"handoff\":\"h\",\"confidence\":\"high\",\"findings\":[],\"risks\":[]}\n```");

        assertThat(line).containsEntry("envelope_parse", "ok").doesNotContainKey("envelope_problem");
    }
}
