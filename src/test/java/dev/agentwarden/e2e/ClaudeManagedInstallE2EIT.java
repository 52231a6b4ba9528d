package dev.agentwarden.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentwarden.e2e.ManagedEtc.Overlay;
import dev.agentwarden.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ManagedInstallE2E} on the real Claude Code: the managed install writes
 * {@code /etc/claude-code/managed-settings.json}; the managed Warden policy in {@code /etc/agent-warden/manifest.yaml}
 * denies {@code rm -rf}. A {@code victim} directory proves whether the denied command ran.
 */
class ClaudeManagedInstallE2EIT extends ManagedInstallE2E<ClaudeRun> {
    private static final String REASON = "MANAGED-26: rm -rf is refused on this machine";

    private ClaudeCodeSession claude;

    ClaudeManagedInstallE2EIT() {
        super(new ManagedHost(HostInstall.CLAUDE_CODE, "Claude Code", "claude", "claude-code", REASON,
                ManagedEtc.denyRmRf("claude", "Bash", REASON), "claude-code/managed-settings.json", "PreToolUse",
                "disableAllHooks",
                "no Warden hook anywhere: rm -rf runs (the managed policy alone enforces nothing)",
                "managed hook runs; rm -rf denied with the managed reason; the project's own hook does not run",
                "rm -rf denied by the managed hook; the project's own PreToolUse hook ran too"));
    }

    @Override
    void startSessions(HostSuite suite) {
        claude = new ClaudeCodeSession(suite.binary(), suite.sandbox(), suite.wardenCache());
    }

    @Override
    Map<String, String> baseEnv() {
        return claude.baseEnv();
    }

    @Override
    boolean hooksOffSilencesTheProjectHook() {
        return true;
    }

    @Test
    void managedOnly_projectHooksStop_managedDenyHolds_andUninstallGivesTheFileBack(@TempDir Path dir) throws Exception {
        E2eSummary.Row row = summary.row(host, "managed install --managed-only",
                "allowManagedHooksOnly: the project's hook does not run; rm -rf denied; uninstall restores the file");
        managedOnlyRound(dir, row, "{\n  \"permissions\": {\"deny\": [\"Bash(curl:*)\"]}\n}\n",
                "\"allowManagedHooksOnly\": true", false);
        row.pass();
    }

    @Override
    void assertCommandRan(ClaudeRun run, E2eProject project, E2eSummary.Row row) {
        row.timing(run);
        row.observed("victim " + (project.exists("victim/keep.txt") ? "kept" : "deleted") + "; denials "
                + run.permissionDenials());
        assertThat(run.completed()).as("the host session completed: " + run.describe()).isTrue();
        assertThat(run.permissionDenials()).isEmpty();
        assertThat(project.exists("victim")).as("rm -rf ran").isFalse();
    }

    @Override
    void assertManagedDeny(ClaudeRun run, E2eProject project, E2eSummary.Row row) {
        row.timing(run);
        Optional<ClaudeRun.ToolResultSeen> result = run.toolResult("rm");
        row.observed(result.map(ClaudeRun.ToolResultSeen::describe).orElse("no tool_result")
                + "; victim " + (project.exists("victim/keep.txt") ? "kept" : "DELETED")
                + "; project hook " + (project.exists(PROJECT_HOOK_RAN) ? "ran" : "did not run"));
        assertThat(run.completed()).as("the host session completed: " + run.describe()).isTrue();
        assertThat(run.server().problems()).as("scripted model problems").isEmpty();
        assertThat(result).as("tool_result for rm -rf").hasValueSatisfying(r -> {
            assertThat(r.isError()).isTrue();
            assertThat(r.content()).contains(REASON);
        });
        assertThat(project.exists("victim/keep.txt")).as("rm -rf ran").isTrue();
        assertThat(run.permissionDenials()).containsExactly("toolu_rm");
    }

    /**
     * A project with a {@code victim} directory that {@code rm -rf victim} is allowed to remove, and its own
     * {@code .claude/settings.json}: no Warden hook, one hook of its own that leaves a marker, and
     * {@code disableAllHooks: true} when asked.
     */
    @Override
    void arrangeProject(E2eProject project, boolean disableAllHooks) throws IOException {
        Files.createDirectories(project.root().resolve("victim"));
        Files.writeString(project.root().resolve("victim/keep.txt"), "keep\n");
        project.allowBash("rm -rf victim");
        Map<String, Object> handler = new LinkedHashMap<>();
        handler.put("type", "command");
        handler.put("command", "touch \"$CLAUDE_PROJECT_DIR/" + PROJECT_HOOK_RAN + "\"");
        Map<String, Object> group = new LinkedHashMap<>();
        group.put("matcher", "Bash");
        group.put("hooks", List.of(handler));
        Map<String, Object> settings = new LinkedHashMap<>();
        if (disableAllHooks) {
            settings.put("disableAllHooks", Boolean.TRUE);
        }
        settings.put("hooks", Map.of("PreToolUse", List.of(group)));
        Files.writeString(project.root().resolve(".claude/settings.json"), Json.writePretty(settings), StandardCharsets.UTF_8);
    }

    @Override
    ClaudeRun session(Overlay etc, E2eProject project) throws IOException {
        ModelScript script = ModelScript.of(
                Turn.tool("rm", "Bash", Map.of("command", "rm -rf victim", "description", "remove victim")),
                Turn.text("FINAL: done"));
        try (ScriptedModelServer server = ScriptedModelServer.start(new AnthropicMessagesApi(), script)) {
            return claude.run(project, server, "remove the victim directory", Map.of(), etc.inside());
        }
    }
}
