package dev.agentwarden.guard;

import dev.agentwarden.testing.TestLedger;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.ledger.LedgerSettings;
import dev.agentwarden.ledger.LedgerStore;
import dev.agentwarden.ledger.SubagentLedger;
import dev.agentwarden.concern.Posture;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class SpawnGuardTest {
    @TempDir
    Path project;

    MutableClock clock = MutableClock.at("2026-05-04T10:00:00Z");
    LedgerStore store;

    @BeforeEach
    void setUp() {
        store = new LedgerStore(LedgerPaths.forRoot(project.toString()), clock);
    }

    void open(String agentId, String session, Object... more) throws IOException {
        Map<String, Object> payload = new java.util.LinkedHashMap<>();
        payload.put("agent_id", agentId);
        for (int i = 0; i < more.length; i += 2) {
            payload.put((String) more[i], more[i + 1]);
        }
        TestLedger.record(SubagentLedger.Kind.START, payload, session, LedgerSettings.DEFAULTS, store);
    }

    SpawnGuard.Outcome spawn(Posture posture, String callerAgentId) throws IOException {
        return spawn(posture, callerAgentId, GuardSettings.DEFAULTS);
    }

    SpawnGuard.Outcome spawn(Posture posture, String callerAgentId, GuardSettings settings) throws IOException {
        return SpawnGuard.evaluate(new SpawnGuard.Request("Agent", true, callerAgentId == null ? null : AgentRef.of(callerAgentId), "s-1"),
                settings, posture, store, true);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> candidate(SpawnGuard.Outcome o, String label) {
        return ((List<Map<String, Object>>) o.line().get("candidates")).stream()
                .filter(c -> c.get("label").equals(label)).findFirst().orElseThrow();
    }

    @Test
    void shadow_recordsEveryCandidateAndActsNever() throws IOException {
        for (int i = 0; i < 4; i++) {
            open("a" + i, "s-1");
        }
        SpawnGuard.Outcome o = spawn(Posture.SHADOW, null);

        assertThat(o.action()).isEqualTo(SpawnGuard.Action.NONE);
        assertThat(o.message()).isNull();
        assertThat(o.line()).containsEntry("event", "spawn_guard_shadow").containsEntry("posture", "shadow")
                .containsEntry("concurrent_open", 4L).containsEntry("depth_usable_for_derivation", false)
                .containsEntry("depth_estimate", 2L).containsEntry("ledger_present", true)
                .doesNotContainKey("acted");
        assertThat(candidate(o, "n2m4")).containsEntry("would_deny", true).containsEntry("on", List.of("concurrent"));
        assertThat(candidate(o, "n3m6")).containsEntry("would_deny", false);
    }

    @Test
    void flatFanOut_depthEstimateDecidesNothing() throws IOException {
        open("a", "s-1");
        open("b", "s-1");
        SpawnGuard.Outcome o = spawn(Posture.BLOCKING, null);

        assertThat(o.line()).containsEntry("depth_estimate", 2L).containsEntry("depth_basis", "no-caller-agent-id")
                .containsEntry("spawn_depth", null);
        assertThat(o.action()).isEqualTo(SpawnGuard.Action.NONE);
    }

    static Stream<Arguments> depthBases() {
        return Stream.of(
                Arguments.of("top-level spawn, no caller id", null, false, "no-caller-agent-id", null, false),
                Arguments.of("caller id without open record", "ghost", false, "caller-not-open", null, false),
                Arguments.of("caller open at depth 1", "caller", true, "caller-open-record", 2L, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("depthBases")
    void depthArm_decidesOnlyWithRealLineage(String name, String caller, boolean callerOpen, String basis, Long depth,
                                             boolean denied) throws IOException {
        if (callerOpen) {
            open(caller, "s-1");
        }
        SpawnGuard.Outcome o = spawn(Posture.BLOCKING, caller);

        assertThat(o.line()).containsEntry("depth_basis", basis).containsEntry("spawn_depth", depth)
                .containsEntry("depth_usable_for_derivation", depth != null);
        assertThat(candidate(o, "n2m4")).containsEntry("would_deny", denied);
        assertThat(o.action()).isEqualTo(denied ? SpawnGuard.Action.DENY : SpawnGuard.Action.NONE);
    }

    @Test
    void blocking_deniesNamingThresholdAndObservedValue() throws IOException {
        for (int i = 0; i < 4; i++) {
            open("a" + i, "s-1");
        }
        SpawnGuard.Outcome o = spawn(Posture.BLOCKING, null);

        assertThat(o.action()).isEqualTo(SpawnGuard.Action.DENY);
        assertThat(o.message()).isEqualTo("spawn refused: 4 subagents are already open in this session, threshold "
                + "max_concurrent=4 (spawn-guard candidate n2m4). Wait for an open subagent to return, then spawn again.");
        assertThat(o.line()).containsEntry("event", "spawn_guard").containsEntry("enforced", "n2m4")
                .containsEntry("acted", true);
    }

    @Test
    void blocking_depthDeny_namesDepthThreshold() throws IOException {
        open("caller", "s-1");
        SpawnGuard.Outcome o = spawn(Posture.BLOCKING, "caller");

        assertThat(o.message()).startsWith("spawn refused: the new subagent would run at depth 2, threshold max_depth=2");
    }

    @Test
    void advisory_givesOneLineOfContext() throws IOException {
        for (int i = 0; i < 4; i++) {
            open("a" + i, "s-1");
        }
        SpawnGuard.Outcome o = spawn(Posture.ADVISORY, null);

        assertThat(o.action()).isEqualTo(SpawnGuard.Action.CONTEXT);
        assertThat(o.message()).doesNotContain("\n").startsWith("spawn-guard: 4 subagents are already open");
    }

    @ParameterizedTest
    @EnumSource(Posture.class)
    void belowThreshold_noPostureActs(Posture posture) throws IOException {
        open("a", "s-1");
        SpawnGuard.Outcome o = spawn(posture, null);

        assertThat(o.action()).isEqualTo(SpawnGuard.Action.NONE);
        assertThat(o.line()).containsEntry("concurrent_open", 1L);
    }

    @Test
    void enforce_picksTheCandidateThatActs() throws IOException {
        GuardSettings settings = GuardSettings.from(Map.of("enforce", "n3m6"));
        for (int i = 0; i < 4; i++) {
            open("a" + i, "s-1");
        }

        assertThat(spawn(Posture.BLOCKING, null, settings).action()).isEqualTo(SpawnGuard.Action.NONE);
        open("a4", "s-1");
        open("a5", "s-1");
        assertThat(spawn(Posture.BLOCKING, null, settings).message()).contains("max_concurrent=6").contains("n3m6");
    }

    @Test
    void concurrency_countsOnlyTheCallersSession_unlessScopedToWorkspace() throws IOException {
        for (int i = 0; i < 4; i++) {
            open("other" + i, "s-2");
        }

        assertThat(spawn(Posture.BLOCKING, null).line()).containsEntry("concurrent_open", 0L)
                .containsEntry("workspace_open", 4L).containsEntry("concurrent_scope", "session");
        GuardSettings workspace = GuardSettings.from(Map.of("concurrency_scope", "workspace"));
        assertThat(spawn(Posture.BLOCKING, null, workspace).action()).isEqualTo(SpawnGuard.Action.DENY);
    }

    @Test
    void staleRecords_areExcludedAndCounted() throws IOException {
        for (int i = 0; i < 4; i++) {
            open("a" + i, "s-1");
        }
        clock.advance(Duration.ofHours(25));
        SpawnGuard.Outcome o = spawn(Posture.BLOCKING, null);

        assertThat(o.action()).isEqualTo(SpawnGuard.Action.NONE);
        assertThat(o.line()).containsEntry("concurrent_open", 0L).containsEntry("stale_open_excluded", 4L);
    }

    @Test
    void noLedgerYet_saysSo() throws IOException {
        assertThat(spawn(Posture.SHADOW, null).line()).containsEntry("ledger_present", false);
    }

    @Test
    void otherTool_isNotASpawnAndWritesNothing() throws IOException {
        SpawnGuard.Outcome o = SpawnGuard.evaluate(new SpawnGuard.Request("Bash", false, null, "s-1"), GuardSettings.DEFAULTS,
                Posture.BLOCKING, store, true);

        assertThat(o.line()).isNull();
        assertThat(Files.exists(project.resolve(".warden"))).isFalse();
    }

    @Test
    void codexSpawnAgent_isADispatchTool() throws IOException {
        SpawnGuard.Outcome o = SpawnGuard.evaluate(new SpawnGuard.Request("spawn_agent", true, null, "s-1"),
                GuardSettings.DEFAULTS, Posture.SHADOW, store, true);

        assertThat(o.line()).containsEntry("tool", "spawn_agent");
    }

    @Test
    void unwritableLedger_blockingStillDecides() throws IOException {
        GuardSettings one = GuardSettings.from(Map.of("candidates", List.of(Map.of("label", "c1", "max_concurrent", 1L))));
        open("a", "s-1");
        Path ledgerDir = LedgerPaths.forRoot(project.toString()).ledgerDir();
        try (var files = Files.list(ledgerDir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(ledgerDir);
        Files.writeString(ledgerDir, "a file where the ledger directory should be");

        SpawnGuard.Outcome o = spawn(Posture.BLOCKING, null, one);

        assertThat(o.action()).isEqualTo(SpawnGuard.Action.DENY);
        assertThat(o.recordProblem()).isNotNull();
    }

    /**
     * With no {@code dispatch_tools}, a spawn is what the host adapter normalized as a subagent
     * dispatch, not a fixed list of every host's names (GuardSettings named Agent, Task and
     * spawn_agent for all hosts).
     */
    @Test
    void defaultDispatchTools_followTheEventsToolKind() throws IOException {
        SpawnGuard.Outcome named = SpawnGuard.evaluate(new SpawnGuard.Request("Agent", false, null, "s-1"),
                GuardSettings.DEFAULTS, Posture.SHADOW, store, true);
        SpawnGuard.Outcome kind = SpawnGuard.evaluate(new SpawnGuard.Request("launch_helper", true, null, "s-1"),
                GuardSettings.DEFAULTS, Posture.SHADOW, store, true);

        assertThat(named.line()).as("a host whose Agent tool is not a dispatcher").isNull();
        assertThat(kind.line()).containsEntry("tool", "launch_helper");
    }

    /** Named {@code dispatch_tools} still decide by name, whatever the kind. */
    @Test
    void namedDispatchTools_decideByName() throws IOException {
        GuardSettings named = GuardSettings.from(java.util.Map.of("dispatch_tools", java.util.List.of("Agent")));
        assertThat(SpawnGuard.evaluate(new SpawnGuard.Request("Agent", false, null, "s-1"), named, Posture.SHADOW, store,
                true).line()).isNotNull();
        assertThat(SpawnGuard.evaluate(new SpawnGuard.Request("Task", true, null, "s-1"), named, Posture.SHADOW, store,
                true).line()).isNull();
    }
}
