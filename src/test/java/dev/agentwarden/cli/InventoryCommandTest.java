package dev.agentwarden.cli;

import dev.agentwarden.testing.SharedLocks;
import org.junit.jupiter.api.parallel.ResourceLock;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.inventory.FakeMcpServer;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code warden inventory snapshot|diff|preflight} end to end against the scripted server. */
@ResourceLock(SharedLocks.FAKE_MCP_SERVERS)
class InventoryCommandTest {
    @TempDir
    Path project;
    @TempDir
    Path home;

    private void configure(String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, Object> server = Map.of("command", java, "args",
                List.of("-cp", System.getProperty("java.class.path"), FakeMcpServer.class.getName(), mode));
        Files.writeString(project.resolve(".mcp.json"), Json.write(Map.of("mcpServers", Map.of("fake", server))));
    }

    private CliRun inventory(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "inventory";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRun.of(all);
    }

    private String[] take(String command, String... more) {
        String[] base = {command, "--project-dir", project.toString(), "--user-home", home.toString(), "--host", "claude",
                "--allow-project-servers", "--json"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void preflight_classifiesDriftAndPrintsTheDiffAgainstTheStoredBaseline() throws IOException {
        configure("paginate");
        CliRun first = inventory(take("snapshot"));
        assertThat(first.exit()).as(first.err()).isZero();
        Map<String, Object> baseline = Json.parseObject(first.out());
        String hash = (String) baseline.get("inventory_sha256");
        Path prereg = project.resolve("prereg.yaml");
        Files.writeString(prereg, "baseline: " + hash + "\nrequired_tools: [claude/fake/tool-p1]\n");

        CliRun same = inventory(take("preflight", "--prereg", prereg.toString()));
        assertThat(same.exit()).as(same.err()).isZero();
        Map<String, Object> none = Json.parseObject(same.out());
        assertThat(none.get("inventory_drift")).isEqualTo("NONE");
        assertThat(none.get("schema")).isEqualTo("warden.inventory.preflight/1");
        assertThat(((Map<?, ?>) none.get("diff")).get("added")).isEqualTo(List.of());

        configure("late-tool");
        Files.writeString(prereg, "baseline: " + hash + "\n");
        CliRun drifted = inventory(take("preflight", "--prereg", prereg.toString()));
        assertThat(drifted.exit()).isEqualTo(ExitCode.FINDINGS.code());
        Map<String, Object> exploratory = Json.parseObject(drifted.out());
        assertThat(exploratory.get("inventory_drift")).isEqualTo("EXPLORATORY");
        Map<?, ?> diff = (Map<?, ?>) exploratory.get("diff");
        assertThat(diff.get("added")).isEqualTo(List.of("claude/fake/alpha", "claude/fake/beta", "claude/fake/gamma"));
        assertThat(diff.get("removed")).isEqualTo(List.of("claude/fake/tool-p1", "claude/fake/tool-p2", "claude/fake/tool-p3"));

        Files.writeString(prereg, "baseline: " + hash + "\nrequired_tools: [claude/fake/tool-p1]\n");
        CliRun voided = inventory(take("preflight", "--prereg", prereg.toString()));
        assertThat(voided.exit()).isEqualTo(ExitCode.HALT.code());
        assertThat(Json.parseObject(voided.out()).get("reasons")).isEqualTo(List.of("required tool missing: claude/fake/tool-p1"));
    }

    @Test
    void diff_ofTwoStoredSnapshots_namesAddedAndRemovedTools() throws IOException {
        configure("paginate");
        String a = (String) Json.parseObject(inventory(take("snapshot")).out()).get("stored");
        configure("late-tool");
        String b = (String) Json.parseObject(inventory(take("snapshot")).out()).get("stored");
        CliRun diff = inventory("diff", a, b);
        assertThat(diff.exit()).as(diff.err()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(diff.out()).contains("+ claude/fake/gamma").contains("- claude/fake/tool-p2");
        assertThat(inventory("diff", a, a).exit()).isZero();
    }

    @Test
    void snapshot_ofBrokenServer_exitsOneWithTheReason() throws IOException {
        configure("crash");
        CliRun run = inventory("snapshot", "--project-dir", project.toString(), "--user-home", home.toString(),
                "--host", "claude", "--allow-project-servers", "--no-store");
        assertThat(run.exit()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(run.out()).contains("claude/fake [stdio] START_FAILED").contains("boom");
    }

    /**
     * Issue 28 item 10: a cloned repository's {@code .mcp.json} linked to {@code /dev/zero} passed the
     * size check (the link's target reports 0) and was read to an OutOfMemoryError; a FIFO blocked.
     */
    @Test
    void issue28_mcpJsonLinkedToDevZeroOrAFifo_isRefusedClearly_andTheOtherServersAreSnapshotted() throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, Object> server = Map.of("command", javaBin, "args",
                List.of("-cp", System.getProperty("java.class.path"), FakeMcpServer.class.getName(), "paginate"));
        Files.writeString(home.resolve(".claude.json"), Json.write(Map.of("mcpServers", Map.of("userfake", server))));
        Files.createSymbolicLink(project.resolve(".mcp.json"), Path.of("/dev/zero"));

        CliRun zero = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(120),
                () -> inventory(take("snapshot", "--no-store")));

        assertThat(zero.exit()).as(zero.err()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(zero.err()).contains(".mcp.json: not read").contains("outside " + project)
                .doesNotContain("OutOfMemoryError").doesNotContain("\tat ");
        Map<String, Object> snapshot = Json.parseObject(zero.out());
        assertThat(snapshot.get("complete")).as("every server that was read was taken").isEqualTo(true);
        assertThat(Json.write(snapshot.get("servers"))).contains("claude/userfake").contains("tool-p1");

        Files.delete(project.resolve(".mcp.json"));
        Path fifo = project.resolve("pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        Files.createSymbolicLink(project.resolve(".mcp.json"), fifo.getFileName());

        CliRun pipe = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(120),
                () -> inventory(take("snapshot", "--no-store")));

        assertThat(pipe.exit()).as(pipe.err()).isEqualTo(ExitCode.FINDINGS.code());
        assertThat(pipe.err()).contains(".mcp.json: not read").contains("not a regular file");
        assertThat(Json.write(Json.parseObject(pipe.out()).get("servers"))).contains("claude/userfake");
    }
}
