package dev.agentwarden.inventory;

import dev.agentwarden.testing.SharedLocks;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stdio client against {@link FakeMcpServer}: every failure is recorded with its reason, none thrown. */
@ResourceLock(SharedLocks.FAKE_MCP_SERVERS)
class McpSnapshotterTest {
    private static final McpSnapshotter.Limits LIMITS = new McpSnapshotter.Limits(Duration.ofSeconds(15),
            Duration.ofSeconds(2), Duration.ofMillis(200), Duration.ofSeconds(3), 10, 100);

    @TempDir
    Path dir;

    private ServerSnapshot run(String mode) {
        return run(mode, LIMITS);
    }

    private ServerSnapshot run(String mode, McpSnapshotter.Limits limits) {
        List<String> args = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
                FakeMcpServer.class.getName(), mode));
        McpServerConfig config = new McpServerConfig("claude", "fake-" + mode, "test", false, McpServerConfig.STDIO,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), args,
                Map.of("FAKE_SECRET", "s3cr3t-value"), null, null, Map.of());
        return new McpSnapshotter(limits, dir).snapshot(config, ClientProfile.none(), false);
    }

    @Test
    void snapshot_ofCrashingServer_isStartFailedWithItsStderr() {
        ServerSnapshot s = run("crash");
        assertThat(s.status()).isEqualTo(ServerStatus.START_FAILED);
        assertThat(s.reason()).contains("exit 3").contains("boom");
        assertThat(s.sha256()).isNull();
    }

    @Test
    void snapshot_ofHangingServer_timesOutAndIsKilled() {
        ServerSnapshot s = run("hang", new McpSnapshotter.Limits(Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofMillis(100), Duration.ofSeconds(1), 10, 100));
        assertThat(s.status()).isEqualTo(ServerStatus.TIMEOUT);
        assertThat(s.reason()).contains("initialize");
        assertThat(ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("")
                .contains(FakeMcpServer.class.getName())).count()).isZero();
    }

    @Test
    void snapshot_whenToolsListHangs_timesOut() {
        ServerSnapshot s = run("hang-list");
        assertThat(s.status()).isEqualTo(ServerStatus.TIMEOUT);
        assertThat(s.reason()).contains("tools/list");
    }

    @Test
    void snapshot_ofGarbageServer_isGarbage() {
        ServerSnapshot s = run("garbage");
        assertThat(s.status()).isEqualTo(ServerStatus.GARBAGE);
        assertThat(s.reason()).contains("not JSON").contains("Welcome!");
    }

    @Test
    void snapshot_withDuplicateToolNames_isRecordedAsDuplicate() {
        ServerSnapshot s = run("duplicate");
        assertThat(s.status()).isEqualTo(ServerStatus.DUPLICATE_TOOLS);
        assertThat(s.reason()).contains("[echo]");
        assertThat(s.tools()).hasSize(2);
    }

    @Test
    void snapshot_followsNextCursorToTheLastPage() {
        ServerSnapshot s = run("paginate");
        assertThat(s.status()).isEqualTo(ServerStatus.OK);
        assertThat(s.tools()).extracting(t -> t.get("name")).containsExactly("tool-p1", "tool-p2", "tool-p3");
    }

    @Test
    void snapshot_withRepeatingCursor_stopsAsGarbage() {
        ServerSnapshot s = run("cursor-loop");
        assertThat(s.status()).isEqualTo(ServerStatus.GARBAGE);
        assertThat(s.reason()).contains("nextCursor repeats");
    }

    @Test
    void snapshot_afterListChanged_relistsAndHasTheLateTool() {
        ServerSnapshot s = run("late-tool");
        assertThat(s.status()).isEqualTo(ServerStatus.OK);
        assertThat(s.listChanged()).isEqualTo(1);
        assertThat(s.settled()).isTrue();
        assertThat(s.tools()).extracting(t -> t.get("name")).containsExactly("alpha", "beta", "gamma");
    }

    @Test
    void snapshot_ofMissingCommand_isStartFailed() {
        McpServerConfig config = new McpServerConfig("codex", "nope", "test", false, McpServerConfig.STDIO,
                dir.resolve("no-such-binary").toString(), List.of(), Map.of(), null, null, Map.of());
        ServerSnapshot s = new McpSnapshotter(LIMITS, dir).snapshot(config, ClientProfile.none(), false);
        assertThat(s.status()).isEqualTo(ServerStatus.START_FAILED);
        assertThat(s.reason()).contains("cannot start");
    }

    @Test
    void snapshot_ofProjectDeclaredStdioServer_isNotStartedWithoutConsent() {
        McpServerConfig config = new McpServerConfig("claude", "repo", "/p/.mcp.json", true, McpServerConfig.STDIO,
                "sh", List.of("-c", "touch " + dir.resolve("ran")), Map.of(), null, null, Map.of());
        ServerSnapshot s = new McpSnapshotter(LIMITS, dir).snapshot(config, ClientProfile.none(), false);
        assertThat(s.status()).isEqualTo(ServerStatus.SKIPPED_UNTRUSTED);
        assertThat(dir.resolve("ran")).doesNotExist();
    }

    @Test
    void snapshotJson_neverCarriesEnvValuesOrArguments() {
        ServerSnapshot s = run("paginate");
        String json = dev.agentwarden.json.Json.write(s.toJson());
        assertThat(json).doesNotContain("s3cr3t-value").doesNotContain("FAKE_SECRET").doesNotContain("-cp");
    }
}
