package dev.agentwarden.host.copilot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.json.Json;
import dev.agentwarden.ledger.AgentRef;
import dev.agentwarden.ledger.LedgerPaths;
import dev.agentwarden.testing.HostPayloads;
import dev.agentwarden.testing.InProcessDispatch;
import dev.agentwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copilot's real lineage through the dispatch path: {@code agentId} and {@code parentAgentId} on
 * subagentStart give the ledger an asserted-parent depth (a child of the session's main agent is
 * depth 1), and a {@code task} call from inside that child carries the child's {@code agentId}, so
 * the spawn guard's depth arm decides on the child's open record.
 */
class CopilotLineageDispatchTest {
    private static final String DIR = "copilot-cli-1.0.102/camel/subagent/";
    private static final String ROOT = "625c905d-dd27-4196-b879-a4a2d60967ff";
    private static final String CHILD = "f6ffc0a6-2636-4b11-a659-03eab85e96bd";

    @TempDir
    Path project;
    @TempDir
    Path cache;

    private final MutableClock clock = MutableClock.at("2026-12-01T07:11:46Z");
    private InProcessDispatch dispatch;

    @BeforeEach
    void setUp() throws IOException {
        dispatch = new InProcessDispatch(cache, clock);
        Files.createDirectories(project.resolve(".warden"));
        Files.writeString(project.resolve(".warden/manifest.yaml"), """
                schema_version: 1
                extends: default
                concerns:
                  spawn-guard:
                    script: builtin:spawn-guard
                    posture: blocking
                    tools: [task]
                    candidates: [{label: n2m4, max_depth: 2, max_concurrent: 4}]
                    enforce: n2m4
                """);
        dispatch.trust(project);
    }

    private InProcessDispatch.Response send(String nativeEvent, String captured, Map<String, Object> changes) {
        Map<String, Object> p = Json.parseObject(HostPayloads.captured(DIR + captured, project.toString()));
        p.putAll(changes);
        return dispatch.run("copilot", Json.write(p), "--native-event", nativeEvent);
    }

    private List<Map<String, Object>> ledgerLines() throws IOException {
        Path segment = LedgerPaths.forRoot(project.toString()).segment("2026-12");
        return Files.readAllLines(segment, StandardCharsets.UTF_8).stream().map(Json::parseObject).toList();
    }

    @Test
    void subagentStart_childOfTheSessionsMainAgent_isDepthOneAssertedParent() throws IOException {
        InProcessDispatch.Response r = send("subagentStart", "subagentStart.json", Map.of());
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).isEmpty();
        Map<String, Object> start = ledgerLines().get(0);
        assertThat(start).containsEntry("event", "subagent_start").containsEntry("ref", AgentRef.of(CHILD))
                .containsEntry("parent_ref", AgentRef.of(ROOT)).containsEntry("session_id", ROOT)
                .containsEntry("depth", 1L).containsEntry("depth_basis", "asserted-parent");
    }

    @Test
    void spawnGuard_taskFromInsideAChild_decidesOnTheDepthArm_andDeniesInBlockingPosture() throws IOException {
        InProcessDispatch.Response top = send("preToolUse", "preToolUse.json", Map.of());
        assertThat(top.stdout()).as("the main agent's spawn is within max_depth").isEmpty();
        send("subagentStart", "subagentStart.json", Map.of());

        InProcessDispatch.Response nested = send("preToolUse", "preToolUse.2.json", Map.of("toolName", "task",
                "toolArgs", Map.of("prompt", "go deeper", "agent_type", "task", "name", "deeper", "mode", "sync")));

        assertThat(nested.exitCode()).isZero();
        Map<String, Object> out = Json.parseObject(nested.stdout());
        assertThat(out).containsEntry("permissionDecision", "deny");
        assertThat((String) out.get("permissionDecisionReason")).contains("depth 2");
        Map<String, Object> guard = ledgerLines().get(ledgerLines().size() - 1);
        assertThat(guard).containsEntry("event", "spawn_guard").containsEntry("caller_ref", AgentRef.of(CHILD))
                .containsEntry("depth_basis", "caller-open-record").containsEntry("spawn_depth", 2L)
                .containsEntry("depth_usable_for_derivation", true).containsEntry("acted", true);
    }
}
